"""Built-in plugin `alerts`: every alert for the TD, logged to disk and kept open until
acknowledged.

Each alert becomes one JSON line in `<out_dir>/<board>.alerts.jsonl`, written and synced before
the hook returns; the file is only ever appended to, and alert ids go on increasing across
sessions that reopen it. Besides the alerts the session raises, a few are read off the hook
arguments: a game lost on time, a board that holds more of a letter than the tile set has
(a sanity check of what the session sent, usually a misread), and an out-play's rack bonus that
such a board puts in doubt.

Each plugin manager holds its own `AlertLog` (tilecast.pluginmanager makes it), which the server
reads through tilecast.services.AlertsLog: `open_alerts()`, `acknowledge(board, id)` and
`logged(session)`. Which alerts were acknowledged is kept in memory only.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tilecast.engine.game import Game, Result, Turn
from tilecast.engine.tiles import TileSet
from tilecast.events import Alert, SessionInfo
from tilecast.hookspecs import hookimpl


def log_path(session: SessionInfo) -> Path:
    return Path(session.out_dir) / f"{session.board}.alerts.jsonl"


def last_id(path: Path) -> int:
    """The highest alert id in a log, 0 when there is none; unreadable lines are skipped (a
    line cut short by a crash)."""
    if not path.exists():
        return 0
    highest = 0
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                highest = max(highest, int(json.loads(line)["id"]))
            except (ValueError, KeyError, TypeError):
                continue
    return highest


def append_line(path: Path, entry: dict[str, Any]) -> None:
    """Append one JSON line and sync it; a previous line left unterminated by a crash is closed
    first so the new one stays readable."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
    with path.open("a+b") as f:
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                line = "\n" + line
        f.write(line.encode("utf-8"))
        f.flush()
        os.fsync(f.fileno())


def letters_over(faces: Iterable[str], tileset: TileSet) -> dict[str, tuple[int, int]]:
    """Faces the board holds more of than the set has: face -> (on the board, in the set)."""
    on_board = Counter(faces)
    return {
        face: (n, tileset.counts.get(face, 0))
        for face, n in sorted(on_board.items())
        if n > tileset.counts.get(face, 0)
    }


def _last_turn(game: Game) -> int | None:
    return len(game.turns) - 1 if game.turns else None


@dataclass
class _Board:
    path: Path
    next_id: int
    open: dict[int, dict[str, Any]] = field(default_factory=dict)
    tileset: TileSet | None = None
    over: set[str] = field(default_factory=set)  # letters already reported as too many
    forfeit_reported: bool = False
    rack_reported: bool = False


class AlertLog:
    """The alerts of every board this process watches; safe to use from several threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._boards: dict[str, _Board] = {}

    def _board(self, session: SessionInfo) -> _Board:
        state = self._boards.get(session.board)
        if state is None:
            path = log_path(session)
            state = self._boards[session.board] = _Board(path, last_id(path) + 1)
        return state

    def record(self, session: SessionInfo, alert: Alert) -> dict[str, Any]:
        """Log `alert` for the session's board and keep it open; returns the logged entry."""
        with self._lock:
            state = self._board(session)
            entry = {
                "id": state.next_id,
                "board": session.board,
                "kind": alert.kind,
                "severity": alert.severity,
                "message": alert.message,
                "turn": alert.turn,
                "time": alert.time,
                "data": alert.data,
            }
            append_line(state.path, entry)
            state.next_id += 1
            state.open[entry["id"]] = entry
            return entry

    def open_alerts(self, board: str | None = None) -> list[dict[str, Any]]:
        """Alerts not yet acknowledged, of one board or all, oldest first."""
        with self._lock:
            names = [board] if board is not None else sorted(self._boards)
            return [
                entry
                for name in names
                if name in self._boards
                for _, entry in sorted(self._boards[name].open.items())
            ]

    def logged(self, session: SessionInfo) -> list[dict[str, Any]]:
        """Every alert in the board's log file, open or acknowledged, oldest first (a line cut
        short by a crash is skipped)."""
        path = log_path(session)
        if not path.exists():
            return []
        entries = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                entries.append(json.loads(line))
            except ValueError:
                continue
        return entries

    def acknowledge(self, board: str, alert_id: int) -> bool:
        """Close an alert; False when it was not open."""
        with self._lock:
            state = self._boards.get(board)
            return state is not None and state.open.pop(alert_id, None) is not None

    def _check_letters(
        self,
        session: SessionInfo,
        faces: Iterable[str],
        turn: int | None,
        time: float,
        frame: int | None,
    ) -> None:
        with self._lock:
            state = self._board(session)
            tileset = state.tileset
            if tileset is None:
                return
            over = letters_over(faces, tileset)
            new = sorted(set(over) - state.over)
            state.over = set(over)
        for face in new:
            n, limit = over[face]
            data: dict[str, Any] = {"letter": face, "count": n, "limit": limit}
            if frame is not None:
                data["frame"] = frame
            message = f"the board holds {n} {face!r} tiles, the {tileset.name} set has {limit}"
            alert = Alert("too-many-of-letter", message, "warning", turn, time, data)
            self.record(session, alert)

    def _game_seen(self, session: SessionInfo, game: Game) -> None:
        with self._lock:
            self._board(session).tileset = game.tileset
        self._check_letters(session, game.board.faces(), _last_turn(game), 0.0, None)

    def _forfeit(self, session: SessionInfo, game: Game, player: int) -> None:
        with self._lock:
            state = self._board(session)
            if state.forfeit_reported:
                return
            state.forfeit_reported = True
        name = session.players[player]
        alert = Alert(
            "time-forfeit",
            f"{name} lost on time",
            "violation",
            _last_turn(game),
            data={"player": player, "scores": list(game.scores)},
        )
        self.record(session, alert)

    def _rack_in_doubt(self, session: SessionInfo, game: Game) -> None:
        """The out-play's bonus takes every tile not on the board as the opponent's rack. A
        board with more of a letter than the set holds (a misread tile recorded as read) hides
        a tile that is really on the board among those, so the bonus may be too high."""
        over = letters_over(game.board.faces(), game.tileset)
        outs = [i for i, t in enumerate(game.turns) if t.kind == "out"]
        with self._lock:
            state = self._board(session)
            if not over or not outs or state.rack_reported:
                return
            state.rack_reported = True
        turn = game.turns[outs[-1]]
        extra = sum(n - limit for n, limit in over.values())
        held = ", ".join(f"{n} {face!r} (the set has {limit})" for face, (n, limit) in over.items())
        message = (f"the out-play bonus counts {turn.tiles} as the rack left, but the board holds "
                   f"{held}: {extra} of those tiles may be on the board; check the rack")
        data = {"rack": turn.tiles, "extra": extra,
                "letters": {face: list(counts) for face, counts in over.items()}}
        self.record(session, Alert("rack-in-doubt", message, "warning", outs[-1], data=data))

    @hookimpl
    def tilecast_session_start(self, session: SessionInfo, game: Game) -> None:
        with self._lock:
            state = self._board(session)
            state.over, state.forfeit_reported, state.rack_reported = set(), False, False
        self._game_seen(session, game)

    @hookimpl
    def tilecast_board_committed(
        self, session: SessionInfo, rows: list[str], frame: int, time: float
    ) -> None:
        faces = [ch for row in rows for ch in row if ch != "."]
        self._check_letters(session, faces, None, time, frame)

    @hookimpl
    def tilecast_move_recorded(self, session: SessionInfo, game: Game, turn: Turn) -> None:
        self._game_seen(session, game)
        if turn.kind == "time" and game.forfeited == turn.player:
            self._forfeit(session, game, turn.player)

    @hookimpl
    def tilecast_record_changed(self, session: SessionInfo, game: Game, reason: str) -> None:
        self._game_seen(session, game)

    @hookimpl
    def tilecast_alert(self, session: SessionInfo, alert: Alert) -> None:
        if alert.kind == "too-many-of-letter":  # the session told of these letters itself
            with self._lock:
                self._board(session).over.update((alert.data or {}).get("letters", ()))
        self.record(session, alert)

    @hookimpl
    def tilecast_game_ended(self, session: SessionInfo, game: Game, result: Result) -> None:
        if result.forfeited is not None:
            self._forfeit(session, game, result.forfeited)
        self._rack_in_doubt(session, game)
