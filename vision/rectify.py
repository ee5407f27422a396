"""Map between the board's cell grid and the photo, and cut the board into cell crops.

Board coordinates are (u, v) in cells: (0, 0) is corners[0], u runs towards corners[1] and
v towards corners[3], so the playing area is [0, 15] x [0, 15]. Which corner is square 1A is
decided later from the tiles; nothing here knows about it (nor about mirrored feeds).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

SIZE = 15
# The rectified image shows this many cells of surroundings on every side, so crops of edge
# cells can see a tile that overhangs the playing area.
BORDER = 0.5

_UNIT_SQUARE = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
# Squares smaller than this in the frame lose letters: a rendered board shrunk to 9 pixels a
# square read 6 of 225 squares wrong, at 8 pixels 13, and none from 9.6 up.
LEGIBLE_PX = 10.0


def board_to_image(corners: np.ndarray) -> np.ndarray:
    """Homography taking board (u, v) in cells to photo pixels."""
    return cv2.getPerspectiveTransform(_UNIT_SQUARE, np.asarray(corners, np.float32))


def cell_size_px(corners: np.ndarray) -> float:
    """Mean side of the playing area in photo pixels, divided by 15: the unit of 'cell' errors."""
    c = np.asarray(corners, np.float64)
    return float(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1).mean() / SIZE)


def too_small(corners: np.ndarray) -> str:
    """Why letters may be misread when the board's squares are under LEGIBLE_PX pixels in the
    frame (what a user can change: the camera's resolution or distance); '' when they are not.
    The board is read all the same: a reading with a few letters wrong beats none."""
    px = cell_size_px(corners)
    if px >= LEGIBLE_PX:
        return ""
    return (f"the board's squares are only {px:.1f} pixels wide, and letters are read "
            f"reliably from about {LEGIBLE_PX:.0f}: some may be misread (use a higher "
            "resolution, or bring the camera nearer)")


def warp_board(image: np.ndarray, corners: np.ndarray, cell_px: float, border: float) -> np.ndarray:
    """Top-down view of [-border, 15 + border]^2 in board cells at cell_px pixels per cell."""
    side = int(round((SIZE + 2 * border) * cell_px))
    scale = np.array([[1 / cell_px, 0, -border], [0, 1 / cell_px, -border], [0, 0, 1]])
    to_image = board_to_image(corners) @ scale
    return cv2.warpPerspective(
        image,
        to_image,
        (side, side),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def rectify(image: np.ndarray, corners: np.ndarray, cell_px: int = 32) -> np.ndarray:
    """Top-down board image: the playing area plus BORDER cells each side, cell_px per cell.

    Rows run from the corners[0]-corners[1] edge to the corners[3]-corners[2] edge.
    """
    return warp_board(image, corners, float(cell_px), BORDER)


def cell_crops(
    rectified: np.ndarray,
    margin: float = 0.25,
    size: int = 64,
    which: Sequence[int] | None = None,
) -> np.ndarray:
    """The 225 squares of a rectify() image as [225, size, size, C], row-major (row = v), or
    only the squares numbered in `which` (row * 15 + col), in that order.

    Each crop covers its square plus `margin` cells on every side, because tiles under a
    tilted camera sit off their square's centre.
    """
    side = rectified.shape[0]
    cell_px = side / (SIZE + 2 * BORDER)
    pad = int(np.ceil(max(0.0, margin - BORDER) * cell_px)) + 1
    padded = cv2.copyMakeBorder(rectified, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    span = (1 + 2 * margin) * cell_px
    scale = size / span
    squares = range(SIZE * SIZE) if which is None else which
    crops = np.empty((len(squares), size, size) + rectified.shape[2:], rectified.dtype)
    for i, square in enumerate(squares):
        row, col = divmod(int(square), SIZE)
        x0 = (col + BORDER - margin) * cell_px + pad
        y0 = (row + BORDER - margin) * cell_px + pad
        affine = np.float32([[scale, 0, -x0 * scale], [0, scale, -y0 * scale]])
        crops[i] = cv2.warpAffine(padded, affine, (size, size), flags=cv2.INTER_LINEAR).reshape(
            crops.shape[1:]
        )
    return crops


def corners_from_points(points: np.ndarray, size: tuple[int, int] | None = None) -> np.ndarray:
    """Four corners of the playing area given in any order, as the order used everywhere in
    tilecast.vision (clockwise as seen, from the one nearest the image's top-left), or a
    ValueError saying what is wrong with them: not finite, not a convex four-sided area (three
    in a line, one inside the others), too small to hold 15 squares, or (given the image's
    (width, height)) outside the image."""
    pts = np.asarray(points, np.float64).reshape(4, 2)
    if not np.isfinite(pts).all():
        raise ValueError("corners must be finite numbers")
    if size is not None:
        w, h = size
        outside = (pts < -0.5).any(1) | (pts[:, 0] > w - 0.5) | (pts[:, 1] > h - 0.5)
        if outside.any():
            x, y = pts[int(np.argmax(outside))]
            raise ValueError(f"corner ({x:g}, {y:g}) lies outside the {w}x{h} image")
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
    if len(hull) < 3:
        raise ValueError("corners do not form a four-sided area (they lie on a line)")
    if len(hull) < 4:
        raise ValueError("corners do not form a four-sided area (one lies inside the others)")
    centre = pts.mean(0)
    ordered = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    sides = np.roll(ordered, -1, 0) - ordered
    turns = sides[:, 0] * np.roll(sides, -1, 0)[:, 1] - sides[:, 1] * np.roll(sides, -1, 0)[:, 0]
    lengths = np.linalg.norm(sides, axis=1)
    if (np.abs(turns) < 0.02 * lengths * np.roll(lengths, -1)).any():
        raise ValueError("corners do not form a four-sided area (three lie on a line)")
    if lengths.min() < SIZE * 2:
        raise ValueError(f"corners are {lengths.min():.0f} pixels apart: too close for 15 "
                         "squares")
    start = int(np.argmin((ordered**2).sum(1)))
    return np.roll(ordered, -start, axis=0).astype(np.float32)
