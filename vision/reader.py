"""One frame in, the board's per-square probabilities out: localise (or track), undo a
mirrored feed, rectify, cut the 225 cells, classify them in one batch, and turn the grid so
row 1 is at the top with the letters upright.

Mirroring and the turntable orientation are decided from the tiles themselves: a mirrored feed
shows mirrored letters, which the classifier reads with less confidence than the flipped frame,
and the tiles' reading direction says which corner is 1A. Both are sticky once enough tiles
have voted, so one odd frame cannot turn the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from .locate import BoardFix, BoardNotFound, locate_board, track
from .rectify import cell_crops, rectify
from .stillness import motion_score

EMPTY = 27  # class index of an empty square (classes 'A'-'Z', '?', '.')
MIN_VOTES = 6  # tiles that must agree before orientation and mirroring are fixed


class Classifier(Protocol):
    def predict(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per-cell class probabilities [n, 28] and rotations [n] in degrees."""
        ...


@dataclass(frozen=True)
class Reading:
    """What one frame shows, in board order (row 1 first, letters upright)."""

    probs: np.ndarray = field(repr=False)  # [225, 28]
    motion: float
    corners: np.ndarray = field(repr=False)  # image pixels of 1A, 1O, 15O, 15A
    orientation: int  # degrees the board is turned counter-clockwise in the (unmirrored) frame
    mirrored: bool


class BoardReader:
    """Reads successive frames of one camera; keeps the board fix and orientation between them."""

    def __init__(
        self,
        classifier: Classifier,
        corners: np.ndarray | None = None,
        cell_px: int = 32,
        crop: int = 64,
    ) -> None:
        self.classifier = classifier
        self.manual = None if corners is None else np.asarray(corners, np.float32)
        self.cell_px, self.crop = cell_px, crop
        self.fix: BoardFix | None = None
        self.mirrored: bool | None = None
        self.rotation_votes = np.zeros(4)
        self.mirror_votes = np.zeros(2)
        self._previous: np.ndarray | None = None

    def _corners(self, frame: np.ndarray) -> np.ndarray:
        if self.manual is not None:
            return self.manual
        if self.fix is not None:
            try:
                self.fix = track(frame, self.fix)
                return self.fix.corners
            except BoardNotFound:
                self.fix = None
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
        probs, rotation = self._classify(cells)
        k = self._orientation(probs, rotation)
        grid = np.rot90(probs.reshape(15, 15, -1), -k)
        order = np.asarray(corners, np.float32)
        if self.mirrored:
            order = order[[1, 0, 3, 2]]  # clockwise from top-left in the unmirrored frame
        order = np.roll(order, k, axis=0)
        return Reading(
            np.ascontiguousarray(grid.reshape(225, -1)), motion, order, 90 * k, bool(self.mirrored)
        )

    def _classify(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.mirrored is None:
            plain = self.classifier.predict(cells)
            flipped = self.classifier.predict(np.ascontiguousarray(cells[:, :, ::-1]))
            tiles = plain[0][:, EMPTY] < 0.5
            if tiles.sum():
                self.mirror_votes[0] += plain[0][tiles].max(1).mean() * tiles.sum()
                self.mirror_votes[1] += flipped[0][tiles].max(1).mean() * tiles.sum()
            if tiles.sum() >= MIN_VOTES:
                self.mirrored = bool(self.mirror_votes[1] > self.mirror_votes[0])
            chosen = flipped if self.mirror_votes[1] > self.mirror_votes[0] else plain
        else:
            chosen = self.classifier.predict(
                np.ascontiguousarray(cells[:, :, ::-1]) if self.mirrored else cells
            )
        probs, rotation = chosen
        if self.mirror_votes[1] > self.mirror_votes[0]:
            # Flipped crops are the cells of the unmirrored frame, whose columns run the other
            # way; their rotations are already those of the unmirrored frame.
            probs = probs.reshape(15, 15, -1)[:, ::-1].reshape(225, -1)
            rotation = rotation.reshape(15, 15)[:, ::-1].reshape(225)
        return probs, rotation

    def _orientation(self, probs: np.ndarray, rotation: np.ndarray) -> int:
        """Quarter turns (counter-clockwise) of the board in the frame, by the tiles' vote."""
        if self.rotation_votes.sum() < 4 * MIN_VOTES:
            tiles = probs[:, EMPTY] < 0.5
            np.add.at(self.rotation_votes, (rotation[tiles] // 90) % 4, 1)
        return int(np.argmax(self.rotation_votes))
