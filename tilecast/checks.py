"""What the record by itself gives the TD cause to look at: a player lost on time, a board (as
read or as recorded) holding more of a letter than the set has, an out-play bonus that such a
board puts in doubt, and six scoreless turns whose racks the tile count does not give (the
recorder settles those it does), which end the game once both racks are entered.

Decided from the record alone and journaled as alert entries like any other, so each is raised
once (once per game, or once each time a letter goes over), also across restarts: what was
raised is read back from the journal's alert entries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from tilecast.engine import game as g
from tilecast.engine.board import Board
from tilecast.engine.tiles import TileSet

# kinds raised once per game (camera-resolution: tilecast.watch, at a run's first reading)
ONCE = ("time-forfeit", "rack-in-doubt", "scoreless-end", "camera-resolution")


def letters_over(faces: Iterable[str], tileset: TileSet) -> dict[str, tuple[int, int]]:
    """Faces held more often than the set has them: face -> (held, in the set)."""
    held = Counter(faces)
    return {face: (n, tileset.counts.get(face, 0)) for face, n in sorted(held.items())
            if n > tileset.counts.get(face, 0)}


def row_faces(rows: Iterable[str], board: Board) -> list[str]:
    """The faces in the camera's rows ('?' a blank, '.' none), a square the record holds a
    blank on counted as a blank whatever letter the camera takes it for (a correction of the
    record, or the operator, settled it)."""
    return ["?" if (tile := board.at(r, c)) is not None and tile.blank else ch
            for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]


@dataclass(frozen=True)
class Raised:
    """What has been alerted: kinds raised once per game, and letters alerted as too many that
    are still too many (one that drops back and goes over again is alerted again)."""

    kinds: frozenset[str] = frozenset()
    letters: frozenset[str] = frozenset()

    def noting(self, entry: dict[str, Any]) -> Raised:
        """With a journaled alert entry taken into account."""
        kind, data = entry.get("kind"), entry.get("data") or {}
        if kind in ONCE:
            return replace(self, kinds=self.kinds | {kind})
        if kind == "too-many-of-letter":
            told = set(data.get("letters") or ())
            if "letter" in data:
                told.add(data["letter"])
            return replace(self, letters=self.letters | told)
        return self

    def keeping(self, over: Iterable[str]) -> Raised:
        """Only the letters still over (kept after each reading of the board)."""
        return replace(self, letters=self.letters & frozenset(over))


def over_now(game: g.Game, rows: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Letters too many on the camera's last rows or on the recorded board (the larger count)."""
    seen = letters_over(row_faces(rows, game.board), game.tileset)
    for face, counts in letters_over(game.board.faces(), game.tileset).items():
        seen[face] = max(seen.get(face, counts), counts)
    return dict(sorted(seen.items()))


def due(game: g.Game, rows: tuple[str, ...], raised: Raised, players: tuple[str, str],
        time: float | None, frame: int | None) -> dict[str, Any] | None:
    """The next alert entry the record calls for, or None."""
    turn = len(game.turns) - 1 if game.turns else None
    if game.forfeited is not None and "time-forfeit" not in raised.kinds:
        who = game.forfeited
        return _entry("time-forfeit", f"{players[who]} lost on time", "violation", turn, time,
                      {"player": who, "scores": list(game.scores)})
    over = over_now(game, rows)
    for face in sorted(set(over) - raised.letters):
        n, limit = over[face]
        data: dict[str, Any] = {"letter": face, "count": n, "limit": limit}
        if frame is not None:
            data["frame"] = frame
        message = f"the board holds {n} {face!r} tiles, the {game.tileset.name} set has {limit}"
        return _entry("too-many-of-letter", message, "warning", turn, time, data)
    outs = [i for i, t in enumerate(game.turns) if t.kind == "out"]
    on_board = letters_over(game.board.faces(), game.tileset)
    if outs and on_board and "rack-in-doubt" not in raised.kinds:
        rack = game.turns[outs[-1]].tiles
        extra = sum(n - limit for n, limit in on_board.values())
        held = ", ".join(f"{n} {face!r} (the set has {limit})"
                         for face, (n, limit) in on_board.items())
        message = (f"the out-play bonus counts {rack} as the rack left, but the board holds "
                   f"{held}: {extra} of those tiles may be on the board; check the rack")
        data = {"rack": rack, "extra": extra,
                "letters": {face: list(counts) for face, counts in on_board.items()}}
        return _entry("rack-in-doubt", message, "warning", outs[-1], time, data)
    if game.phase == g.SCORELESS and "scoreless-end" not in raised.kinds:
        message = (f"{game.rules.scoreless_turns} scoreless turns in a row end the game: enter "
                   "both players' racks (an `end` with racks) to settle the scores")
        return _entry("scoreless-end", message, "warning", turn, time,
                      {"scores": list(game.scores)})
    return None


def _entry(kind: str, message: str, severity: str, turn: int | None, time: float | None,
           data: dict[str, Any]) -> dict[str, Any]:
    entry = {"type": "alert", "kind": kind, "message": message, "severity": severity,
             "turn": turn, "time": time, "data": data}
    return {k: v for k, v in entry.items() if v is not None}
