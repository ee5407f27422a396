"""The per-game journal: every input and inferred event, appended and fsynced before anyone
hears of it, so a crash never costs a move and a restart replays it exactly."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class JournalError(ValueError):
    """The journal file is damaged somewhere other than a torn last line."""


class Journal:
    """Append-only JSON lines. A last line cut short by a crash is dropped on open (it was never
    acknowledged); damage anywhere else is an error rather than a silent loss."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.entries: list[dict[str, Any]] = self._read()
        self._fh = open(self.path, "ab")  # noqa: SIM115 - held open for the session

    def _read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        entries = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError as exc:
                if number == len(lines):  # torn final write, never fsynced as a whole line
                    with open(self.path, "r+b") as fh:
                        fh.truncate(len(data) - len(line))
                    break
                raise JournalError(f"{self.path}:{number}: damaged entry: {exc}") from exc
        return entries

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Write one entry durably; returns it with its sequence number `seq`."""
        entry = {"seq": len(self.entries), **entry}
        self._fh.write(json.dumps(entry, separators=(",", ":")).encode() + b"\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.entries.append(entry)
        return entry

    def close(self) -> None:
        self._fh.close()
