"""The hall's boards: each shows a board recorded by its edge, from the event's stream, through
the same interface as a board this server watches itself (server/boards.py's BoardRunner), so
every page, overlay, stream and endpoint serves it unchanged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pluggy

from tilecast.engine.lexicon import Lexicon
from tilecast.hall.broker import Broker
from tilecast.hall.link import HallLink
from tilecast.hall.mirror import Mirror
from tilecast.opening import Spec, open_mirror
from tilecast.server.config import BoardSpec


class HallBoard:
    """A board whose record is folded from its edge's entries; its writes go to the edge.
    Its spec has no source: the camera, its preview and corners are the edge's (409 here)."""

    def __init__(self, spec: BoardSpec, out_dir: Path, pm: pluggy.PluginManager,
                 lexicons: dict[str, Lexicon] | None = None) -> None:
        self.spec = replace(spec, source="")
        self.out_dir = Path(out_dir)
        opened = Spec(spec.name, self.out_dir, "", spec.players, spec.profile, spec.lexicon)
        self.session: Mirror = open_mirror(opened, pm, lexicons)
        self.link: HallLink | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def status(self) -> str:
        mirror = self.session
        link = "not connected" if self.link is None else self.link.status
        state = "reading the stream" if not mirror.started else f"entry {mirror.applied}"
        problem = f"; {mirror.problem}" if mirror.problem else ""
        return f"edge board via broker ({link}; {state}){problem}"

    def submit(self, entry: dict[str, Any]) -> int:
        """Send the entry to the board's edge (tilecast.hall.link.HallLink.submit)."""
        assert self.link is not None, "the hall's boards are linked before serving"
        return self.link.submit(self.name, entry)

    def start(self) -> None:
        """The link (started by the hall for all its boards) feeds this board."""

    def close(self) -> None:
        self.session.close()


def link_boards(broker: Broker, boards: dict[str, HallBoard]) -> HallLink:
    """One broker connection feeding every board of the hall."""
    link = HallLink(broker, {name: board.session for name, board in boards.items()})
    for board in boards.values():
        board.link = link
    return link
