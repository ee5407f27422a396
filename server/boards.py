"""One served board: its session (shared by the camera thread and request threads), the camera
thread the server owns, the latest frame for the operator's preview, and the corners the
operator clicked (kept in `<out_dir>/<board>.corners.json`, not in the journal: they are not
game events)."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pluggy

from tilecast.engine.lexicon import Lexicon
from tilecast.files import write_atomic
from tilecast.opening import Spec, open_board
from tilecast.server.config import BoardSpec
from tilecast.session import SharedSession

log = logging.getLogger(__name__)

# Makes a board reader (tilecast.vision.reader.BoardReader or alike) from manual corners; by
# default the opened board's own (tilecast.opening.OpenBoard.reader).
ReaderFactory = Callable[[np.ndarray | None], Any]


class CornersError(ValueError):
    """Four clicked points that cannot be a board's corners."""


def order_corners(points: Any) -> np.ndarray:
    """Four points clicked in any order, as the reader wants them: clockwise from the top left
    of the picture (which corner is 1A is read later from the tiles)."""
    if not (
        isinstance(points, list | tuple)
        and len(points) == 4
        and all(isinstance(p, list | tuple) and len(p) == 2 for p in points)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for p in points for v in p)
    ):
        raise CornersError("corners are four [x, y] pairs of numbers")
    pts = np.asarray(points, np.float64)
    if not np.isfinite(pts).all():
        raise CornersError("corners must be finite numbers")
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ring = pts[np.argsort(angles)]  # clockwise on screen, where y grows downwards
    ring = np.roll(ring, -int(np.argmin(ring.sum(axis=1))), axis=0)
    x, y = ring[:, 0], ring[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    edges = np.roll(ring, -1, axis=0) - ring
    following = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    if area < 100 or not ((turns > 0).all() or (turns < 0).all()):
        raise CornersError("the four corners must enclose a convex area of at least 100 pixels")
    return ring.astype(np.float32)


class Preview:
    """What the camera thread last saw, for the MJPEG preview: wraps the board reader."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self._cond = threading.Condition()
        self.frame: np.ndarray | None = None
        self.corners: np.ndarray | None = None
        self.count = 0

    @property
    def votes(self) -> np.ndarray:
        return self.reader.votes

    @property
    def why(self) -> str:
        """Why the last frame gave no reading ('' when it gave one)."""
        return self.reader.why

    def adopt(self, view: int) -> None:
        self.reader.adopt(view)

    def read(self, frame: np.ndarray) -> Any:
        reading = self.reader.read(frame)
        with self._cond:
            self.frame = frame
            self.corners = None if reading is None else np.asarray(reading.corners)
            self.count += 1
            self._cond.notify_all()
        return reading

    def next(self, after: int, timeout: float) -> tuple[int, np.ndarray, np.ndarray | None] | None:
        """The first frame read after frame number `after`, waiting up to `timeout` seconds."""
        with self._cond:
            self._cond.wait_for(lambda: self.count > after, timeout)
            if self.count <= after or self.frame is None:
                return None
            return self.count, self.frame, self.corners

    def frame_size(self) -> tuple[int, int] | None:
        with self._cond:
            return None if self.frame is None else (self.frame.shape[1], self.frame.shape[0])

    def set_manual(self, corners: np.ndarray | None) -> None:
        """Read from these corners from the next frame on (None: find the board again)."""
        self.reader.manual = corners
        self.reader.fix = None


class BoardRunner:
    """A board's session and, when it has a source, the thread that watches it."""

    def __init__(
        self,
        spec: BoardSpec,
        out_dir: Path,
        pm: pluggy.PluginManager,
        lexicons: dict[str, Lexicon] | None = None,
        make_reader: ReaderFactory | None = None,
        fps: float = Spec.fps,
        still_s: float = Spec.still_s,
    ) -> None:
        self.spec, self.out_dir = spec, Path(out_dir)
        self.corners_path = self.out_dir / f"{spec.name}.corners.json"
        opened = Spec(
            spec.name, self.out_dir, spec.source, spec.players, spec.profile, spec.lexicon,
            enrolled=spec.tileset, fps=fps, still_s=still_s, realtime=True,
        )
        self.board = open_board(opened, pm, lexicons, SharedSession)
        self.session = self.board.session  # a SharedSession
        self.make_reader = make_reader or self.board.reader
        self.preview: Preview | None = None
        self.status = "camera starting" if spec.source else "operator input only"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    def start(self) -> None:
        if self.spec.source and self._thread is None:
            self._thread = threading.Thread(
                target=self._watch, name=f"tilecast-{self.name}", daemon=True
            )
            self._thread.start()

    def submit(self, entry: dict[str, Any]) -> int:
        """Record an operator's entry through the session; its journal sequence number
        (recorder.InputError, nothing journaled, when the record refuses it)."""
        return self.session.record(entry)

    # --- corners --------------------------------------------------------------------------

    def saved_corners(self) -> np.ndarray | None:
        if not self.corners_path.exists():
            return None
        try:
            return order_corners(json.loads(self.corners_path.read_text())["corners"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("%s: ignored (%s)", self.corners_path, exc)
            return None

    def set_corners(self, corners: np.ndarray | None) -> None:
        """Use and keep the operator's corners; None forgets them (the board is found again)."""
        if corners is None:
            self.corners_path.unlink(missing_ok=True)
        else:
            write_atomic(self.corners_path, json.dumps({"corners": corners.tolist()}) + "\n")
        if self.preview is not None:
            self.preview.set_manual(corners)

    # --- the camera thread ----------------------------------------------------------------

    def _watch(self) -> None:
        from tilecast.watch import watch

        try:
            self.preview = Preview(self.make_reader(self.saved_corners()))
            self.status = "camera watching"
            troubles = watch(self.session, self.preview, self.board.frames(self._stop),
                             self.board.gate(), replay_until=self.board.replay_until)
            ridden = self.board.ridden_out(troubles)  # read all the same; worth a warning
            if ridden is not None:
                log.warning("board %s: %s", self.name, ridden)
            self.status = "camera source ended"
        except Exception as exc:  # the board stays up for operator input
            log.exception("board %s: camera stopped", self.name)
            self.status = f"camera error: {exc}"

    def close(self) -> None:
        """Stop the camera thread and close the session."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.session.close()

