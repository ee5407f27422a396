"""One frame in, the board's per-square probabilities out: localise (or track), undo a
mirrored feed, rectify, cut the 225 cells, classify them in one batch, and turn the grid so
row 1 is at the top with the letters upright.

Mirroring and the turntable orientation are decided from the tiles themselves: the classifier
tells, for every tile, which of the eight ways (four turns, mirrored or not) its letter reads,
and the vote of every confident tile seen so far says whether the feed is mirrored and which
corner is 1A, so one odd frame cannot turn the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from .locate import BoardFix, BoardNotFound, locate_board, track
from .rectify import cell_crops, cell_size_px, rectify
from .stillness import motion_score

EMPTY = 27  # class index of an empty square (classes 'A'-'Z', '?', '.')
JITTER = 0.15  # cells a tracked corner may wander before the fix is updated


class Prediction(Protocol):
    probabilities: np.ndarray  # [n, 28]
    orientation: np.ndarray  # [n, 8]: index 4 * mirrored + rotation // 90


class Classifier(Protocol):
    def predict(self, cells: np.ndarray) -> Prediction: ...


@dataclass(frozen=True)
class Reading:
    """What one frame shows, in board order (row 1 first, letters upright)."""

    probs: np.ndarray = field(repr=False)  # [225, 28]
    motion: float
    corners: np.ndarray = field(repr=False)  # image pixels of 1A, 1O, 15O, 15A
    orientation: int  # degrees the board is turned counter-clockwise in the (unmirrored) frame
    mirrored: bool
    view: int  # the winning vote: 4 * mirrored + quarter turns of the tiles in the crops


class BoardReader:
    """Reads successive frames of one camera; keeps the board fix and orientation between them."""

    def __init__(
        self,
        classifier: Classifier,
        corners: np.ndarray | None = None,
        cell_px: int = 32,
        crop: int = 64,
        view: int | None = None,
    ) -> None:
        self.classifier = classifier
        self.manual = None if corners is None else np.asarray(corners, np.float32)
        self.cell_px, self.crop = cell_px, crop
        self.fix: BoardFix | None = None
        self.votes = np.zeros(8)  # tiles seen in each (mirrored, quarter turn) orientation
        if view is not None:  # resuming: the view decided before stands
            self.votes[view] = 1e9
        self._previous: np.ndarray | None = None

    def _corners(self, frame: np.ndarray) -> np.ndarray:
        if self.manual is not None:
            return self.manual
        if self.fix is not None:
            try:
                followed = track(frame, self.fix)
            except BoardNotFound:
                self.fix = None
            else:
                # A still board's fit jitters by a few hundredths of a cell from frame to frame;
                # keeping the old fix then keeps the top-down view, and so the motion score,
                # still. A real shift (a bumped board) moves the fit further and is followed.
                moved = np.linalg.norm(followed.corners - self.fix.corners, axis=1).max()
                if moved > JITTER * cell_size_px(self.fix.corners):
                    self.fix = followed
                return self.fix.corners
        self.fix = locate_board(frame)
        return self.fix.corners

    def read(self, frame: np.ndarray) -> Reading | None:
        """The frame's reading, or None when no board can be found in it."""
        try:
            corners = self._corners(frame)
        except BoardNotFound:
            self._previous = None
            return None
        board = rectify(frame, corners, self.cell_px)
        grey = cv2.cvtColor(
            cv2.resize(board, (120, 120), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
        )
        motion = motion_score(self._previous, grey)
        self._previous = grey
        cells = cell_crops(board, size=self.crop)
        pred = self.classifier.predict(cells)
        mirrored, k = self._orientation(pred)
        probs = pred.probabilities.reshape(15, 15, -1)
        order = np.asarray(corners, np.float32)
        if mirrored:
            # The mirrored feed's cells, read in the unmirrored frame: columns run the other way
            # and the corners go clockwise from that frame's top-left.
            probs = probs[:, ::-1]
            order = order[[1, 0, 3, 2]]
        grid = np.rot90(probs, -k)
        order = np.roll(order, k, axis=0)
        view = int(np.argmax(self.votes))
        return Reading(
            np.ascontiguousarray(grid.reshape(225, -1)), motion, order, 90 * k, mirrored, view
        )

    def _orientation(self, pred: Prediction) -> tuple[bool, int]:
        """Whether the feed is mirrored, and the quarter turns (counter-clockwise) of the board
        in the unmirrored frame, by the vote of every tile read with confidence so far (stray
        readings at a frame's edge are rarely confident, and real tiles outnumber them)."""
        sure = (pred.probabilities[:, EMPTY] < 0.1) & (pred.probabilities.max(1) > 0.9)
        sure &= pred.orientation.max(1) > 0.8
        np.add.at(self.votes, pred.orientation[sure].argmax(1), 1)
        best = int(np.argmax(self.votes))
        mirrored, turn = best >= 4, best % 4
        # A mirrored crop turned `turn` quarters reads, unmirrored, as turned the other way.
        return mirrored, (4 - turn) % 4 if mirrored else turn
