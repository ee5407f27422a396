"""A board as the hall sees it: its edge's journal entries folded into a Recorder, the same
code the edge's session applies them with, and the plugins told what the session told them.

The hall never decides anything itself: what the record implies (the end of a game, the TD's
alerts) was journaled by the edge and arrives as entries like the rest."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pluggy

from tilecast.engine.game import Game
from tilecast.events import SessionInfo
from tilecast.recorder import InputError, Recorder

log = logging.getLogger(__name__)


class Mirror:
    """One board's record, rebuilt from its entries in order. Until `start`, entries are
    folded silently (a hall catching up, as a session resumes from its journal); after it,
    each entry's hooks fire as the edge's did."""

    def __init__(self, info: SessionInfo, recorder: Recorder, pm: pluggy.PluginManager) -> None:
        self.info, self.recorder, self.pm = info, recorder, pm
        self.lock = threading.RLock()
        self._folded = threading.Condition(self.lock)
        self.applied = -1  # the sequence number of the last entry folded
        self.started = False
        self.problem = ""  # an entry the edge recorded that this record refused

    @property
    def game(self) -> Game:
        return self.recorder.game

    def _fire(self, hook: str, **kwargs: Any) -> None:
        getattr(self.pm.hook, f"tilecast_{hook}")(session=self.info, **kwargs)

    def fold(self, entry: dict[str, Any]) -> bool:
        """Apply the next entry; one already folded (a redelivery) is skipped, and so is one
        past a gap (False either way: the stream is read again from after `applied`)."""
        with self.lock:
            seq = entry.get("seq")
            if seq != self.applied + 1:
                if isinstance(seq, int) and seq > self.applied + 1:
                    log.warning("board %s: entry %s after %s; reading again",
                                self.info.board, seq, self.applied)
                return False
            self.applied = seq
            try:
                notes = self.recorder.apply(dict(entry))
            except InputError as exc:  # the edge runs other rules or words than the hall
                self.problem = f"entry {seq} refused here ({exc}): check the event file"
                log.error("board %s: %s", self.info.board, self.problem)
                return True
            self._folded.notify_all()
            if self.started:
                for hook, kwargs in notes:
                    self._fire(hook, **kwargs)
                if entry["type"] == "board":
                    self._fire("board_committed", board=self.game.board, rows=entry["rows"],
                               frame=entry["frame"], time=entry["time"])
            return True

    def start(self) -> None:
        """Caught up: tell the plugins of the game so far, and of each entry from now on."""
        with self.lock:
            if not self.started:
                self.started = True
                self._fire("session_start", game=self.game)

    def wait_for(self, seq: int, timeout: float) -> bool:
        """Whether entry `seq` is folded within `timeout` seconds."""
        with self._folded:
            return self._folded.wait_for(lambda: self.applied >= seq, timeout)

    def close(self) -> None:
        with self.lock:
            if self.started:
                self._fire("session_end", game=self.game)
