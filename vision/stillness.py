"""Deciding when the board is still and unoccluded long enough to commit what it shows.

Frames arrive with a motion score (how much the rectified board changed since the previous
frame) and the classifier's per-cell probabilities. A reading is committed once the board has
been still for `still_s` seconds and nearly every square's top label held across that window;
the committed probabilities are the window's mean, so motion blur right after a tile lands, a
flicker or a passing hand never becomes a move. Each still period commits once, and again
only if its reading changes and holds (tiles laid where the hand hardly shows).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .classify import CLASSES

EMPTY, BLANK = CLASSES.index("."), CLASSES.index("?")


@dataclass(frozen=True)
class StillConfig:
    """When the board counts as still and its reading as steady: the gate's tuning values."""

    still_s: float = 1.0  # how long the board must rest before it is read
    motion: float = 8.0  # grey-level change of a square (see motion_score) that is motion
    steady: float = 0.95  # share of squares whose top label must hold through the window
    surely_empty: float = 0.9  # empty-square probability that dates a square's last empty look
    max_slide: float = 0.4  # squares the whole view may slide and still count as the same board
    blur: float = 1.0  # pixels (at the reader's 8 a square) the views are blurred by to compare


def motion_score(previous: np.ndarray | None, current: np.ndarray,
                 cfg: StillConfig | None = None) -> float:
    """Change between two rectified greyscale boards: the third-largest mean absolute change of
    the 15x15 squares. A hand over a few squares is motion even if the rest of the board is
    still; one flickering square (an overlay, a reflection, sensor noise) is not. The whole
    view sliding by a fraction of a square (camera sway, the fit's jitter) is undone first:
    the board did not change."""
    if previous is None or previous.shape != current.shape:
        return float("inf")
    cfg = cfg or StillConfig()
    # Blurred, so that the sub-pixel resampling of the slide below does not itself show.
    before, after = (
        cv2.GaussianBlur(g.astype(np.float32), (0, 0), cfg.blur) for g in (previous, current)
    )
    diff = cv2.absdiff(before, after)
    (dx, dy), _ = cv2.phaseCorrelate(before, after)
    if 0.1 < max(abs(dx), abs(dy)) <= cfg.max_slide * current.shape[1] / 15:
        slide = np.float32([[1, 0, dx], [0, 1, dy]])
        moved = cv2.warpAffine(before, slide, before.shape[::-1], borderMode=cv2.BORDER_REPLICATE)
        slid = cv2.absdiff(moved, after)
        edge = int(np.ceil(max(abs(dx), abs(dy)))) + 1  # what slid in from outside the view
        slid[:edge], slid[-edge:], slid[:, :edge], slid[:, -edge:] = 0, 0, 0, 0
        diff = np.minimum(diff, slid)  # a slide only ever explains change away
    cells = cv2.resize(diff, (15, 15), interpolation=cv2.INTER_AREA).ravel()
    return float(np.partition(cells, -3)[-3])


class StillnessGate:
    """Feed it one frame's (time, motion, probs); it returns the probabilities to commit, or
    None while the board moves, settles or has already been committed. `emptied` keeps when
    each square last read as surely empty in a frame without motion, so that two plays the camera
    saw in one still reading can be put in the order they were laid."""

    def __init__(self, cfg: StillConfig | None = None) -> None:
        self.cfg = cfg or StillConfig()
        self._since: float | None = None
        self._window: list[np.ndarray] = []
        self._done = False
        self._quiet = False  # this window opened on a changed reading, not after motion
        self._committed: np.ndarray | None = None  # top labels of the last commit
        self.emptied: np.ndarray | None = None  # per square, when it last read as empty

    def feed(self, time: float, motion: float, probs: np.ndarray) -> np.ndarray | None:
        if self.emptied is None:
            self.emptied = np.full(len(probs), -np.inf)
        if motion > self.cfg.motion:
            self._since, self._window, self._done, self._quiet = None, [], False, False
            return None
        # surely empty: a plain blank can look half like its square; a hand passing over a
        # square (motion) says nothing of it
        self.emptied[probs[:, EMPTY] > self.cfg.surely_empty] = time
        if self._done:
            if (self._as_committed(probs.argmax(axis=1)) == self._committed).all():
                return None
            # A reading changed with no motion seen: a tile laid at the board's edge by a hand
            # mostly out of view moves too few squares to count. Read the board again.
            self._since, self._window, self._done, self._quiet = time, [], False, True
        if self._since is None:
            self._since = time
        self._window.append(probs)
        if time - self._since < self.cfg.still_s:
            return None
        return self._commit(time)

    def flush(self, time: float) -> np.ndarray | None:
        """At the end of a video: the reading of a board that has rested for at least half the
        still time since the last motion, as feed would have committed it had the video gone
        on. A video may stop moments after the last tile goes down."""
        if self._done or self._since is None or time - self._since < self.cfg.still_s / 2:
            return None
        return self._commit(time)

    def _as_committed(self, labels: np.ndarray) -> np.ndarray:
        """Top labels with each square read as a letter at the last commit and as a letter
        still given the committed letter: a tile's face read now as one letter, now as another
        (a shaking camera, a doubtful face) is no change on the board, and on a full board such
        flicker would otherwise keep the gate from ever finding it steady. The window's mean,
        which is what gets committed, still carries what every frame read. (Not a blank: a
        square read as one may be a plain square, or a tile not yet clear.)"""
        if self._committed is None:
            return labels
        kept = (labels < BLANK) & (self._committed < BLANK)
        return np.where(kept, self._committed, labels)

    def _commit(self, time: float) -> np.ndarray | None:
        labels = np.stack([self._as_committed(p.argmax(axis=1)) for p in self._window])
        held = (labels == labels[-1]).all(axis=0)
        mean = np.mean(self._window, axis=0)
        top = self._as_committed(mean.argmax(axis=1))
        # With no motion to show a hand, only squares that held their new reading through the
        # window tell that the tiles are down; one that flickers must not be committed with them.
        differs = None
        if self._quiet:
            differs = (labels[-1] != self._committed) | (top != self._committed)
        if held.mean() < self.cfg.steady or (differs is not None and not held[differs].all()):
            self._window = self._window[-1:]
            self._since = time
            return None
        self._done = True
        self._window = []
        if differs is not None and not differs.any():
            return None  # back to the committed reading: nothing new
        self._committed = top
        return mean
