"""Check a grid fit against the board's premium squares, which no whole-square error keeps.

Grid lines look the same one square further on, so a fit that starts most of a square off can
lock onto the wrong lines (all round, or on one side), and boards differ in what lies just
outside the playing area (a bold border line, a dark frame, nothing). Every board, though,
colours its premium squares apart from the plain ones, in the one standard layout. Put the
layout over the fitted grid and the squares of each premium kind share a colour; move it by a
square and they do not. Tiles cover some squares, which only adds the same noise to every move.
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecast.engine.board import premium_name

from .rectify import SIZE, board_to_image, warp_board

_CELL_PX = 8  # resolution of the colour sample
_SQUARE = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])


def _moves() -> list[np.ndarray]:
    """Where the playing area's corners may really lie, as whole-square offsets of the current
    fit's corners (board units): the fit itself first, then whole shifts, then one side a
    square out or in, then one corner a square off (a fit skewed where a corner was hidden)."""
    moves = [np.zeros((4, 2), np.float32)]
    moves += [np.tile(np.float32([du, dv]), (4, 1))
              for du in (-1, 0, 1) for dv in (-1, 0, 1) if du or dv]
    sides = ((0, [0, 3]), (0, [1, 2]), (1, [0, 1]), (1, [2, 3]))  # left, right, top, bottom
    for axis, pair in sides:
        for d in (-1, 1):
            moves.append(np.zeros((4, 2), np.float32))
            moves[-1][pair, axis] = d
    for corner in range(4):
        for step in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            moves.append(np.zeros((4, 2), np.float32))
            moves[-1][corner] = step
    return moves


_MOVES = _moves()
_KINDS = ("", "DL", "TL", "DW", "TW")
_KIND = np.array([_KINDS.index(premium_name(r, c)) for r in range(SIZE) for c in range(SIZE)])


def square_colours(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Mean colour of the middle of each square, for the playing area and one square around:
    shape (17, 17, channels), Lab for a colour image."""
    top = warp_board(image, corners, _CELL_PX, 1.0)  # small: convert it, not the frame
    top = (cv2.cvtColor(top, cv2.COLOR_BGR2LAB) if top.ndim == 3 else top[..., None]).astype(
        np.float32
    )
    side = SIZE + 2
    middle = top.reshape(side, _CELL_PX, side, _CELL_PX, -1)[:, 2:-2, :, 2:-2]
    return middle.mean((1, 3))


def layout_agreement(colours: np.ndarray, shift: tuple[int, int] = (0, 0)) -> float:
    """Share of the squares' colour variance that the premium layout explains (0-1), with
    the layout moved by `shift` = (du, dv) whole squares. `colours` covers the playing area
    and the same number of squares around it on every side (one, for square_colours)."""
    m = (colours.shape[0] - SIZE) // 2
    du, dv = shift
    return float(layout_agreements(colours)[m + dv, m + du])


def layout_agreements(colours: np.ndarray) -> np.ndarray:
    """layout_agreement for every shift the margin allows at once: [2m + 1, 2m + 1], indexed
    [m + dv, m + du]."""
    windows = np.lib.stride_tricks.sliding_window_view(colours, (SIZE, SIZE), axis=(0, 1))
    windows = windows.reshape(*windows.shape[:3], SIZE * SIZE).astype(np.float64)  # [v,u,C,225]
    mean = windows.mean(-1, keepdims=True)
    total = ((windows - mean) ** 2).sum((-1, -2))
    explained = np.zeros(total.shape)
    for kind in range(len(_KINDS)):
        member = _KIND == kind
        group = windows[..., member].mean(-1, keepdims=True)
        explained += member.sum() * ((group - mean) ** 2).sum((-1, -2))
    return np.where(total > 1e-6, explained / np.maximum(total, 1e-6), 0.0)


def best_move(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The corners moved by a whole square (all four, one side's two, or one) that line the
    premium layout up best, with their agreement and the agreement of the corners as they are.

    A fit can lock a line off on every side (a shift), on one side only (the playing area
    then spans 14 or 16 squares of the fit along that side), or at one corner.
    """
    to_image = board_to_image(corners)
    scored = []
    for offset in _MOVES:
        moved = cv2.perspectiveTransform((_SQUARE + offset)[None], to_image)[0]
        scored.append((layout_agreement(square_colours(image, moved)), moved))
    unmoved = scored[0][0]
    best, moved = max(scored, key=lambda item: item[0])
    return moved.astype(np.float32), best, unmoved
