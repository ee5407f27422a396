"""Tell a blank from an empty square by colour, which the classifier does not see.

The tile network reads grey crops normalised for contrast (classify.preprocess), so a plain
blank and a plain square can look alike to it. Their colours differ on most boards: a blank's
face has the colour of the set's other tiles, a square the colour of the board's other squares
of its premium type. A cell the network reads as a blank or an empty square, not surely, is
weighed by which of the two it is much nearer in colour within the same frame, compared with
the tiles and squares near it on the board where its square is known (measured in
models/MODEL_CARD.md). A cell in the tiles' colour whose middle is plain (no letter, no print)
is a blank: colour says a tile stands there, plainness says it has no letter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tilecast.engine.board import premium_name

from .classify import CLASSES

BLANK, EMPTY = CLASSES.index("?"), CLASSES.index(".")
UNKNOWN = "*"  # the premium type of a cell whose square is not known (a crop on its own)



@dataclass(frozen=True)
class ColourConfig:
    """When colour settles a blank-or-empty reading, and how far: its tuning values."""

    unsure: float = 0.99  # a blank or empty reading less sure than this is weighed by colour
    ratio: float = 2.0  # how much nearer the tiles' colour than its square's makes it a tile
    # ... where colour tells less: for a blank reading to become an empty square (a pale blank
    # on a pale board, or one with a broad pale mark, lies nearer the squares than the lettered
    # tiles, and the network saw its edges), and for a cell with no square of its type in view
    strict_ratio: float = 3.0
    lightness: float = 0.25  # weight of CIELAB lightness against chroma (glare, shade change it)
    separation: float = 10.0  # tile and square colours nearer than this tell nothing
    sure: float = 0.95  # readings this sure give the frame's tile and square colours
    min_references: int = 3  # squares needed for a reference colour
    keep: float = 0.01  # the share of the losing reading's probability that stays with it
    plain: float = 10.0  # a middle whose lightness spreads less than this has no letter or print
    tile_spread: float = 1.5  # times the 90th percentile of the sure tiles' distances from theirs
    near: int = 6  # a cell on a known square is compared with this many nearest references


COLOUR = ColourConfig()

# The premium type of each square (the layout looks the same under any turn or mirroring of
# the board, so a reader's square index needs no orientation).
PREMIUM_TYPE = np.array([premium_name(i // 15, i % 15) for i in range(225)])


def centre_colours(cells: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """[n, 4] each BGR cell crop's middle (the central 40% of the crop, about 60% of the square
    when the crop has rectify.cell_crops's 25% margin): its median CIELAB colour; and how plain
    the face is, the least spread (standard deviation) of lightness in PLAIN_WINDOWS around
    the middle, low on a plain face or square and high where a letter or premium print stands.
    The least of several windows, because a tile's face may sit off its square's centre (a
    tilted camera, a tile askew) with a neighbour's edge across the middle."""
    if isinstance(cells, np.ndarray) and len(cells):  # one batch of equal crops: at once
        if cells.dtype != np.uint8:
            raise ValueError(f"cells are {cells.dtype}: colours are read from uint8 crops")
        n, h, w = cells.shape[:3]
        y0, x0 = round(PLAIN_WINDOWS[0][0] * h), round(PLAIN_WINDOWS[0][1] * w)
        side_y, side_x = max(1, round(WINDOW * h)), max(1, round(WINDOW * w))
        y1 = round(PLAIN_WINDOWS[-1][0] * h) + side_y
        x1 = round(PLAIN_WINDOWS[-1][1] * w) + side_x
        lab = _lab(cells[:, y0:y1, x0:x1])  # only what the middle and the windows cover
        middle = lab[:, int(0.3 * h) - y0:int(0.7 * h) - y0, int(0.3 * w) - x0:int(0.7 * w) - x0]
        spreads = [lab[:, round(y * h) - y0:round(y * h) - y0 + side_y,
                       round(x * w) - x0:round(x * w) - x0 + side_x, 0].std(axis=(1, 2))
                   for y, x in PLAIN_WINDOWS]
        return np.concatenate([np.median(middle.reshape(n, -1, 3), axis=1),
                               np.min(spreads, axis=0)[:, None]], axis=1).astype(np.float32)
    out = np.zeros((len(cells), 4), np.float32)
    for i, cell in enumerate(cells):  # crops of any sizes, each a batch of one
        if cell.dtype != np.uint8:
            raise ValueError(f"cell {i} is {cell.dtype}: colours are read from uint8 crops")
        out[i] = centre_colours(cell[None])[0]
    return out


WINDOW = 0.25  # side of a window whose lightness spread is measured, in crop sides
# top-left corners of the windows, in crop sides: the middle and a step of 0.15 each way
PLAIN_WINDOWS = [(0.375 + dy, 0.375 + dx) for dy in (-0.15, 0, 0.15) for dx in (-0.15, 0, 0.15)]


def _lab(crops: np.ndarray) -> np.ndarray:
    """[n, h, w, 3] float CIELAB of [n, h, w(, 3)] uint8 crops (grey ones taken as BGR)."""
    n, h, w = crops.shape[:3]
    tall = np.ascontiguousarray(crops.reshape(n * h, w, *crops.shape[3:]))
    if tall.ndim == 2:
        tall = cv2.cvtColor(tall, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(tall, cv2.COLOR_BGR2Lab).reshape(n, h, w, 3).astype(np.float32)


def weigh_by_colour(probs: np.ndarray, colours: np.ndarray,
                    squares: np.ndarray | None = None,
                    types: np.ndarray | None = None,
                    cfg: ColourConfig = COLOUR) -> np.ndarray:
    """`probs` [n, 28] with unsure blank-or-empty readings settled by colour, as a new array.

    `colours` [n, 4] from centre_colours and `squares` [n] the board squares (row * 15 + col)
    of one frame (default: all 225 in order); `types` the premium type of each cell instead
    (UNKNOWN where its square is not known: such cells are compared with the other plain, or
    the other printed, cells of unknown squares). The tile colour is the median of the surely
    read letters, the square colour the median of the surely empty squares of the same type;
    where the squares are known (no `types`), of the `near` of them nearest each cell, since
    light falls unevenly over a board (a lamp to one side, glare) and a far square's colour
    can be nearer a tile's than the cell's own square's is.
    A cell `ratio` times nearer to the tiles' colour gives all but `keep` of its empty reading's
    probability to the blank when its middle is plain and it lies as near the tiles' colour as
    the sure tiles do (not a plain wooden rack or a hand), else to its tile readings (in their
    proportions: a letter read fairly well stays that letter; not on an unknown square, whose
    printed neighbours may be of any premium type); one `strict_ratio` times nearer to the
    squares' gives its blank reading's to the empty square. Lightness counts for little: glare
    brightens a square towards a pale tile's colour. Without enough sure references (an empty
    board, a hand over most of it), or where tile and square colours are alike, nothing
    changes.
    """
    if types is None and squares is None and len(probs) != len(PREMIUM_TYPE):
        raise ValueError(f"{len(probs)} cells without their squares: give `squares`")
    placed = types is None
    out = probs.copy()
    best, top = probs.argmax(1), probs.max(1)
    unsure = np.flatnonzero(((best == BLANK) | (best == EMPTY)) & (top < cfg.unsure))
    tiles = (best < BLANK) & (top > cfg.sure)
    if len(unsure) == 0 or tiles.sum() < cfg.min_references:
        return out
    plain = colours[:, 3] < cfg.plain
    colours = colours[:, :3] * np.float32([cfg.lightness, 1, 1])
    tile = np.median(colours[tiles], axis=0)
    empty = probs[:, EMPTY] > cfg.sure
    if types is None:
        types = PREMIUM_TYPE if squares is None else PREMIUM_TYPE[squares]
    unknown = types == UNKNOWN
    types = np.where(unknown & plain, UNKNOWN + "plain", types)
    square = {}  # premium type -> the colour of its surely empty squares
    for kind in set(types[empty]):
        same = empty & (types == kind)
        if same.sum() >= cfg.min_references:
            square[kind] = np.median(colours[same], axis=0)
    within = cfg.tile_spread * np.quantile(np.linalg.norm(colours[tiles] - tile, axis=1), 0.9)
    cells, kinds = colours[unsure], types[unsure]
    to_tile = np.linalg.norm(cells - tile, axis=1)
    known = np.array([k in square for k in kinds], bool)
    # a plain cell whose premium type has no empty square in view (crops of tiles alone, a
    # premium type all covered) is a tile when it lies as near the tiles' colour as the sure
    # tiles do and `strict_ratio` times nearer it than every square colour in view
    refs = np.array(list(square.values()), np.float32).reshape(-1, 3)
    to_refs = np.linalg.norm(cells[:, None] - refs[None], axis=2)
    alone = (~known & plain[unsure] & (to_tile <= within)
             & (to_tile[:, None] * cfg.strict_ratio < to_refs).all(axis=1))
    own = np.array([square[k] if k in square else tile for k in kinds], np.float32)
    # whether the set's tiles and these squares differ in colour at all is the board's own
    apart = known & (np.linalg.norm(own - tile, axis=1) >= cfg.separation)
    if placed:
        at = np.arange(len(probs)) if squares is None else np.asarray(squares)
        to_tile = np.linalg.norm(cells - _nearest(colours, at, unsure, np.flatnonzero(tiles),
                                                  cfg.near), axis=1)
        for kind in set(kinds) & set(square):
            of = kinds == kind
            own[of] = _nearest(colours, at, unsure[of], np.flatnonzero(empty & (types == kind)),
                               cfg.near)
    to_square = np.linalg.norm(cells - own, axis=1)
    tile_like = apart & (to_tile * cfg.ratio < to_square)
    square_like = apart & ~tile_like & (to_square * cfg.strict_ratio < to_tile)
    _move(out, unsure[alone | (tile_like & plain[unsure] & (to_tile <= within))], EMPTY, BLANK,
          cfg.keep)
    lettered = unsure[tile_like & ~plain[unsure] & ~unknown[unsure]]
    moved = out[lettered, EMPTY] * (1 - cfg.keep)
    out[lettered, EMPTY] -= moved
    rest = out[lettered, :EMPTY]  # to the tile readings, in their proportions
    out[lettered, :EMPTY] += moved[:, None] * rest / rest.sum(axis=1, keepdims=True)
    _move(out, unsure[square_like], BLANK, EMPTY, cfg.keep)
    return out


# every square's 225 squares from the nearest out (ties by index): the references near a cell
_RC = np.stack(np.divmod(np.arange(225), 15), axis=1)
NEAREST_FIRST = np.argsort(np.linalg.norm(_RC[:, None] - _RC[None], axis=2), axis=1,
                           kind="stable")


def _nearest(colours: np.ndarray, squares: np.ndarray, cells: np.ndarray, refs: np.ndarray,
             k: int) -> np.ndarray:
    """[len(cells), 3] for each of `cells`, the median colour of the `k` of `refs` that lie
    nearest it on the board (cells and refs index `colours` and `squares`, the board squares)."""
    row = np.full(225, -1)
    row[squares[refs]] = refs
    order = row[NEAREST_FIRST[squares[cells]]]  # [cells, 225] rows of colours, nearest first
    taken = (order >= 0) & (np.cumsum(order >= 0, axis=1) <= k)
    return np.median(colours[order[taken].reshape(len(cells), -1)], axis=1)


def _move(out: np.ndarray, rows: np.ndarray, source: int, to: int, keep: float) -> None:
    """Give all but `keep` of class `source`'s probability in `rows` to class `to`, in place."""
    moved = out[rows, source] * (1 - keep)
    out[rows, source] -= moved
    out[rows, to] += moved
