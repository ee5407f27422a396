"""Candidate outlines of the playing area in a frame, for the lattice fit to start from.

Two independent sources, because each fails where the other does not:
- a small network (models/locator.onnx, run by onnxruntime) that sees the frame shrunk to
  256x160 and marks the playing area and its corners; it survives any rotation, perspective,
  mirroring, light and hands, but on boards unlike its training photos it takes in a printed
  margin, a title or a box in front;
- the large convex quadrilaterals among the frame's edges: a board's frame, its printed border
  and the playing area itself, which the network may have missed.
An outline only has to be within a few squares, and in about the right perspective: the lattice
stage (vision.lattice) finds the grid near it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .rectify import cell_size_px

INPUT_W, INPUT_H = 256, 160  # network input; frames are letterboxed into it
OUTPUT_STRIDE = 2  # the network's maps are half the input's size
ZOOM_BELOW = 0.5  # look again when the board's side is under this share of the input height
ZOOM_FILL = 0.85  # ... with the board's bounding box filling this share of the input
_SNAP_RADIUS = 3.0  # map pixels from the outline's corner to a corner peak
_CLEAR_PEAK = 0.7  # a peak this high marks a visible corner
PEAK_THRESHOLD = 0.3  # corner heatmap height that counts as a peak
EDGE_SIDE = 640  # the frame's longer side when its edges are searched for quadrilaterals
MIN_AREA = 0.08  # a quadrilateral must cover this share of the frame
MAX_QUADS = 4
# Package data of tilecast.models (the checkout's models/), so an installed wheel finds it too.
DEFAULT_MODEL = Path(str(files("tilecast.models") / "locator.onnx"))


class NoOutline(Exception):
    """The network saw no board-like area."""


@dataclass(frozen=True)
class Outline:
    """A rough playing area: corners (4, 2) float32, clockwise from the one nearest the image's
    top-left, and where it came from (for the reasons a fit gives)."""

    corners: np.ndarray = field(repr=False)
    source: str


def order_corners(points: np.ndarray) -> np.ndarray:
    """Clockwise as seen in the image, from the point nearest the image's top-left."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    return np.roll(pts, -int(np.argmin((pts**2).sum(1))), axis=0)


def candidate_outlines(image: np.ndarray, model: Path = DEFAULT_MODEL, threads: int = 1
                       ) -> list[Outline]:
    """Every rough outline worth fitting a lattice to: the network's looks, then the edges'
    quadrilaterals (near-duplicates dropped)."""
    found: list[Outline] = []
    try:
        found += network_outlines(image, model, threads)
    except NoOutline:
        pass
    for quad in edge_quadrilaterals(image):
        found.append(Outline(quad, "edges"))
    kept: list[Outline] = []
    for o in found:
        cell = cell_size_px(o.corners)
        if all(np.abs(o.corners - k.corners).max() > 0.5 * cell for k in kept):
            kept.append(o)
    return kept


def edge_quadrilaterals(image: np.ndarray) -> list[np.ndarray]:
    """The largest convex four-sided outlines among the frame's edges (image pixels)."""
    h, w = image.shape[:2]
    scale = min(1.0, EDGE_SIDE / max(h, w))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gray = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (0, 0), 1.5)
    median = float(np.median(gray))
    edges = cv2.Canny(gray, 0.33 * median, 0.66 * median)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    quads: list[np.ndarray] = []
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:30]:
        hull = cv2.convexHull(contour)
        if cv2.contourArea(hull) < MIN_AREA * gray.size:
            break
        perimeter = cv2.arcLength(hull, True)
        for eps in np.linspace(0.01, 0.08, 8):
            approx = cv2.approxPolyDP(hull, eps * perimeter, True)
            if len(approx) <= 4:
                break
        if len(approx) != 4:
            continue
        quad = order_corners((approx.reshape(4, 2) + 0.5) / scale - 0.5)
        if all(np.abs(quad - q).max() > 0.03 * max(h, w) for q in quads):
            quads.append(quad)
        if len(quads) == MAX_QUADS:
            break
    return quads


def network_outlines(image: np.ndarray, model: Path = DEFAULT_MODEL, threads: int = 1
                     ) -> list[Outline]:
    """The network's outline, and a second look zoomed onto it when the board fills little of
    the frame (a far camera, a portrait frame). Raises NoOutline when it sees no board."""
    h, w = image.shape[:2]
    scale = min(INPUT_W / w, INPUT_H / h)
    corners, _ = _run_network(image, scale, np.zeros(2), model, threads)
    looks = [Outline(order_corners(corners), "network")]
    if cell_size_px(corners) * 15 * scale < ZOOM_BELOW * INPUT_H:
        lo, hi = corners.min(0), corners.max(0)
        zoom = ZOOM_FILL * min(INPUT_W / (hi - lo)[0], INPUT_H / (hi - lo)[1])
        origin = (lo + hi) / 2 * zoom - np.float32([INPUT_W, INPUT_H]) / 2
        try:
            closer, _ = _run_network(image, zoom, origin, model, threads)
            looks.insert(0, Outline(order_corners(closer), "network, zoomed"))
        except NoOutline:
            pass
    return looks


def mirrored_network_outlines(image: np.ndarray, model: Path = DEFAULT_MODEL, threads: int = 1
                              ) -> list[Outline]:
    """The network's outlines of the frame seen in a mirror, put back in the frame: a second,
    independent look (the network is not mirror-symmetric) for a frame where no first-look
    outline led to a board. Empty when it sees no board there either."""
    w = image.shape[1]
    try:
        looks = network_outlines(cv2.flip(image, 1), model, threads)
    except NoOutline:
        return []
    out = []
    for o in looks:
        corners = o.corners.copy()
        corners[:, 0] = w - 1 - corners[:, 0]
        out.append(Outline(order_corners(corners), o.source + ", mirrored"))
    return out


@lru_cache(maxsize=4)
def _session(path: Path, threads: int) -> ort.InferenceSession:
    if not path.is_file():
        raise FileNotFoundError(f"{path} missing: train it with models/train_locator.py")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _run_network(
    image: np.ndarray, scale: float, origin: np.ndarray, model: Path, threads: int
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
    session = _session(Path(model), threads)
    logits = session.run(None, {"image": frame.transpose(2, 0, 1)[None]})[0][0]
    maps = 1.0 / (1.0 + np.exp(-logits))
    quad, confidence = _decode(maps[0], maps[1], PEAK_THRESHOLD)
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
        raise NoOutline("no board-like area in the frame")
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
