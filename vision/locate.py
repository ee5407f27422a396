"""Find the board's 15x15 playing area in a camera frame, with no markers.

Two stages. A small network (models/locator.onnx, run by onnxruntime) looks at the frame
shrunk to 256x160 and marks the playing area and its corners, which puts the corners within
a fraction of a cell whatever the rotation, perspective, mirroring, lighting or hands. Then
the grid lines themselves pin them down (vision.grid), and how clearly a 15x15 grid shows
there decides whether to trust the fix at all.

Corner order, everywhere in tilecast.vision: clockwise as seen in the image, starting with
the corner nearest the image's top-left pixel. Which of them is square 1A (and whether the
feed is mirrored) is decided later, from the tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .grid import GridFit, grid_contrast, refine_to_grid, smooth_for_grid
from .rectify import cell_size_px

INPUT_W, INPUT_H = 256, 160  # network input; frames are letterboxed into it
OUTPUT_STRIDE = 2  # the network's maps are half the input's size
ZOOM_BELOW = 0.5  # look again when the board's side is under this share of the input height
ZOOM_FILL = 0.85  # ... with the board's bounding box filling this share of the input
_SNAP_RADIUS = 3.0  # map pixels from the outline's corner to a corner peak
_CLEAR_PEAK = 0.7  # a peak this high marks a visible corner
DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "locator.onnx"


class BoardNotFound(Exception):
    """No playing area could be found (or trusted) in the frame; the message says why."""


@dataclass(frozen=True)
class LocateConfig:
    model_path: Path = DEFAULT_MODEL
    threads: int = 1  # onnxruntime threads; the app reads several cameras on few cores
    peak_threshold: float = 0.3  # corner heatmap height that counts as a peak
    min_contrast: float = 1.5  # grid-line edge strength over off-line strength, to accept
    max_shift: float = 2.5  # cells a refined corner may move from the network's guess
    track_shift: float = 1.0  # ... and from the fix being followed


@dataclass(frozen=True)
class BoardFix:
    """Where the playing area is: corners (4, 2) float32 in image pixels, order as above."""

    corners: np.ndarray = field(repr=False)
    quality: float  # 0-1: how clearly a 15x15 grid shows there; under about 0.5, doubtful


def order_corners(points: np.ndarray) -> np.ndarray:
    """Clockwise as seen in the image, from the point nearest the image's top-left."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    return np.roll(pts, -int(np.argmin((pts**2).sum(1))), axis=0)


def locate_board(image: np.ndarray, cfg: LocateConfig | None = None) -> BoardFix:
    """Find the playing area in a BGR frame, or raise BoardNotFound."""
    cfg = cfg or LocateConfig()
    coarse, confidence = _coarse_corners(image, cfg)
    return _refined_fix(image, order_corners(coarse), confidence, cfg, cfg.max_shift)


def track(image: np.ndarray, previous: BoardFix, cfg: LocateConfig | None = None) -> BoardFix:
    """Follow a board that moved a little since `previous`, without the network.

    Keeps the previous corner order, so a board near 45 degrees does not change its first
    corner from frame to frame. Raises BoardNotFound when the grid no longer shows at the old
    place (the board moved too far, or a hand hides too much of it): call locate_board() then.
    """
    cfg = cfg or LocateConfig()
    return _refined_fix(image, previous.corners, 1.0, cfg, cfg.track_shift, shifts=False)


def _refined_fix(
    image: np.ndarray,
    corners: np.ndarray,
    confidence: float,
    cfg: LocateConfig,
    max_shift: float,
    shifts: bool = True,
) -> BoardFix:
    fit = _refine(image, np.asarray(corners, np.float32), shifts)
    cell = cell_size_px(fit.corners)
    shift = float(np.linalg.norm(fit.corners - corners, axis=1).max()) / cell
    if fit.contrast < cfg.min_contrast or shift > max_shift:
        raise BoardNotFound(
            f"no 15x15 grid where the board should be (grid contrast {fit.contrast:.2f}, "
            f"needs {cfg.min_contrast}; corners moved {shift:.2f} cells, at most {max_shift})"
        )
    quality = confidence * min(1.0, (fit.contrast - 1.0) / 4.0) * min(1.0, fit.lines / 28)
    return BoardFix(fit.corners, float(np.clip(quality, 0.0, 1.0)))


def grid_evidence(image: np.ndarray, corners: np.ndarray) -> float:
    """How clearly a 15x15 grid shows exactly at `corners` (the contrast a fit there has)."""
    smoothed, local, _, _ = _crop(image, np.asarray(corners, np.float32))
    return grid_contrast(smoothed, local)


def _refine(image: np.ndarray, corners: np.ndarray, shifts: bool = True) -> GridFit:
    """Grid refinement on a crop around the board, so the cost does not grow with the frame."""
    smoothed, local, offset, roi = _crop(image, corners)
    fit = refine_to_grid(smoothed, local, roi, shifts=shifts)
    return GridFit(fit.corners + offset, fit.contrast, fit.lines)


def _crop(image: np.ndarray, corners: np.ndarray):
    """(smoothed grey crop, corners in it, its offset, the colour crop) around the board."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    pad = 2.0 * cell_size_px(corners)
    x0, y0 = np.maximum(np.floor(corners.min(0) - pad), 0).astype(int)
    x1, y1 = np.ceil(corners.max(0) + pad).astype(int)
    offset = np.float32([x0, y0])
    local = corners - offset
    return smooth_for_grid(gray[y0:y1, x0:x1], local), local, offset, image[y0:y1, x0:x1]


@lru_cache(maxsize=4)
def _session(path: Path, threads: int) -> ort.InferenceSession:
    if not path.is_file():
        raise FileNotFoundError(f"{path} missing: train it with models/train_locator.py")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _coarse_corners(image: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, float]:
    """Corners to within a fraction of a cell, in image pixels, and the network's confidence.

    A board that fills little of the frame (a far camera, a portrait frame) is looked at a
    second time, zoomed to the size the network knows best.
    """
    h, w = image.shape[:2]
    scale = min(INPUT_W / w, INPUT_H / h)
    corners, confidence = _run_network(image, scale, np.zeros(2), cfg)
    if cell_size_px(corners) * 15 * scale < ZOOM_BELOW * INPUT_H:
        lo, hi = corners.min(0), corners.max(0)
        zoom = ZOOM_FILL * min(INPUT_W / (hi - lo)[0], INPUT_H / (hi - lo)[1])
        origin = (lo + hi) / 2 * zoom - np.float32([INPUT_W, INPUT_H]) / 2
        try:
            corners, confidence = _run_network(image, zoom, origin, cfg)
        except BoardNotFound:
            pass  # keep the first look
    return corners, confidence


def _run_network(
    image: np.ndarray, scale: float, origin: np.ndarray, cfg: LocateConfig
) -> tuple[np.ndarray, float]:
    """Run the network on the window at `origin` of the image resized by `scale`."""
    h, w = image.shape[:2]
    x0, y0 = np.floor(np.maximum(origin / scale, 0)).astype(int)
    x1 = min(w, int(np.ceil((origin[0] + INPUT_W) / scale)))
    y1 = min(h, int(np.ceil((origin[1] + INPUT_H) / scale)))
    size = (min(INPUT_W, round((x1 - x0) * scale)), min(INPUT_H, round((y1 - y0) * scale)))
    crop = image[y0:y1, x0:x1]
    small = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    fx, fy = size[0] / crop.shape[1], size[1] / crop.shape[0]
    ox, oy = np.clip(np.round(np.float32([x0, y0]) * scale - origin), 0, None).astype(int)
    frame = np.zeros((INPUT_H, INPUT_W, 3), np.float32)
    frame[oy : oy + size[1], ox : ox + size[0]] = (
        small[: INPUT_H - oy, : INPUT_W - ox] / 255.0 - 0.5
    )
    session = _session(Path(cfg.model_path), cfg.threads)
    logits = session.run(None, {"image": frame.transpose(2, 0, 1)[None]})[0][0]
    maps = 1.0 / (1.0 + np.exp(-logits))
    quad, confidence = _decode(maps[0], maps[1], cfg.peak_threshold)
    # input pixel -> crop pixel (cv2.resize puts pixel centres at +0.5) -> image pixel
    inside = quad * OUTPUT_STRIDE - np.float32([ox, oy])
    return (inside + 0.5) / np.float32([fx, fy]) - 0.5 + np.float32([x0, y0]), confidence


def _decode(mask: np.ndarray, heat: np.ndarray, threshold: float) -> tuple[np.ndarray, float]:
    """Quadrilateral from the maps, in map pixels, and a 0-1 confidence.

    The area's outline gives a quadrilateral that survives a hidden corner (its sides are
    fitted to the visible outline); each of its corners is replaced by a clear corner peak
    near it, which is more precise. A hidden corner leaves only weak, scattered peaks.
    """
    area = _area_quad(mask)
    if area is None:
        raise BoardNotFound("no board-like area in the frame")
    peaks = _peaks(heat, threshold)
    quad, heights = area.copy(), []
    for i, corner in enumerate(area):
        near = peaks[np.linalg.norm(peaks[:, :2] - corner, axis=1) < _SNAP_RADIUS]
        if len(near) and near[0, 2] >= _CLEAR_PEAK:
            quad[i] = near[0, :2]
            heights.append(float(near[0, 2]))
        else:
            heights.append(0.5)
    return quad, float(np.mean(heights))


def _peaks(heat: np.ndarray, threshold: float) -> np.ndarray:
    """Local maxima above threshold as rows (x, y, height), highest first, sub-pixel."""
    local_max = (heat == cv2.dilate(heat, np.ones((5, 5), np.uint8))) & (heat > threshold)
    ys, xs = np.nonzero(local_max)
    rows = []
    for x, y in zip(xs, ys, strict=True):
        y0, y1, x0, x1 = max(0, y - 2), y + 3, max(0, x - 2), x + 3
        patch = heat[y0:y1, x0:x1]
        gy, gx = np.mgrid[y0 : y0 + patch.shape[0], x0 : x0 + patch.shape[1]]
        weight = patch.sum()
        rows.append(((gx * patch).sum() / weight, (gy * patch).sum() / weight, heat[y, x]))
    rows.sort(key=lambda r: -r[2])
    return np.float32(rows).reshape(-1, 3)


def _area_quad(mask: np.ndarray) -> np.ndarray | None:
    """Quadrilateral fitted to the largest area: hull corners, sides refitted to the outline."""
    binary = (mask > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)
    if cv2.contourArea(outline) < 0.02 * mask.size:
        return None
    hull = cv2.convexHull(outline)
    perimeter = cv2.arcLength(hull, True)
    approx = hull
    for eps in np.linspace(0.01, 0.1, 10):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) <= 4:
            break
    if len(approx) != 4:
        approx = cv2.boxPoints(cv2.minAreaRect(hull))
    quad = order_corners(approx.reshape(4, 2))
    return _refit_sides(quad, _densify(hull.reshape(-1, 2).astype(np.float32)))


def _densify(polygon: np.ndarray) -> np.ndarray:
    """Points every pixel along a closed polygon, so long edges weigh as much as they are long."""
    ends = np.roll(polygon, -1, axis=0)
    parts = [
        a
        + np.outer(
            np.arange(max(1, int(np.linalg.norm(b - a)))) / max(1.0, np.linalg.norm(b - a)), b - a
        )
        for a, b in zip(polygon, ends, strict=True)
    ]
    return np.concatenate(parts).astype(np.float32)


def _refit_sides(quad: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """Fit each side to the outline points along its middle and intersect neighbouring sides."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        t = (outline - a) @ d / length**2
        normal = np.array([-d[1], d[0]]) / length
        near = (t > 0.15) & (t < 0.85) & (np.abs((outline - a) @ normal) < 0.05 * length)
        if near.sum() < 2:
            lines.append((a, d / length))
            continue
        vx, vy, x0, y0 = cv2.fitLine(outline[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    refined = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        matrix = np.array([u, -v]).T
        if abs(np.linalg.det(matrix)) < 1e-6:
            refined.append(quad[i])
            continue
        s = np.linalg.solve(matrix, q - p)[0]
        refined.append(p + s * u)
    return np.float32(refined)
