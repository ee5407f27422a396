"""Enrolment: the venue's tile set laid out on the board before a game, read as labelled data.

The 100 tiles lie in four 5x5 grids in the board's corners (rows 1-5 and 11-15, columns A-E
and K-O), in alphabetical order with the blanks last, filling the top-left grid row by row, then
the top-right, bottom-left and bottom-right ones; the other 125 squares stay empty. Since the
layout is known, every cell of such a photo is a labelled example of this venue's tiles and
board: the classifier's prototypes come from it (as chesscog fine-tunes on a photo of the
starting position), and reading it back shows whether the set is complete.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from tilecast.engine.board import SIZE, square_name
from tilecast.engine.game import Game
from tilecast.engine.tiles import BLANK, TileSet

from .classify import CLASSES, Prototypes, TileClassifier, choose_weight
from .colour import centre_colours, weigh_by_colour
from .reader import CELL_PX, reader_crops
from .rectify import cell_size_px

GRID_ORIGINS = ((0, 0), (0, 10), (10, 0), (10, 10))  # (row, col) of each grid's first square
GRID = 5
DOUBT = 0.02  # the layout's tile counts as seen while the camera gives it this probability


def enrolment_layout(tileset: TileSet) -> np.ndarray:
    """What each square should hold, [15, 15] of '<U1' ('.' where empty)."""
    faces = [f for f in tileset.letters for _ in range(tileset.counts[f])]
    faces += [BLANK] * tileset.counts.get(BLANK, 0)
    if len(faces) != len(GRID_ORIGINS) * GRID * GRID:
        raise ValueError(f"tile set {tileset.name!r} has {len(faces)} tiles; the enrolment "
                         f"layout holds {len(GRID_ORIGINS) * GRID * GRID}")
    layout = np.full((SIZE, SIZE), ".", "<U1")
    for g, (row0, col0) in enumerate(GRID_ORIGINS):
        grid = faces[g * GRID * GRID:(g + 1) * GRID * GRID]
        layout[row0:row0 + GRID, col0:col0 + GRID] = np.array(grid).reshape(GRID, GRID)
    return layout


def board_orders() -> list[np.ndarray]:
    """The eight ways a row-major 15x15 list of crops can map onto the board (four turns,
    mirrored or not): each an index array, board square -> crop."""
    idx = np.arange(SIZE * SIZE).reshape(SIZE, SIZE)
    return [np.rot90(g, k).ravel() for g in (idx, idx[:, ::-1]) for k in range(4)]


@dataclass(frozen=True)
class EnrolmentCheck:
    """How a laid-out set compares with the layout, and the prototypes taken from it."""

    order: np.ndarray  # [225] board square (row-major) -> index of its crop
    read: np.ndarray  # [15, 15] what the classifier read on each square
    problems: list[str]  # one line per square or tile count that disagrees with the layout
    prototypes: Prototypes

    @property
    def complete(self) -> bool:
        return not self.problems


def check_layout(read: np.ndarray, expected: np.ndarray, tileset: TileSet) -> list[str]:
    """Lines naming each square that differs from the layout, then each face whose count
    differs from the set's."""
    lines = []
    for row, col in zip(*np.nonzero(read != expected), strict=True):
        want, got = expected[row, col], read[row, col]
        where = square_name(int(row), int(col))
        if got == ".":
            lines.append(f"{where}: empty, expected {_face(want)} (missing tile)")
        elif want == ".":
            lines.append(f"{where}: {_face(got)} where no tile belongs (extra tile)")
        else:
            lines.append(f"{where}: read {_face(got)}, expected {_face(want)}")
    found = Counter(str(c) for c in read.ravel() if c != ".")
    for face in sorted(set(found) | set(tileset.counts), key=CLASSES.index):
        have, want_n = found.get(face, 0), tileset.counts.get(face, 0)
        if have < want_n:
            lines.append(f"{_face(face)}: {have} of {want_n} in the set (missing {want_n - have})")
        elif have > want_n:
            lines.append(f"{_face(face)}: {have}, the set has {want_n} (extra {have - want_n})")
    return lines


def _face(face: str) -> str:
    return "a blank" if face == BLANK else face


def board_cells(image: np.ndarray, corners: np.ndarray) -> list[np.ndarray]:
    """The 225 cell crops, row-major from corners[0], cut as the video reader cuts a frame:
    the prototypes are compared with the reader's crops, so they are made from crops like
    them. A photo over twice as fine as that (a phone's) is first shrunk to CELL_PX pixels a
    square, so that cutting it does not alias."""
    shrink = CELL_PX / cell_size_px(corners)
    if shrink < 0.5:
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        corners = (np.asarray(corners, np.float32) + 0.5) * shrink - 0.5  # pixel centres
    return list(reader_crops(image, corners))


def enroll_board(clf: TileClassifier, cells: Sequence[np.ndarray], tileset: TileSet
                 ) -> EnrolmentCheck:
    """Read a photo's 225 cell crops (row-major, any of the board's eight orientations) as the
    enrolment layout: find the orientation that fits it best, list what disagrees, and keep
    every square's embedding as an example of what the layout puts there, except squares
    where a tile was read but none belongs or none was read but one belongs (a tile missing,
    extra, or an empty square taken for a blank: either way the label is in doubt)."""
    expected = enrolment_layout(tileset)
    pred = clf.with_prototypes(None).predict(cells)
    probabilities = weigh_by_colour(pred.probabilities, centre_colours(cells))
    logp = np.log(np.clip(probabilities, 1e-9, 1.0))
    target = np.array([CLASSES.index(c) for c in expected.ravel()])
    order = max(board_orders(), key=lambda o: logp[o, target].sum())
    read = np.array([CLASSES[i] for i in probabilities[order].argmax(1)]).reshape(SIZE, SIZE)
    sure = ((read == ".") == (expected == ".")).ravel()
    prototypes = Prototypes.from_embeddings(pred.embeddings[order][sure], expected.ravel()[sure])
    weight = choose_weight(prototypes, pred.logits[order][sure], clf.scale, clf.temperature)
    prototypes = Prototypes(prototypes.vectors, prototypes.labels, weight)
    # A square is a problem only when the camera all but rules out what the layout puts
    # there: a doubtful reading (an edge letter on a steep view, a plain blank) is the
    # layout's, so a complete set is not reported incomplete for the reader's doubts.
    plausible = (probabilities[order][np.arange(SIZE * SIZE), target] >= DOUBT).reshape(
        SIZE, SIZE
    )
    judged = np.where(plausible, expected, read)
    return EnrolmentCheck(order, read, check_layout(judged, expected, tileset), prototypes)


# -- learning a venue from a game already recorded ------------------------------------------

AGREE = 0.97  # share of squares a settled reading must share with a position of the record
PER_POSITION = 2  # settled readings kept of each position of the record
EMPTY_PER_READING = 20  # empty squares kept of each reading (tiles are all kept)


def record_positions(game: Game) -> list[np.ndarray]:
    """Every position a recorded game's board went through, [15, 15] '<U1' each ('?' for a
    blank, '.' empty), the empty board first: a withdrawn play's tiles leave again."""
    board = np.full((SIZE, SIZE), ".", "<U1")
    positions = [board.copy()]
    laid: list[tuple] = []
    for turn in game.turns:
        if turn.kind == "play":
            laid = list(turn.placed)
            for p in laid:
                board[p.row, p.col] = p.tile.face
        elif turn.kind == "withdraw":
            for p in laid:
                board[p.row, p.col] = "."
            laid = []
        else:
            continue
        positions.append(board.copy())
    return positions


def matching_position(read: np.ndarray, positions: list[np.ndarray]) -> tuple[int, float]:
    """The position a reading ([15, 15] labels) shows most nearly, and the share of squares
    that agree (occupancy and letter; a blank against any blank)."""
    shares = [float((read == p).mean()) for p in positions]
    best = int(np.argmax(shares))
    return best, shares[best]


def _turned(board: np.ndarray, turns: int, mirrored: bool) -> np.ndarray:
    """A [15, 15] board mirrored (across its diagonal), then turned `turns` quarters."""
    return np.rot90(board.T if mirrored else board, turns)


def _turned_back(board: np.ndarray, turns: int, mirrored: bool) -> np.ndarray:
    """The inverse of _turned."""
    back = np.rot90(board, -turns)
    return back.T if mirrored else back


@dataclass
class GameEnrolment:
    """Labelled crops gathered from a recorded game's settled readings."""

    positions: list[np.ndarray]
    crops: list[np.ndarray]
    labels: list[str]
    used: Counter  # position index -> settled readings taken from it
    refused: int = 0  # settled readings that matched no position well enough
    tiles: list[tuple[int, str]] = field(default_factory=list)  # each crop's square and label

    def add(self, read: np.ndarray, crops: np.ndarray, crop_of: np.ndarray,
            rng: np.random.Generator) -> bool:
        """Take a settled reading's crops (as the reader cut them; crop_of maps each board
        square to its crop) if it shows a position of the record; say whether it did.

        A reading in another way round than the record (the reader alone has only its tiles'
        votes to tell a mirrored or turned feed by, where a run has the words too) is matched
        turned back: the record says which way is right."""
        # (all eight ways: a few tiles read the wrong way round still leave 97% of the
        # squares as on the empty board; the reader's own way first, so it wins a tie)
        (index, share), (turns, mirrored) = max(
            ((matching_position(_turned(read, k, m), self.positions), (k, m))
             for m in (False, True) for k in range(4)), key=lambda found: found[0][1])
        if share < AGREE:
            self.refused += 1
            return False
        if self.used[index] >= PER_POSITION:
            return True
        self.used[index] += 1
        # each square of the reading: the record's label there, and the record's square
        truth = _turned_back(self.positions[index], turns, mirrored).ravel()
        where = _turned_back(np.arange(SIZE * SIZE).reshape(SIZE, SIZE), turns, mirrored).ravel()
        empty = np.flatnonzero(truth == ".")
        keep = np.r_[np.flatnonzero(truth != "."),
                     rng.choice(empty, min(EMPTY_PER_READING, len(empty)), replace=False)]
        for square in keep:
            self.crops.append(crops[crop_of[square]])
            self.labels.append(str(truth[square]))
            self.tiles.append((int(where[square]), str(truth[square])))
        return True

    def prototypes(self, clf: TileClassifier) -> Prototypes:
        """The venue's prototypes, one per tile (and per empty square) gathered, weighted by
        how much they help (classify.choose_weight).

        A tile stays on its square, so each later position shows it again: its readings are
        averaged into one. Kept apart, they would vouch for each other when the weight is
        chosen (each tile judged by the others), and fill a cell's nearest examples with one
        tile's twins (enrolled from one rendered game and reading another, the weight chosen
        was the largest, and an I was read as T)."""
        if not self.crops:
            raise ValueError("no settled reading of the video matched a position of the record")
        pred = clf.with_prototypes(None).predict(self.crops)
        number = {tile: i for i, tile in enumerate(dict.fromkeys(self.tiles))}
        kinds = list(number)
        which = np.array([number[t] for t in self.tiles])
        embeddings = np.stack([pred.embeddings[which == k].mean(0) for k in range(len(kinds))])
        embeddings /= np.linalg.norm(embeddings, axis=1, keepdims=True)
        logits = np.stack([pred.logits[which == k].mean(0) for k in range(len(kinds))])
        protos = Prototypes.from_embeddings(embeddings, [label for _, label in kinds])
        weight = choose_weight(protos, logits, clf.scale, clf.temperature, clf.config)
        return Prototypes(protos.vectors, protos.labels, weight)
