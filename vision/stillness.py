"""Deciding when the board is still and unoccluded long enough to commit what it shows.

Frames arrive with a motion score (how much the rectified board changed since the previous
frame) and the classifier's per-cell probabilities. A reading is committed once the board has
been still for `still_s` seconds and nearly every square's top label held across that window;
the committed probabilities are the window's mean, so motion blur right after a tile lands, a
flicker or a passing hand never becomes a move. Each still period commits at most once.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class StillConfig:
    still_s: float = 1.0  # how long the board must rest before it is read
    motion: float = 8.0  # grey-level change of a square (see motion_score) that is motion
    steady: float = 0.95  # share of squares whose top label must hold through the window


def motion_score(previous: np.ndarray | None, current: np.ndarray) -> float:
    """Change between two rectified greyscale boards: the third-largest mean absolute change of
    the 15x15 squares. A hand over a few squares is motion even if the rest of the board is
    still; one flickering square (an overlay, a reflection, sensor noise) is not."""
    if previous is None or previous.shape != current.shape:
        return float("inf")
    diff = cv2.absdiff(previous, current).astype(np.float32)
    cells = cv2.resize(diff, (15, 15), interpolation=cv2.INTER_AREA).ravel()
    return float(np.partition(cells, -3)[-3])


class StillnessGate:
    """Feed it one frame's (time, motion, probs); it returns the probabilities to commit, or
    None while the board moves, settles or has already been committed."""

    def __init__(self, cfg: StillConfig | None = None) -> None:
        self.cfg = cfg or StillConfig()
        self._since: float | None = None
        self._window: list[np.ndarray] = []
        self._done = False

    def feed(self, time: float, motion: float, probs: np.ndarray) -> np.ndarray | None:
        if motion > self.cfg.motion:
            self._since, self._window, self._done = None, [], False
            return None
        if self._since is None:
            self._since = time
        self._window.append(probs)
        if self._done or time - self._since < self.cfg.still_s:
            return None
        labels = np.stack([p.argmax(axis=1) for p in self._window])
        steady = (labels == labels[-1]).all(axis=0).mean()
        if steady < self.cfg.steady:
            self._window = self._window[-1:]
            self._since = time
            return None
        self._done = True
        mean = np.mean(self._window, axis=0)
        self._window = []
        return mean
