"""Built-in plugin `alerts`: every alert for the TD, logged to disk and kept open until
acknowledged.

Every alert comes from the session through `tilecast_alert`, decided in the core and journaled
first (the record's own checks are tilecast.checks), so a restarted session never logs one twice.
Each alert becomes one JSON line in `<out_dir>/<board>.alerts.jsonl`, written and synced before
the hook returns; the file is only ever appended to, and alert ids go on increasing across
sessions that reopen it.

Each plugin manager holds its own `AlertLog` (tilecast.pluginmanager makes it), which the server
reads through tilecast.services.AlertsLog: `open_alerts()`, `acknowledge(board, id)` and
`logged(session)`. Which alerts were acknowledged is kept in memory only.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


@dataclass
class _Board:
    path: Path
    next_id: int
    open: dict[int, dict[str, Any]] = field(default_factory=dict)


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
                "logged": round(time.time(), 3),  # wall-clock seconds, for the TD's "when"
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

    @hookimpl
    def tilecast_alert(self, session: SessionInfo, alert: Alert) -> None:
        self.record(session, alert)
