"""The per-game journal: every input and inferred event, appended and fsynced before anyone
hears of it, so a crash never costs a move and a restart replays it exactly."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tilecast.entries import JOURNAL, InputError, parse_entry


class JournalError(ValueError):
    """The journal file is damaged somewhere other than a torn last line, or holds an entry
    of the wrong shape (see tilecast.entries)."""


class JournalWriteError(RuntimeError):
    """An entry could not be written durably (a full disk, a read-only or vanished folder that
    cannot be made again): the run must stop rather than go on recording nothing."""


def _not_a_number(name: str) -> Any:
    """json.loads takes NaN and Infinity, which are not JSON; a journal never holds them (an
    entry that does is whole, so it is damage, not a torn last write)."""
    raise JournalError(f"{name} is not a JSON value")


class Journal:
    """Append-only JSON lines. A last line cut short by a crash is dropped on open (it was never
    acknowledged); damage anywhere else is an error rather than a silent loss."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.entries: list[dict[str, Any]] = self._read()
        self.rewritten = False  # whether the file was removed mid-run and written again
        self._fh = open(self.path, "ab")  # noqa: SIM115 - held open for the session
        # Told of each entry once it is durable (an edge publishes it: tilecast.hall.edge).
        self.appended: list[Callable[[dict[str, Any]], None]] = []

    def _read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        read = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                text = line.decode("utf-8")
                read.append((number, json.loads(text, parse_constant=_not_a_number)))
            except JournalError as exc:
                raise JournalError(f"{self.path}:{number}: damaged entry: {exc}") from exc
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                if number == len(lines):  # torn final write, never fsynced as a whole line
                    with open(self.path, "r+b") as fh:
                        fh.truncate(len(data) - len(line))
                    break
                what = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
                raise JournalError(f"{self.path}:{number}: damaged entry: {what}") from exc
        for number, entry in read:  # whole lines of the wrong shape: damage, not a torn write
            try:
                parse_entry(entry, JOURNAL)
            except InputError as exc:
                raise JournalError(f"{self.path}:{number}: {exc}") from exc
        return [entry for _, entry in read]

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Write one entry durably; returns it with its sequence number `seq`. ValueError for
        a value JSON cannot hold (NaN, infinity), before anything is written."""
        entry = {"seq": len(self.entries), **entry}
        line = _line(entry)
        try:
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self.entries.append(entry)
            if os.fstat(self._fh.fileno()).st_nlink == 0:
                self._restore()  # the file (or its folder) was removed while we wrote to it
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise JournalWriteError(f"{self.path}: cannot record entry {entry['seq']}: {why}"
                                    ) from exc
        for listener in self.appended:
            listener(entry)
        return entry

    def _restore(self) -> None:
        """Write every entry to the journal's path again, its folder made again if need be:
        what was recorded is never lost because someone removed the out-dir mid-game. The run
        says so at its end (`rewritten`): it met bad input."""
        self.rewritten = True
        self._fh.close()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".part")
        with open(part, "wb") as fh:
            fh.write(b"".join(_line(e) for e in self.entries))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(part, self.path)
        self._fh = open(self.path, "ab")  # noqa: SIM115 - held open for the session

    def close(self) -> None:
        """Close the file, written again first if it was removed since the last entry."""
        try:
            if os.fstat(self._fh.fileno()).st_nlink == 0:
                self._restore()
        except OSError as exc:
            raise JournalWriteError(f"{self.path}: cannot write the journal again: "
                                    f"{exc.strerror or exc}") from exc
        finally:
            self._fh.close()


def _line(entry: dict[str, Any]) -> bytes:
    return json.dumps(entry, separators=(",", ":"), allow_nan=False).encode() + b"\n"
