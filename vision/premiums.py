"""Check a grid fit against the board's premium squares, which no whole-cell shift preserves.

Grid lines look the same one cell further on, so a fit that starts most of a cell off can
lock onto the wrong lines, and boards differ in what lies just outside the playing area
(a bold border line, a dark frame, nothing). Every board, though, colours its premium
squares apart from the plain ones, in the one standard layout. Put the layout over the
fitted grid and the squares of each premium kind share a colour; shift it by a cell and
they do not. Tiles cover some squares, which only adds the same noise to every shift.
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecast.engine.board import premium_name

from .rectify import SIZE, warp_board

_CELL_PX = 8  # resolution of the colour sample
_SHIFTS = tuple((du, dv) for dv in (-1, 0, 1) for du in (-1, 0, 1))
_KINDS = ("", "DL", "TL", "DW", "TW")
_KIND = np.array([_KINDS.index(premium_name(r, c)) for r in range(SIZE) for c in range(SIZE)])


def square_colours(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Mean colour of the middle of each square, for the playing area and one square around:
    shape (17, 17, channels), Lab for a colour image."""
    if image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    top = warp_board(image, corners, _CELL_PX, 1.0).astype(np.float32)
    if top.ndim == 2:
        top = top[..., None]
    side = SIZE + 2
    middle = top.reshape(side, _CELL_PX, side, _CELL_PX, -1)[:, 2:-2, :, 2:-2]
    return middle.mean((1, 3))


def layout_agreement(colours: np.ndarray, shift: tuple[int, int] = (0, 0)) -> float:
    """Share of the squares' colour variance that the premium layout explains (0-1), with
    the layout moved by `shift` = (du, dv) whole squares."""
    du, dv = shift
    squares = colours[1 + dv : 1 + dv + SIZE, 1 + du : 1 + du + SIZE].reshape(SIZE * SIZE, -1)
    total = float(((squares - squares.mean(0)) ** 2).sum())
    if total <= 1e-6:
        return 0.0
    explained = 0.0
    for kind in range(5):
        group = squares[_KIND == kind]
        explained += len(group) * float(((group.mean(0) - squares.mean(0)) ** 2).sum())
    return explained / total


def best_shift(image: np.ndarray, corners: np.ndarray) -> tuple[tuple[int, int], float, float]:
    """The whole-square shift that lines the premium layout up best, its agreement, and the
    agreement with no shift."""
    colours = square_colours(image, corners)
    scores = {shift: layout_agreement(colours, shift) for shift in _SHIFTS}
    best = max(scores, key=scores.__getitem__)
    return best, scores[best], scores[(0, 0)]
