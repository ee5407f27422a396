"""The table around the board, seen straight on: surface, floor past its edge, the board's shadow,
and clutter (racks with tiles, a score sheet, a game clock, a tile bag, a cup)."""

from __future__ import annotations

import cv2
import numpy as np

from .glyphs import text_mask
from .styles import TileStyle
from .tiles import tile_face

SURFACES = ("wood", "laminate", "cloth", "felt", "stone")


def _noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Smooth noise in about -1..1 with `cells` bumps across the longer side."""
    h, w = shape
    k = max(2, cells)
    small = rng.normal(0, 1, (max(2, k * h // max(h, w)), max(2, k * w // max(h, w))))
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def surface(rng: np.random.Generator, shape: tuple[int, int], px: float, kind: str
            ) -> np.ndarray:
    """A table or floor texture (BGR uint8); px is pixels per board square."""
    h, w = shape
    colours = {
        "wood": [(40, 75, 120), (70, 120, 170), (30, 50, 80), (110, 160, 200)],
        "laminate": [(35, 33, 32), (50, 48, 46), (200, 200, 198), (70, 80, 90)],
        "cloth": [(120, 70, 40), (60, 60, 140), (210, 215, 220), (90, 90, 90)],
        "felt": [(60, 110, 30), (110, 60, 20), (40, 40, 110)],
        "stone": [(190, 192, 195), (150, 150, 150), (220, 225, 225)],
    }[kind]
    base = np.asarray(colours[rng.integers(len(colours))], np.float32) + rng.normal(0, 8, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    low = _noise(rng, shape, 6)
    if kind == "wood":
        warp = _noise(rng, shape, 5) * 2
        y = np.arange(h, dtype=np.float32)[:, None] / px
        grain = np.sin(2 * np.pi * (y * rng.uniform(0.8, 2.0) + warp)) * 0.08
        fine = rng.normal(0, 0.03, (h, 1)).astype(np.float32)
        img *= (1 + grain + fine + 0.06 * low)[..., None]
        plank = rng.uniform(4, 9) * px
        for yy in np.arange(rng.uniform(0, plank), h, plank):
            cv2.line(img, (0, int(yy)), (w, int(yy)), tuple(float(c) * 0.6 for c in base), 1)
    elif kind == "stone":
        img *= (1 + 0.08 * low + 0.04 * _noise(rng, shape, 40))[..., None]
    else:
        img *= (1 + 0.05 * low)[..., None]
        img += rng.normal(0, 6 if kind in ("cloth", "felt") else 2, (h, w, 1)).astype(np.float32)
    if kind == "laminate" and rng.random() < 0.6:  # the join between two tables
        x = int(rng.uniform(0.2, 0.8) * w)
        cv2.line(img, (x, 0), (x, h), tuple(float(c) * 0.4 for c in base), max(1, int(px / 8)))
    return np.clip(img, 0, 255).astype(np.uint8)


def _stamp(tex: np.ndarray, patch: np.ndarray, alpha: np.ndarray, centre: tuple[float, float],
           angle: float) -> None:
    """Paste a patch (drawn at texture scale) rotated about its centre onto tex."""
    h, w = alpha.shape
    diag = int(np.hypot(h, w)) + 4
    x0, y0 = int(centre[0] - diag / 2), int(centre[1] - diag / 2)
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - ((w - 1) / 2, (h - 1) / 2) - (x0, y0)
    p = cv2.warpAffine(patch, m, (diag, diag), flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(alpha, m, (diag, diag), flags=cv2.INTER_LINEAR)
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x0 + diag, tex.shape[1]), min(y0 + diag, tex.shape[0])
    if sx1 <= sx0 or sy1 <= sy0:
        return
    win = np.s_[sy0:sy1, sx0:sx1]
    loc = np.s_[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0]
    af = a[loc].astype(np.float32) / 255
    tex[win] = cv2.blendLinear(p[loc], tex[win], af, 1 - af)


def _shadowed(patch: np.ndarray, alpha: np.ndarray, px: float) -> tuple[np.ndarray, np.ndarray]:
    """Add a soft contact shadow around an object patch (it stands on the table)."""
    pad = max(2, int(px * 0.3))
    patch = cv2.copyMakeBorder(patch, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    alpha = cv2.copyMakeBorder(alpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    shade = cv2.GaussianBlur(alpha, (0, 0), pad / 2.5)
    a = alpha.astype(np.float32) / 255
    out = (patch.astype(np.float32) * a[..., None]).astype(np.uint8)
    return out, np.maximum(alpha, (shade * 0.5).astype(np.uint8))


def rack(rng: np.random.Generator, px: float, style: TileStyle, values: dict[str, int]
         ) -> tuple[np.ndarray, np.ndarray]:
    """A tile rack holding up to seven tiles, seen from above (patch, alpha)."""
    w, h = int(8 * px), int(1.3 * px)
    colour = np.asarray([(40, 80, 130), (30, 30, 30), (60, 90, 150), (40, 40, 120)][
        rng.integers(4)], np.float32) + rng.normal(0, 10, 3)
    patch = np.empty((h, w, 3), np.uint8)
    patch[:] = np.clip(colour, 0, 255)
    patch[: h // 3] = np.clip(colour * 1.25, 0, 255)
    alpha = np.full((h, w), 255, np.uint8)
    t = max(6, int(px * 0.9))
    for i in range(int(rng.integers(0, 8))):
        face = "?" if rng.random() < 0.05 else chr(65 + int(rng.integers(26)))
        bgr, a = tile_face(style, face, values.get(face, 0), t)
        x = int(px * 0.3 + i * (w - px * 0.6) / 7)
        y = max(0, h - t - 1)
        if x + t <= w:
            af = a.astype(np.float32)[..., None] / 255
            patch[y:y + t, x:x + t] = (patch[y:y + t, x:x + t] * (1 - af) + bgr * af).astype(
                np.uint8)
    return _shadowed(patch, alpha, px)


def score_sheet(rng: np.random.Generator, px: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = int(rng.uniform(6, 8) * px), int(rng.uniform(8.5, 11) * px)
    patch = np.empty((h, w, 3), np.uint8)
    patch[:] = np.clip(np.array([235, 240, 242]) + rng.normal(0, 8, 3), 0, 255)
    for y in np.arange(px * 0.8, h, px * 0.45):
        cv2.line(patch, (int(px * 0.3), int(y)), (w - int(px * 0.3), int(y)), (190, 170, 150), 1)
    for x in (w // 3, 2 * w // 3):
        cv2.line(patch, (x, int(px * 0.5)), (x, h - int(px * 0.3)), (160, 140, 120), 1)
    ink = (120, 40, 20) if rng.random() < 0.6 else (30, 30, 30)
    for y in np.arange(px * 0.8, h * rng.uniform(0.3, 0.95), px * 0.45):
        for col in range(3):
            pts = np.cumsum(rng.normal(0, px * 0.06, (6, 2)), 0) + (col * w / 3 + px * 0.4,
                                                                     y - px * 0.15)
            pts[:, 0] += np.linspace(0, w / 3 * 0.6, 6)
            cv2.polylines(patch, [pts.astype(np.int32)], False, ink, 1, cv2.LINE_AA)
    return _shadowed(patch, np.full((h, w), 255, np.uint8), px)


def game_clock(rng: np.random.Generator, px: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = int(rng.uniform(4.5, 6) * px), int(rng.uniform(2.2, 3) * px)
    body = np.clip(np.array([40, 40, 40]) + rng.normal(0, 25, 3), 0, 255)
    patch = np.empty((h, w, 3), np.uint8)
    patch[:] = body
    lcd = (150, 190, 160) if rng.random() < 0.6 else (30, 30, 30)
    digit_ink = (30, 30, 30) if lcd[0] > 100 else (60, 60, 240)
    for side in range(2):
        x0, x1 = int(side * w / 2 + px * 0.3), int((side + 1) * w / 2 - px * 0.3)
        y0, y1 = int(h * 0.3), int(h * 0.75)
        cv2.rectangle(patch, (x0, y0), (x1, y1), lcd, -1)
        text = f"{int(rng.integers(0, 25)):02d}{int(rng.integers(0, 60)):02d}"
        m, _ = text_mask("dejavu_sans_bold", text, (y1 - y0) * 0.6)
        m = cv2.resize(m, (max(1, min(m.shape[1], x1 - x0 - 4)), m.shape[0]))
        oy, ox = y0 + (y1 - y0 - m.shape[0]) // 2, x0 + 2
        roi = patch[oy:oy + m.shape[0], ox:ox + m.shape[1]]
        a = m[:roi.shape[0], :roi.shape[1], None].astype(np.float32) / 255
        roi[:] = (roi * (1 - a) + np.asarray(digit_ink) * a).astype(np.uint8)
    return _shadowed(patch, np.full((h, w), 255, np.uint8), px)


def blob(rng: np.random.Generator, px: float, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """A tile bag (cloth blob with folds) or a cup seen from above."""
    r = px * (rng.uniform(2, 3.2) if kind == "bag" else rng.uniform(1.2, 1.8))
    n = int(2 * r) + 4
    alpha = np.zeros((n, n), np.uint8)
    if kind == "bag":
        ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        rad = r * (1 + 0.15 * rng.normal(0, 1, 24))
        pts = np.stack([n / 2 + rad * np.cos(ang), n / 2 + rad * np.sin(ang)], 1) * 0.95
        cv2.fillPoly(alpha, [pts.astype(np.int32)], 255, cv2.LINE_AA)
        colour = np.asarray([(90, 40, 30), (80, 30, 70), (40, 80, 40), (30, 30, 120)][
            rng.integers(4)], np.float32)
        folds = 1 + 0.25 * _noise(rng, (n, n), 8)
        patch = np.clip(colour * folds[..., None], 0, 255).astype(np.uint8)
    else:
        cv2.circle(alpha, (n // 2, n // 2), int(r), 255, -1, cv2.LINE_AA)
        colour = np.clip(np.array([220, 220, 220]) + rng.normal(0, 30, 3), 0, 255)
        patch = np.empty((n, n, 3), np.uint8)
        patch[:] = colour
        cv2.circle(patch, (n // 2, n // 2), int(r * 0.8), tuple(float(c) * 0.55 for c in colour),
                   -1, cv2.LINE_AA)
    return _shadowed(patch, alpha, px)


def table_texture(rng: np.random.Generator, extent: tuple[float, float, float, float],
                  px: float, board_outline: tuple[float, float], player_sides: tuple[int, int],
                  tiles: TileStyle, values: dict[str, int], shadow: tuple[float, float, float]
                  ) -> np.ndarray:
    """The table plane over board coordinates [u0, u1] x [v0, v1] (extent) at px per square.

    board_outline is the board's outer edge as (low, high) in both u and v; player_sides are the
    board sides (0 top, 1 right, 2 bottom, 3 left) the players sit at, where racks go; shadow is
    the light's (du, dv, softness) in squares for the board's shadow.
    """
    u0, u1, v0, v1 = extent
    w, h = int((u1 - u0) * px), int((v1 - v0) * px)
    kind = str(rng.choice(SURFACES, p=[0.35, 0.25, 0.15, 0.1, 0.15]))
    floor = surface(rng, (h, w), px, str(rng.choice(["wood", "stone", "cloth"])))
    floor = (floor * rng.uniform(0.5, 0.9)).astype(np.uint8)
    img = floor
    lo, hi = board_outline
    # The table: a rectangle around the board reaching 3-25 squares past it on each side.
    t0 = [lo - rng.uniform(3, 25) for _ in range(2)]
    t1 = [hi + rng.uniform(3, 25) for _ in range(2)]
    tx0, ty0 = int((t0[0] - u0) * px), int((t0[1] - v0) * px)
    tx1, ty1 = int((t1[0] - u0) * px), int((t1[1] - v0) * px)
    top = surface(rng, (h, w), px, kind)
    img[max(ty0, 0):ty1, max(tx0, 0):tx1] = top[max(ty0, 0):ty1, max(tx0, 0):tx1]

    def to_px(u: float, v: float) -> tuple[float, float]:
        return (u - u0) * px, (v - v0) * px

    # The board's shadow.
    mask = np.zeros((h, w), np.uint8)
    a, b = to_px(lo + shadow[0], lo + shadow[1])
    c, d = to_px(hi + shadow[0], hi + shadow[1])
    cv2.rectangle(mask, (int(a), int(b)), (int(c), int(d)), 255, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, shadow[2] * px))
    dark = mask.astype(np.float32) * (0.5 / 255)
    img = cv2.blendLinear(img, np.zeros_like(img), 1 - dark, dark)

    centre = (lo + hi) / 2
    span = (hi - lo) / 2
    for side in player_sides:
        if rng.random() < 0.8:
            ang = {0: 180, 1: 90, 2: 0, 3: 270}[side] + rng.normal(0, 4)
            off = span + rng.uniform(1.2, 3.5)
            along = rng.uniform(-4, 4)
            du, dv = {0: (along, -off), 1: (off, along), 2: (along, off), 3: (-off, along)}[side]
            patch, alpha = rack(rng, px, tiles, values)
            _stamp(img, patch, alpha, to_px(centre + du, centre + dv), -ang)
    makers = [lambda: score_sheet(rng, px), lambda: game_clock(rng, px),
              lambda: blob(rng, px, "bag"), lambda: blob(rng, px, "cup")]
    for i in rng.permutation(len(makers))[: int(rng.integers(1, 5))]:
        side = int(rng.integers(4))
        off = span + rng.uniform(3, 9)
        along = rng.uniform(-span - 4, span + 4)
        du, dv = {0: (along, -off), 1: (off, along), 2: (along, off), 3: (-off, along)}[side]
        patch, alpha = makers[i]()
        _stamp(img, patch, alpha, to_px(centre + du, centre + dv), float(rng.uniform(0, 360)))
    return img
