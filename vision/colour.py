"""Tell a blank from an empty square by colour, which the classifier does not see.

The tile network reads grey crops normalised for contrast (classify.preprocess), so a plain
blank and a plain square can look alike to it. Their colours differ on most boards: a blank's
face has the colour of the set's other tiles, a square the colour of the board's other squares
of its premium type. A cell the network reads as a blank or an empty square, not surely, is
weighed by which of the two it is much nearer in colour within the same frame (measured in
models/MODEL_CARD.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from tilecast.engine.board import premium_name

from .classify import CLASSES

BLANK, EMPTY = CLASSES.index("?"), CLASSES.index(".")
LIGHTNESS = 0.25  # weight of CIELAB lightness against chroma: glare and shade change lightness
SEPARATION = 10.0  # tile and square colours nearer than this tell nothing
SURE = 0.95  # readings this sure give the frame's tile and square colours
MIN_REFERENCES = 3  # squares needed for a reference colour
SPREAD = 3.0  # the least spread of a reference colour (CIELAB units, lightness weighted)
MOST = 8.0  # the most log-odds one colour can give: a cell is never sure by colour alone

# The premium type of each square (the layout looks the same under any turn or mirroring of
# the board, so a reader's square index needs no orientation).
PREMIUM_TYPE = np.array([premium_name(i // 15, i % 15) for i in range(225)])


def centre_colours(cells: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """[n, 3] median CIELAB colour of each BGR cell crop's middle (the central 40% of the crop,
    about 60% of the square when the crop has rectify.cell_crops's 25% margin)."""
    out = np.zeros((len(cells), 3), np.float32)
    for i, cell in enumerate(cells):
        if cell.dtype != np.uint8:
            raise ValueError(f"cell {i} is {cell.dtype}: colours are read from uint8 crops")
        h, w = cell.shape[:2]
        middle = np.ascontiguousarray(cell[int(0.3 * h):int(0.7 * h), int(0.3 * w):int(0.7 * w)])
        if middle.ndim == 2:
            middle = cv2.cvtColor(middle, cv2.COLOR_GRAY2BGR)
        lab = cv2.cvtColor(middle, cv2.COLOR_BGR2Lab).reshape(-1, 3)
        out[i] = np.median(lab, axis=0)
    return out


def weigh_by_colour(probs: np.ndarray, colours: np.ndarray,
                    squares: np.ndarray | None = None,
                    types: np.ndarray | None = None) -> np.ndarray:
    """`probs` [n, 28] with blank-or-empty readings weighed by colour, as a new array.

    `colours` [n, 3] from centre_colours and `squares` [n] the board squares (row * 15 + col)
    of one frame (default: all 225 in order); `types` the premium type of each cell instead,
    where the squares are unknown ('' for all: one pool). The tile colour is the median of
    the surely read letters, a square colour the median of the surely empty squares of one
    premium type. A cell read mostly as a blank or an empty square is weighed by how much
    nearer it is to one than the other, measured in the references' own spread: the log-odds
    of a tile against an empty square move by (d_square^2 - d_tile^2) / (2 spread^2), at most
    MOST. Towards the tile, the empty reading's probability goes to the tile readings in their
    proportions (a letter read fairly well stays that letter); towards the square, the blank
    reading's goes to the empty square (a letter is never taken off by colour: boards whose
    squares match the tiles exist). Lightness counts for little: glare brightens a square
    towards a pale tile's colour. Without enough sure references, or where tile and square
    colours are alike, nothing changes.
    """
    if types is None:
        if squares is None and len(probs) != len(PREMIUM_TYPE):
            raise ValueError(f"{len(probs)} cells without their squares: give `squares`")
        types = PREMIUM_TYPE if squares is None else PREMIUM_TYPE[squares]
    out = probs.copy()
    best, top = probs.argmax(1), probs.max(1)
    tiles = (best < BLANK) & (top > SURE)
    weighed = probs[:, BLANK] + probs[:, EMPTY] >= 0.5
    if not weighed.any() or tiles.sum() < MIN_REFERENCES:
        return out
    colours = colours * np.float32([LIGHTNESS, 1, 1])
    tile, tile_spread = _reference(colours[tiles])
    empty = probs[:, EMPTY] > SURE
    for kind in set(types[weighed]):
        same = empty & (types == kind)
        if same.sum() < MIN_REFERENCES:
            continue
        square, square_spread = _reference(colours[same])
        if np.linalg.norm(tile - square) < SEPARATION:
            continue
        spread = max(tile_spread, square_spread)
        cells = np.flatnonzero(weighed & (types == kind))
        to_tile = ((colours[cells] - tile) ** 2).sum(1)
        to_square = ((colours[cells] - square) ** 2).sum(1)
        evidence = np.clip((to_square - to_tile) / (2 * spread**2), -MOST, MOST)
        for i, e in zip(cells, evidence, strict=True):
            _shift(out[i], float(e))
    return out


def _reference(colours: np.ndarray) -> tuple[np.ndarray, float]:
    """The median colour of a group and its spread: the median distance to that median
    (scaled to a standard deviation for a normal spread), at least SPREAD."""
    middle = np.median(colours, axis=0)
    spread = 1.4826 * float(np.median(np.linalg.norm(colours - middle, axis=1)))
    return middle, max(spread, SPREAD)


def _shift(p: np.ndarray, evidence: float) -> None:
    """Move one cell's probabilities (in place) by `evidence` log-odds towards a tile
    (positive) or an empty square (negative)."""
    if evidence > 0:
        tiles = p[:EMPTY].sum()
        if tiles <= 0:
            return
        odds = tiles / max(p[EMPTY], 1e-12) * np.exp(evidence)
        new_tiles = odds / (1 + odds)
        p[:EMPTY] *= new_tiles / tiles
        p[EMPTY] = 1 - new_tiles
    else:
        both = p[BLANK] + p[EMPTY]
        if p[BLANK] <= 0:
            return
        odds = p[BLANK] / max(p[EMPTY], 1e-12) * np.exp(evidence)
        p[BLANK] = both * odds / (1 + odds)
        p[EMPTY] = both - p[BLANK]
