"""Snap approximate board corners onto the 16 + 16 grid lines of the 15x15 playing area.

A coarse fix (from the network or the previous frame) is good to a fraction of a cell; the
grid lines, and the edges of tiles that sit on them, pin the board to about a pixel. Each pass
warps the photo top-down, finds every line's offset piece by piece (one piece per cell, so a
hand over part of a line only loses those pieces), fits a straight line through the pieces,
and fits a homography to the lines' crossings, discarding lines that disagree. A fit locked
one whole line off is recognised by the premium squares (vision.premiums) and moved back.
Each corner is then placed by the grid near it alone (lens distortion bends the grid): the
crossing of the outermost grid lines. (Moving the sides out to the printed border's outer
edge, where the labelled photos put the corners, was tried and dropped: it gained a few
hundredths of a square on those photos and lost a third of a square on boards whose border
shows other edges nearby.)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .premiums import best_move
from .rectify import SIZE, board_to_image, cell_size_px, warp_board

CELL_PX = 16  # resolution of the top-down search image
MARGIN = 1.5  # cells of surroundings in the search image (room for the lines just outside)
LINES = SIZE + 1
_MIN_PIECES = 4  # a line needs this many agreeing pieces to count
_MIN_LINES = 6  # per direction, for a homography worth trusting
_LOCAL = 7  # cells around a corner that place it
_SQUARE = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
_SHIFT_GAIN = 1.3  # a shifted layout must explain this much more of the colours to move
_FLAT = 1.0  # edge strength below which a view counts as flat (no grid to contrast)


@dataclass(frozen=True)
class GridFit:
    """Corners snapped to the grid, and how well the grid explains the image there."""

    corners: np.ndarray  # (4, 2) float32, same order as the input corners
    contrast: float  # edge strength on the grid lines / half a cell off them
    lines: int  # grid lines found in the last pass, of 32


def smooth_for_grid(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Blur the photo so that warping it down to CELL_PX per cell does not alias."""
    sigma = 0.45 * cell_size_px(corners) / CELL_PX
    img = gray.astype(np.float32)
    return cv2.GaussianBlur(img, (0, 0), sigma) if sigma > 0.6 else img


def refine_to_grid(
    smoothed: np.ndarray,
    corners: np.ndarray,
    image: np.ndarray,
    windows: tuple[float, ...] = (0.45, 0.3, 0.15),
    shifts: bool = True,
) -> GridFit:
    """Refine corners on a smooth_for_grid() image; each pass searches +-window cells.

    image: the same view unsmoothed (colour when there is colour), for the premium squares;
    shifts: whether a whole-square shift may be undone (not when following a known fix, where
    a shift could only come from the premium squares hidden under tiles and hands).
    """
    current = np.asarray(corners, np.float32)
    lines = 0
    for window in windows:
        found = _refine_once(smoothed, current, window)
        if found is None:
            break
        current, lines = found
    for _ in range(3 if shifts else 0):  # a rough fix can lock one line off
        moved, best, unmoved = best_move(image, current)
        if best < _SHIFT_GAIN * unmoved + 0.05:
            break
        current = moved
        found = _refine_once(smoothed, current, windows[-1])
        if found is not None:
            current, lines = found
    pieces = _grid_pieces(smoothed, current)
    return GridFit(_local_corners(pieces, current), _contrast(pieces), lines)


def grid_contrast(smoothed: np.ndarray, corners: np.ndarray) -> float:
    """GridFit.contrast for exactly these corners, to compare a fit with another."""
    return _contrast(_grid_pieces(smoothed, np.asarray(corners, np.float32)))


def _grid_pieces(smoothed: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_piece_means() across horizontal lines and (transposed) across vertical lines."""
    ridges = _ridges(warp_board(smoothed, corners, CELL_PX, MARGIN))
    return _piece_means(ridges[0]), _piece_means(ridges[1])


def _contrast(grid_pieces: tuple[np.ndarray, np.ndarray]) -> float:
    """Mean edge strength on the 32 grid lines over that half a cell away from them."""
    on = off = 0.0
    for pieces in grid_pieces:
        pos = (np.arange(LINES) + MARGIN) * CELL_PX
        on += float(np.mean([pieces[int(round(p)) - 1 : int(round(p)) + 2].max(0) for p in pos]))
        half = pos[:-1] + CELL_PX / 2
        off += float(np.mean([pieces[int(round(p)) - 1 : int(round(p)) + 2].max(0) for p in half]))
    return on / max(off, _FLAT)


def _ridges(rect: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge strength across horizontal lines (d/dy) and across vertical lines (d/dx)."""
    return (
        np.abs(cv2.Sobel(rect, cv2.CV_32F, 0, 1, ksize=3)),
        np.abs(cv2.Sobel(rect, cv2.CV_32F, 1, 0, ksize=3)).T,
    )


def _piece_means(ridge: np.ndarray) -> np.ndarray:
    """Mean of each row over the middle of each of the 15 cells: shape (rows, 15)."""
    return _pieces(ridge, MARGIN, CELL_PX)


def _pieces(ridge: np.ndarray, margin: float, cell_px: float) -> np.ndarray:
    """Row means over the middle 70% of each cell along the row: shape (rows, 15)."""
    width = int(round(0.7 * cell_px)) | 1
    centres = np.round((np.arange(SIZE) + margin + 0.5) * cell_px).astype(int)
    return cv2.blur(ridge, (width, 1))[:, centres]


def _fit_line(x: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> tuple:
    """Weighted least-squares y = a x + b along the last axis (batched over the others)."""
    w = np.ones_like(y) if w is None else w
    sw, sx, sy = w.sum(-1), (w * x).sum(-1), (w * y).sum(-1)
    sxx, sxy = (w * x * x).sum(-1), (w * x * y).sum(-1)
    det = sw * sxx - sx * sx
    safe = np.where(np.abs(det) < 1e-9, 1.0, det)
    a = np.where(np.abs(det) < 1e-9, 0.0, (sw * sxy - sx * sy) / safe)
    b = np.where(np.abs(det) < 1e-9, sy / np.maximum(sw, 1e-9), (sxx * sy - sx * sxy) / safe)
    return a, b


def _find_lines(
    pieces: np.ndarray, window: float, select: np.ndarray | None = None
) -> dict[int, tuple[float, float]]:
    """Fit y = a*x + b (in search-image pixels) to each line that enough pieces agree on.

    pieces: _piece_means() of a ridge; select: (line, piece) booleans, the pieces allowed
    to take part (default all).
    """
    half = max(2, int(round(window * CELL_PX)))
    xs = (np.arange(SIZE) + MARGIN + 0.5) * CELL_PX
    centres = np.round((np.arange(LINES) + MARGIN) * CELL_PX).astype(int)
    rows = np.clip(centres[:, None] + np.arange(-half, half + 1), 0, len(pieces) - 1)
    win = pieces[rows]  # (line, offset, piece)
    k = np.clip(win.argmax(1), 1, win.shape[1] - 2)
    left, mid, right = (np.take_along_axis(win, (k + d)[:, None], 1)[:, 0] for d in (-1, 0, 1))
    denom = left - 2 * mid + right
    shift = np.where(denom < 0, 0.5 * (left - right) / np.where(denom < 0, denom, -1), 0.0)
    ys = rows[:, :1] + k + np.clip(shift, -0.5, 0.5)
    strength = mid - np.median(win, 1)
    usable = strength > 0.25 * np.median(strength)
    if select is not None:
        usable &= select
    weight = np.maximum(strength, 0)
    tolerance = max(1.0, 0.08 * CELL_PX)
    keep = usable
    for _ in range(3):
        a, b = _fit_line(xs, ys, weight * keep)
        resid = np.abs(ys - (a[:, None] * xs + b[:, None]))
        ordered = np.sort(np.where(keep, resid, np.inf), 1)
        middle = np.take_along_axis(ordered, np.maximum(keep.sum(1) - 1, 0)[:, None] // 2, 1)
        keep = usable & (resid < np.maximum(tolerance, 2.5 * middle))
    a, b = _fit_line(xs, ys, weight * keep)
    good = keep.sum(1) >= _MIN_PIECES
    return {int(i): (float(a[i]), float(b[i])) for i in np.nonzero(good)[0]}


def _refine_once(
    smoothed: np.ndarray, corners: np.ndarray, window: float
) -> tuple[np.ndarray, int] | None:
    pieces_h, pieces_v = _grid_pieces(smoothed, corners)
    rows = _find_lines(pieces_h, window)  # y = a x + b, line v = i
    cols = _find_lines(pieces_v, window)  # x = a y + b, line u = j (pieces_v is transposed)
    if len(rows) < _MIN_LINES or len(cols) < _MIN_LINES:
        return None
    homography = _crossings_homography(rows, cols, corners, cv2.RANSAC)
    if homography is None:
        return None
    return _project(homography, _SQUARE), len(rows) + len(cols)


def _local_corners(grid_pieces: tuple[np.ndarray, np.ndarray], corners: np.ndarray) -> np.ndarray:
    """Each corner from the lines and pieces within _LOCAL cells of it.

    Lens distortion bends the grid, so one homography for the whole board misplaces the
    corners by a fraction of a cell; near each corner a homography still fits well.
    """
    pieces_h, pieces_v = grid_pieces
    lines, along = np.arange(LINES), np.arange(SIZE) + 0.5
    refined = corners.copy()
    for k, (u, v) in enumerate(_SQUARE):
        rows = _find_lines(pieces_h, 0.15, _near(lines, v)[:, None] & _near(along, u)[None])
        cols = _find_lines(pieces_v, 0.15, _near(lines, u)[:, None] & _near(along, v)[None])
        if len(rows) >= _LOCAL // 2 and len(cols) >= _LOCAL // 2:
            homography = _crossings_homography(rows, cols, corners, 0)
            if homography is not None:
                refined[k] = _project(homography, _SQUARE[k : k + 1])[0]
    return refined


def _near(values: np.ndarray, at: float) -> np.ndarray:
    return np.abs(values - at) <= _LOCAL


def _crossings_homography(
    rows: dict[int, tuple[float, float]],
    cols: dict[int, tuple[float, float]],
    corners: np.ndarray,
    method: int,
) -> np.ndarray | None:
    """Board cells -> image pixels, fitted to where the found lines cross."""
    board_pts, rect_pts = [], []
    for i, (a, b) in rows.items():
        for j, (c, d) in cols.items():
            y = (a * d + b) / (1 - a * c)
            board_pts.append((j, i))
            rect_pts.append((c * y + d, y))
    scale = np.array([[1 / CELL_PX, 0, -MARGIN], [0, 1 / CELL_PX, -MARGIN], [0, 0, 1]])
    to_image = board_to_image(corners) @ scale
    image_pts = cv2.perspectiveTransform(np.float32(rect_pts)[None], to_image)[0]
    threshold = 0.12 * cell_size_px(corners)
    homography, _ = cv2.findHomography(np.float32(board_pts), image_pts, method, threshold)
    return homography


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(points)[None], homography)[0].astype(np.float32)
