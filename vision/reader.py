"""One frame in, the board's per-square probabilities out: localise (or track), undo a
mirrored feed, rectify, cut the cells, classify those that changed in one batch, settle unsure
blank-or-empty readings by colour (vision/colour.py), and turn the grid so row 1 is at the top
with the letters upright.

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

from tilecast.engine.infer import BLANK_CLASS as BLANK
from tilecast.engine.infer import EMPTY_CLASS as EMPTY

from .classify import CLASSES
from .colour import centre_colours, weigh_by_colour
from .locate import BoardFix, BoardNotFound, LocateConfig, grid_evidence, locate_board, track
from .rectify import board_to_image, cell_crops, cell_size_px, rectify, warp_board
from .stillness import StillConfig, motion_score

SMALL_PX = 8  # pixels per square of the small top-down view that watches for change
CELL_PX, CROP = 32, 64  # the top-down view the squares are cut from, and each crop's side


@dataclass(frozen=True)
class ReaderConfig:
    """How the reader follows the board, reads again and turns it: its tuning values."""

    jitter: float = 0.15  # cells a tracked corner may wander before the fix is updated
    change: float = 4.0  # mean grey-level change of a square, in the small view, that reads it
    reads: int = 3  # still frames a square is read in when its reading changes (their mean)
    settled_share: float = 0.02  # share of squares changed since the last frame: a settled view
    refit_share: float = 0.1  # share of squares changed at once that has the grid fitted again
    slide_sure: float = 0.2  # phase correlation peak below which a shift of the view is no slide
    refix_quality: float = 0.7  # a fix found after tracking failed must be this good, relative
    refix_patience: int = 15  # ... to the last, until this many poorer ones have been refused
    min_votes: int = 10  # confident tiles needed before the board's way decides a turned pair
    turn_sure: float = 0.6  # a tile's turn this sure to count as turned
    vote_empty: float = 0.1  # a tile votes for its way only when read as empty less than this,
    vote_sure: float = 0.9  # ... its class more surely than this
    vote_turn: float = 0.8  # ... and its way more surely than this
    view_margin: float = 1.2  # another view's votes must pass margin * the view's + lead
    view_lead: float = 1.0


READER = ReaderConfig()


def reader_crops(frame: np.ndarray, corners: np.ndarray, which: np.ndarray | None = None,
                 cell_px: int = CELL_PX, crop: int = CROP) -> np.ndarray:
    """The crops the reader classifies: the board rectified at cell_px pixels a square, then
    each square (or those numbered in `which`) cut with cell_crops's margin at crop pixels.
    Enrolment and the evaluation cut their photos with it, to see what the reader sees."""
    return cell_crops(rectify(frame, corners, cell_px), size=crop, which=which)


def small_view(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The playing area top-down at SMALL_PX per square, grey, float32: sampled at twice
    that and averaged down, so that the frame's fine detail does not alias into it."""
    top = warp_board(frame, corners, 2 * SMALL_PX, 0.0)
    grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top
    side = 15 * SMALL_PX
    return cv2.resize(grey, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)


def slid_corners(corners: np.ndarray, slide: np.ndarray | None) -> np.ndarray:
    """The corners of the board moved by `slide` = (du, dv) squares (None: not moved)."""
    if slide is None:
        return corners
    square = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]]) + slide
    return cv2.perspectiveTransform(square[None], board_to_image(corners))[0]


def out_of_view(shape: tuple[int, ...], corners: np.ndarray) -> np.ndarray:
    """[225] bool, in the cut's order: squares whose centre lies outside the frame (a board
    the camera cuts off). Their crops are the frame's edge pixels smeared across, which read
    as tiles; the reader calls them empty, the most that can be said of a square not seen."""
    grid = np.meshgrid(np.arange(15) + 0.5, np.arange(15) + 0.5)
    centres = np.stack(grid, -1).reshape(1, -1, 2).astype(np.float32)
    x, y = cv2.perspectiveTransform(centres, board_to_image(corners))[0].T
    return (x < 0) | (y < 0) | (x > shape[1] - 1) | (y > shape[0] - 1)


# letter read -> the letter it is when turned one of these quarters off the board's way (N
# and Z read the same half round, so a sideways one may be read turned either quarter)
PAIRS = {"N": ("Z", (1, 3)), "Z": ("N", (1, 3)), "M": ("W", (2,)), "W": ("M", (2,))}
PINNED = 1e9  # the votes of a view given, not voted (a camera resumed from its journal)


def turned_pairs(probs: np.ndarray, orient: np.ndarray, view: int,
                 cfg: ReaderConfig = READER) -> np.ndarray:
    """`probs` [n, 28] with each rotation pair read the board's way (a new array).

    N turned a quarter is Z, M turned half round is W. Every tile on a board faces the way
    the board does (`view`: the winning vote, 4 * mirrored + quarter turns), so a tile read as
    N that the classifier also sees turned a quarter from that way is a Z read sideways (a
    hand-lettered Z without its point value, say): the two letters' probabilities swap."""
    out = probs.copy()
    mirrored, turn = divmod(view, 4)
    own = orient[:, 4 * mirrored:4 * mirrored + 4]
    off = np.roll(own, -turn, axis=1) / np.maximum(own.sum(1, keepdims=True), 1e-9)
    best = probs.argmax(1)
    for letter, (other, quarters) in PAIRS.items():
        a, b = CLASSES.index(letter), CLASSES.index(other)
        swap = np.flatnonzero((best == a) & (off[:, list(quarters)].sum(1) >= cfg.turn_sure))
        out[swap, a], out[swap, b] = probs[swap, b], probs[swap, a]
    return out


def _votes(probs: np.ndarray, orient: np.ndarray, cfg: ReaderConfig) -> np.ndarray:
    """[8] one vote per square read surely as a letter, for the way its letter is turned."""
    sure = (probs[:, EMPTY] < cfg.vote_empty) & (probs.max(1) > cfg.vote_sure)
    sure &= (orient.max(1) > cfg.vote_turn) & (probs.argmax(1) < BLANK)
    return np.bincount(orient[sure].argmax(1), minlength=8).astype(float)


def _ahead(votes: np.ndarray, view: int, cfg: ReaderConfig) -> int | None:
    """The view the votes put clearly ahead of `view` (margin times its votes, plus a lead),
    or None."""
    best = int(np.argmax(votes))
    return best if votes[best] > cfg.view_margin * votes[view] + cfg.view_lead else None


def in_view(cut: np.ndarray, view: int) -> np.ndarray:
    """[225, ...] per square in the cut's order (as the reader cuts the frame), in board order
    as the board reads in `view` (4 * mirrored + quarter turns of the tiles in the crops)."""
    mirrored, turn = divmod(view, 4)
    k = (4 - turn) % 4 if mirrored else turn
    grid = cut.reshape(15, 15, *cut.shape[1:])
    if mirrored:
        grid = grid[:, ::-1]
    return np.rot90(grid, -k).reshape(cut.shape)


def corners_1a(fix: np.ndarray, mirrored: bool, k: int) -> np.ndarray:
    """The fix's corners (vision order) as 1A, 1O, 15O, 15A for a board turned k quarters."""
    # The mirrored feed's corners go clockwise from the unmirrored frame's top-left.
    return np.roll(fix[[1, 0, 3, 2]] if mirrored else fix, k, axis=0)


def changed_squares(before: np.ndarray, after: np.ndarray,
                    cfg: ReaderConfig = READER) -> np.ndarray:
    """[225] bool: squares whose mean absolute grey-level change exceeds `cfg.change`."""
    diff = cv2.absdiff(before, after)
    return cv2.resize(diff, (15, 15), interpolation=cv2.INTER_AREA).ravel() > cfg.change


class Prediction(Protocol):
    probabilities: np.ndarray  # [n, 28]
    orientation: np.ndarray  # [n, 8]: index 4 * mirrored + rotation // 90


class Classifier(Protocol):
    def predict(self, cells: np.ndarray, still: np.ndarray | None = None) -> Prediction: ...


@dataclass(frozen=True)
class Reading:
    """What one frame shows, in board order (row 1 first, letters upright). In a frame with
    more motion than the stillness gate accepts, squares still moving keep their last reading."""

    probs: np.ndarray = field(repr=False)  # [225, 28]
    motion: float
    corners: np.ndarray = field(repr=False)  # image pixels of 1A, 1O, 15O, 15A
    orientation: int  # degrees the board is turned counter-clockwise in the (unmirrored) frame
    mirrored: bool
    view: int  # the winning vote: 4 * mirrored + quarter turns of the tiles in the crops
    fix: np.ndarray = field(repr=False)  # the corners the squares were cut at (vision order)
    crop_of: np.ndarray = field(repr=False)  # [225] each board square's index in that cut


class BoardReader:
    """Reads successive frames of one camera; keeps the board fix and orientation between them.

    Most frames of a game show a board that has not changed since the last one, so a frame
    costs only a small top-down view of the board: the grid is fitted again only when that
    view slides or settles into something widely different (a bump; not a passing hand),
    and only the squares whose look changed since they were last classified are classified
    again (in `reads` still frames, averaged, when they read as something new).
    """

    def __init__(
        self,
        classifier: Classifier,
        corners: np.ndarray | None = None,
        cell_px: int = CELL_PX,
        crop: int = CROP,
        view: int | None = None,
        skip_motion: float = StillConfig().motion,
        locate: LocateConfig | None = None,
        config: ReaderConfig = READER,
    ) -> None:
        self.classifier = classifier
        self.locate = locate or LocateConfig()  # how the board is found and followed
        self.cfg = config  # how it is followed, read again and turned
        self.skip_motion = skip_motion
        self.manual = None if corners is None else np.asarray(corners, np.float32)
        self.cell_px, self.crop = cell_px, crop
        self.fix: BoardFix | None = None
        self.why = ""  # why the last frame gave no reading ('' when it gave one)
        self.votes = np.zeros(8)  # tiles seen in each (mirrored, quarter turn) orientation
        self.view = 0  # the way the votes decided (see _vote)
        if view is not None:  # resuming: the view decided before stands
            self.votes[view], self.view = PINNED, view
        self._previous: np.ndarray | None = None  # last frame's small view, for motion
        self._tracked: np.ndarray | None = None  # small view when the grid was last fitted
        self._corners_read: np.ndarray | None = None  # corners the cached readings used
        self._seen: np.ndarray | None = None  # small view as each square was last classified
        self._provisional = np.zeros(225, bool)  # squares last classified while moving
        self._reads = np.zeros(225, int)  # still frames averaged into each square's reading
        self._label = np.full(225, -1)  # each square's top class as last read
        self._refused = 0  # poorer fixes refused in a row since tracking failed
        self._probs = np.zeros((225, 28), np.float32)  # each square as last classified
        self._orient = np.zeros((225, 8), np.float32)  # how its letter is turned, likewise
        self._colour = np.zeros((225, 4), np.float32)  # each square's colour, read likewise
        self._weighed: np.ndarray | None = None  # _probs weighed by colour, until they change

    def _corners(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The corners to read the frame at, and the frame's small view at them when it was
        already made."""
        if self.manual is not None:
            return self.manual, None
        slide, view = (None, None) if self.fix is None else self._slide(frame)
        if slide is not None and not slide.any():
            self._refused = 0
            return self.fix.corners, view
        lost = None
        if self.fix is not None:
            try:
                # Start from where the slide says the board went: a bump of more than half a
                # square would otherwise lock the fit onto the neighbouring grid lines.
                start = slid_corners(self.fix.corners, slide)
                followed = track(frame, BoardFix(start, self.fix.quality), self.locate)
            except BoardNotFound:
                lost, self.fix = self.fix, None
            else:
                # A still board's fit jitters by a few hundredths of a cell from frame to frame;
                # keeping the old fix then keeps the top-down view, and so the motion score,
                # still. A real shift (a bumped board) moves the fit further, and the grid
                # then shows more clearly at the new fit than at the old one: followed.
                moved = np.linalg.norm(followed.corners - self.fix.corners, axis=1).max()
                if moved > self.cfg.jitter * cell_size_px(self.fix.corners) and grid_evidence(
                    frame, followed.corners
                ) > grid_evidence(frame, self.fix.corners):
                    if followed.quality < self.cfg.refix_quality * self.fix.quality:
                        followed = self._better(frame, followed)
                    self.fix = followed
                self._tracked = small_view(frame, self.fix.corners)
                self._refused = 0
                return self.fix.corners, self._tracked
        try:
            found = locate_board(frame, self.locate)
        except BoardNotFound:
            self.fix = lost  # try following it again next frame
            raise
        if lost is not None and found.quality < self.cfg.refix_quality * lost.quality:
            # Tracking lost the board, most often under a hand: a much poorer fix found now is
            # more likely a misfit than a moved board. Keep the old one and try it again,
            # unless it has failed for a while (the board did move, and looks worse now).
            self._refused += 1
            if self._refused < self.cfg.refix_patience:
                self.fix = lost
                raise BoardNotFound(
                    f"board hidden here (new fit quality {found.quality:.2f}, "
                    f"the board's was {lost.quality:.2f})"
                )
        self._refused = 0
        self.fix = found
        self._tracked = small_view(frame, self.fix.corners)
        return self.fix.corners, self._tracked

    def _better(self, frame: np.ndarray, followed: BoardFix) -> BoardFix:
        """A fresh fix of the board where it is about as good as the board's fix was, in place
        of the far poorer fit tracking followed it to: that fit is often the lattice a square
        or more off, when the board turned on its turntable. (A hand over the board, a full
        board with its premium squares covered: a fresh fix is no better then.)"""
        try:
            found = locate_board(frame, self.locate)
        except BoardNotFound:
            return followed
        good = max(followed.quality, self.cfg.refix_quality * self.fix.quality)
        return found if found.quality >= good else followed

    def _slide(self, frame: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(du, dv) squares the board has slid since the grid was fitted, zero when it has
        not moved; None when it may have moved but the slide is unknown (its view settled
        into something widely different). A hand passing over the board is no move: fits
        made under a hand are the poorest, and nothing the gate commits is read then.
        Also the frame's small view at the fix."""
        if self._tracked is None:
            return None, None
        view = small_view(frame, self.fix.corners)
        cfg = self.cfg
        (dx, dy), response = cv2.phaseCorrelate(self._tracked, view)
        if max(abs(dx), abs(dy)) > cfg.jitter * SMALL_PX:
            # A view that matches itself only weakly when shifted did not slide: it turned
            # (a board turned on its turntable), and the shift is noise.
            return (np.float32([dx, dy]) / SMALL_PX if response >= cfg.slide_sure else None), view
        settled = (self._previous is not None
                   and changed_squares(self._previous, view, cfg).mean() < cfg.settled_share)
        if settled and changed_squares(self._tracked, view, cfg).mean() > cfg.refit_share:
            return None, view
        return np.zeros(2, np.float32), view

    def read(self, frame: np.ndarray) -> Reading | None:
        """The frame's reading, or None when no board can be found in it."""
        try:
            corners, view = self._corners(frame)
        except BoardNotFound as exc:
            self._previous = None
            self.why = str(exc)
            return None
        self.why = ""
        if view is None:
            view = small_view(frame, corners)
        motion = motion_score(self._previous, view)
        moving = (
            np.zeros(225, bool) if self._previous is None
            else changed_squares(self._previous, view, self.cfg)
        )
        if self._seen is None or not np.array_equal(corners, self._corners_read):
            changed = np.ones(225, bool)
            self._seen, self._corners_read = view.copy(), corners.copy()
        else:
            changed = changed_squares(self._seen, view, self.cfg) | self._provisional
        # A square read as something new is read again in the next still frames and its
        # reading is the mean: one frame's glitch (the blur of a hand just gone) is not taken
        # for a tile. One that reads as before (a hand passed over it) needs no more reads.
        unseen = out_of_view(frame.shape, corners)
        changed &= ~unseen
        if self._probs[unseen].any():
            self._probs[unseen] = 0.0  # (no reading: left out of the colour references too)
            self._weighed = None
        confirm = ~changed & ~moving & ~unseen & (self._reads < self.cfg.reads)
        skipped = changed & moving if motion > self.skip_motion else np.zeros(225, bool)
        changed &= ~skipped
        self._previous = view
        if changed.any() or confirm.any():
            self._classify(frame, corners, changed, confirm, view, ~moving)
            self._weighed = None
        # A square read while it still moved (a tile landing, a hand leaving), or skipped, is
        # read again on the next frame, so what stands is always read from a settled view.
        self._provisional = (changed & moving) | skipped
        mirrored, k = self._orientation()
        if self._weighed is None:  # most frames classify nothing: the same weighing holds
            self._weighed = weigh_by_colour(self._probs, self._colour)
        probs = self._weighed.copy()  # (the reading's own: the cache stays as weighed)
        probs[unseen] = np.eye(len(CLASSES), dtype=probs.dtype)[EMPTY]
        if self.votes.sum() >= self.cfg.min_votes:
            probs = turned_pairs(probs, self._orient, self.view, self.cfg)
        fix = np.asarray(corners, np.float32)
        return Reading(in_view(probs, self.view), motion, corners_1a(fix, mirrored, k), 90 * k,
                       mirrored, self.view, fix, in_view(np.arange(225), self.view))

    def _classify(
        self,
        frame: np.ndarray,
        corners: np.ndarray,
        changed: np.ndarray,
        confirm: np.ndarray,
        view: np.ndarray,
        settled: np.ndarray,
    ) -> None:
        """Classify the changed squares afresh and the confirmed ones into their mean, and
        remember how they looked when read."""
        todo = changed | confirm
        which = np.flatnonzero(todo)
        crops = reader_crops(frame, corners, which, self.cell_px, self.crop)
        pred = self.classifier.predict(crops, still=settled[which])
        n = np.where(changed[which], 0, self._reads[which])[:, None]
        self._probs[which] = (n * self._probs[which] + pred.probabilities) / (n + 1)
        self._colour[which] = (n * self._colour[which] + centre_colours(crops)) / (n + 1)
        self._orient[which] = (n * self._orient[which] + pred.orientation) / (n + 1)
        label = pred.probabilities.argmax(axis=1)
        again = changed[which] & (label == self._label[which])
        self._reads[which] = np.where(again, self.cfg.reads, n[:, 0] + 1)
        # a reading taken while the square moved is no "before" to compare the next one with
        self._label[which] = np.where(settled[which], label, self._label[which])
        self._vote(pred)
        mask = np.kron(todo.reshape(15, 15), np.ones((SMALL_PX, SMALL_PX), bool))
        self._seen[mask] = view[mask]

    def _vote(self, pred: Prediction) -> None:
        """Each newly read tile read with confidence votes for the way its letter is turned
        (stray readings at a frame's edge are rarely confident; real tiles outnumber them).
        A blank has no way up, so it does not vote."""
        self.votes += _votes(pred.probabilities, pred.orientation, self.cfg)
        # Another way takes over only when clearly ahead: a view that flips back and forth
        # on a close vote moves every recorded tile to another square each time.
        best = _ahead(self.votes, self.view, self.cfg)
        if best is not None:
            self.view = best

    def adopt(self, view: int) -> None:
        """Read on in `view`, decided or confirmed outside the votes (the words of the first
        play): it stands unless the tiles later vote far more for another."""
        self.votes[view] = self.votes.max() + self.votes.sum() + 10 * self.cfg.view_lead
        self.view = view

    def hold(self, reading: Reading, view: int) -> Reading:
        """The same frame's reading in `view`, which the reader adopts (the board's words read
        in it, not in the view the tiles' votes just turned to; the board was turned on its
        turntable), each rotation pair read the way `view` turns it."""
        paired = self.votes.sum() >= self.cfg.min_votes  # (as read: see read)
        self.adopt(view)
        cut = np.empty_like(reading.probs)
        cut[reading.crop_of] = reading.probs
        if paired:  # the pairs back as the classifier read them (a swap undoes itself)
            cut = turned_pairs(cut, self._orient, reading.view, self.cfg)
        cut = turned_pairs(cut, self._orient, view, self.cfg)
        mirrored, k = self._orientation()
        return Reading(in_view(cut, view), reading.motion, corners_1a(reading.fix, mirrored, k),
                       90 * k, mirrored, view, reading.fix, in_view(np.arange(225), view))

    def tiles_votes(self) -> np.ndarray:
        """[8] the votes of the tiles now on the board alone, each once, for the way its reads
        turned it: unlike the running votes, they follow a board turned on its turntable."""
        return _votes(self._probs, self._orient, self.cfg)

    def tiles_view(self) -> int | None:
        """The view the tiles now on the board vote for when clearly ahead of the reader's
        (before the first play's words hold a view, the running votes lag behind a board
        turned on its turntable); else None."""
        return _ahead(self.tiles_votes(), self.view, self.cfg)

    def _orientation(self) -> tuple[bool, int]:
        """Whether the feed is mirrored, and the quarter turns (counter-clockwise) of the board
        in the unmirrored frame, by the vote of every tile read so far."""
        mirrored, turn = self.view >= 4, self.view % 4
        # A mirrored crop turned `turn` quarters reads, unmirrored, as turned the other way.
        return mirrored, (4 - turn) % 4 if mirrored else turn
