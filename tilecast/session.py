"""A session per board: wires a frame source through vision to the recorder, journals every
event before plugins hear of it, and resumes from the journal after a crash."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pluggy

from tilecast.engine.board import SIZE
from tilecast.engine.infer import CLASSES
from tilecast.events import SessionInfo
from tilecast.journal import Journal
from tilecast.observation import Observation
from tilecast.recorder import InputError, Recorder

log = logging.getLogger(__name__)


class SessionClosed(RuntimeError):
    """An entry came after the session ended (a run shutting down): nothing was recorded."""


class Session:
    """Owns one board's journal and record. Every change goes through `submit`."""

    def __init__(self, info: SessionInfo, recorder: Recorder, pm: pluggy.PluginManager) -> None:
        self.info, self.recorder, self.pm = info, recorder, pm
        self.journal = Journal(Path(info.out_dir) / f"{info.board}.journal.jsonl")
        self.closed = False
        for entry in self.journal.entries:  # resume: the journal is the truth
            self.recorder.apply(entry)
        self._fire("session_start", game=self.recorder.game)
        self._settle()  # what a crash kept the last run from journaling

    @property
    def game(self):
        return self.recorder.game

    @property
    def resume_frame(self) -> int:
        """The last frame whose reading is in the journal (-1 for none): a restarted offline
        run continues after it."""
        frames = [e["frame"] for e in self.journal.entries if e.get("type") == "board"]
        return max(frames, default=-1)

    def _fire(self, hook: str, **kwargs: Any) -> None:
        getattr(self.pm.hook, f"tilecast_{hook}")(session=self.info, **kwargs)

    def submit(self, entry: dict[str, Any]) -> None:
        """Check an entry against the record, journal it durably, then tell the plugins.
        Raises recorder.InputError (and journals nothing) for an entry that cannot apply, and
        SessionClosed for one that comes after `close`."""
        if self.closed:
            raise SessionClosed(f"board {self.info.board}: the run has ended, so nothing was "
                                "recorded")
        notes = self.recorder.apply(dict(entry))
        self.journal.append(entry)
        for hook, kwargs in notes:
            self._fire(hook, **kwargs)
        self._settle()

    def _settle(self) -> None:
        """Journal and announce what the record now implies by itself (the end of the game
        after an out-play, alerts: tilecast.checks), so that a resumed run replays it rather
        than deciding anew."""
        implied = self.recorder.implied(self.info.players)
        if implied is not None:
            self.submit(implied)

    @property
    def camera_view(self) -> int | None:
        """The camera view (see vision.reader.Reading.view) the journal last recorded."""
        views = [
            e["view"] for e in self.journal.entries if e.get("type") == "board" and "view" in e
        ]
        return views[-1] if views else None

    def camera(self, seen: Observation) -> None:
        """A committed (still) camera reading: journal any move in it, then what was read."""
        probs, frame, time, view, emptied = seen.probs, seen.frame, seen.time, seen.view, \
            seen.emptied
        read, memory = probs.tolist(), self.recorder.memory
        # Up to two more plays the camera ran together, or the play after a correction of the
        # record: a correction records no play, so what follows it is read as any play is.
        played = False
        for _ in range(3):
            turns = len(self.game.turns)
            entries, memory = self.recorder.interpret(read, round(time, 3), played, emptied,
                                                      memory)
            for entry in entries:
                try:
                    self.submit(entry)
                except InputError as exc:
                    # What the camera saw cannot follow from the record as it stands (an
                    # earlier misread, a missed exchange): tell the TD, keep the reading.
                    self.submit(_unrecorded(entry, exc, len(self.game.turns)))
            amended = any(e["type"] == "correct" for e in entries)
            if len(self.game.turns) == turns and not amended:  # nothing more to read
                break
            played = played or len(self.game.turns) > turns
        # Journaled after the moves it caused: a crash in between re-reads this frame, and the
        # moves already recorded make it no change.
        top = probs.argmax(axis=1)
        rows = ["".join(CLASSES[k] for k in top[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
        entry = {"type": "board", "frame": frame, "time": round(time, 3), "rows": rows,
                 "alerted": memory.as_json()}
        if view is not None:
            entry["view"] = view
        self.submit(entry)
        self._fire("board_committed", board=self.game.board, rows=rows, frame=frame, time=time)

    def close(self) -> None:
        """End the session (an out-play was settled when it was recorded, see _settle)."""
        self.closed = True
        try:
            self._fire("session_end", game=self.game)
        finally:  # (a plugin that stops the run leaves the journal closed all the same)
            self.journal.close()


class SharedSession(Session):
    """A session the camera thread and other threads (the server's requests, an edge's
    answers to the hall) use together, one change at a time. Readers need no lock: the game
    is immutable and replaced whole."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lock = threading.RLock()
        super().__init__(*args, **kwargs)

    def submit(self, entry: dict[str, Any]) -> None:
        with self.lock:
            super().submit(entry)

    def camera(self, seen: Observation) -> None:
        with self.lock:
            super().camera(seen)

    def close(self) -> None:
        with self.lock:
            super().close()

    def record(self, entry: dict[str, Any]) -> int:
        """Submit an entry (as `submit`) and return its sequence number in the journal."""
        with self.lock:
            seq = len(self.journal.entries)
            self.submit(entry)
            return seq


def _unrecorded(entry: dict[str, Any], exc: Exception, turn: int) -> dict[str, Any]:
    """An alert entry for a camera entry the record refused, naming what was seen."""
    seen = f"{entry['coord']} {entry['word']}" if entry.get("type") == "play" else entry["type"]
    return {
        "type": "alert",
        "kind": "unrecorded-move",
        "message": f"camera saw {seen} but the record refuses it ({exc}); correct the record",
        "severity": "violation",
        "turn": turn,
        "time": entry.get("time"),
    }
