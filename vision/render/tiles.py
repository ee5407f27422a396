"""Drawing a tile: its face sprite (letter, point value, blank mark) and placing it as a small 3D
block on a board-plane canvas (shadow, visible edge under tilt, slight rotation)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .glyphs import text_mask
from .styles import TileStyle


def rounded_rect_sdf(px: int, half: float, radius: float) -> np.ndarray:
    """Signed distance (pixels, negative inside) to a centred rounded square of half-width half."""
    c = (px - 1) / 2
    ax = np.abs(np.arange(px, dtype=np.float32) - c)
    qx = ax[None, :] - (half - radius)
    qy = ax[:, None] - (half - radius)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    return outside + np.minimum(np.maximum(qx, qy), 0) - radius


def _paint(img: np.ndarray, mask: np.ndarray, colour: tuple[int, int, int], x: int, y: int,
           strength: float = 1.0) -> None:
    """Blend colour through a uint8 mask whose top-left goes to (x, y), clipped to img."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y:y1 - y, x0 - x:x1 - x, None].astype(np.float32) * (strength / 255)
    region = img[y0:y1, x0:x1]
    region[:] = region * (1 - a) + np.asarray(colour, np.float32) * a


def _grain(rng: np.random.Generator, px: int, strength: float) -> np.ndarray:
    """Wood grain: wavy stripes along one axis, as a multiplicative brightness field."""
    warp = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (px, px),
                      interpolation=cv2.INTER_CUBIC)
    y = np.arange(px, dtype=np.float32)[:, None] / px
    stripes = np.sin(2 * np.pi * (rng.uniform(3, 9) * y + 0.6 * warp))
    field = 1 + strength * (0.06 * stripes + 0.03 * rng.normal(0, 1, (px, px)))
    return field if rng.random() < 0.5 else field.T


def _draw_blank_mark(img: np.ndarray, style: TileStyle, half: float, rng: np.random.Generator
                     ) -> None:
    px = img.shape[0]
    c = (px - 1) / 2
    ink = style.blank_mark_ink
    if style.blank_mark == "inset":
        sdf = rounded_rect_sdf(px, half * rng.uniform(0.45, 0.62), half * 0.08)
        light = tuple(int(v) for v in np.clip(np.asarray(style.face) * 0.3 + 200, 0, 255))
        _paint(img, (np.clip(0.5 - sdf, 0, 1) * 255).astype(np.uint8), light, 0, 0)  # type: ignore[arg-type]
    elif style.blank_mark == "logo":
        # A round emblem with a short word in it, like the association logos printed on blanks.
        mask = np.zeros((px * 4, px * 4), np.uint8)
        r = int(half * rng.uniform(0.45, 0.75) * 4)
        cv2.circle(mask, (px * 2, px * 2), r, 255, max(2, r // 7), cv2.LINE_AA)
        word = "".join(rng.choice(list("ABCDEFGHKLMNPRSTW"), rng.integers(3, 6)))
        text, _ = text_mask("dejavu_sans_bold", word, r * 0.35)
        tw = min(text.shape[1], int(r * 1.6))
        text = cv2.resize(text, (tw, text.shape[0]))
        ty, tx = px * 2 - text.shape[0] // 2, px * 2 - tw // 2
        mask[ty:ty + text.shape[0], tx:tx + tw] = np.maximum(
            mask[ty:ty + text.shape[0], tx:tx + tw], text)
        mask = cv2.resize(mask, (px, px), interpolation=cv2.INTER_AREA)
        _paint(img, mask, ink, 0, 0, float(rng.uniform(0.5, 1.0)))
    elif style.blank_mark == "wordmark":
        # An association's name in small type, in one or two lines (e.g. NAS over PA).
        word = "".join(rng.choice(list("ABCDEFGHKLMNPRSTW"), rng.integers(4, 6)))
        lines = (word,) if rng.random() < 0.4 else (word[:len(word) // 2 + 1],
                                                    word[len(word) // 2 + 1:])
        cap = half * rng.uniform(0.18, 0.3)
        masks = [text_mask(str(rng.choice(("dejavu_sans_bold", "liberation_sans_bold"))), t,
                           cap, 0.2)[0] for t in lines]
        y = c - (len(masks) * cap * 1.5) / 2
        strength = float(rng.uniform(0.35, 1.0))
        for m in masks:
            _paint(img, m, ink, int(c - m.shape[1] / 2), int(y), strength)
            y += cap * 1.5
    elif style.blank_mark == "spaced":
        # An association's name as widely spaced capitals over the whole face, each letter on
        # its own: across, down one side, or across then down (NAS over a column of P, A).
        word = "".join(rng.choice(list("ABCDEFGHKLMNPRSTW"), rng.integers(4, 7)))
        split = int(rng.integers(2, len(word))) if rng.random() < 0.6 else len(word)
        across = rng.random() < 0.75 or split < len(word)
        spots = [(i, 0) if across else (0, i) for i in range(split)]
        spots += [(split - 1, k + 1) for k in range(len(word) - split)]
        cols, rows = max(a for a, _ in spots) + 1, max(b for _, b in spots) + 1
        cap = half * rng.uniform(0.22, 0.36)
        step = min(cap * rng.uniform(1.3, 1.9), 1.45 * half / max(cols, rows, 2))
        cap = min(cap, step / 1.2)
        x0 = c - (cols - 1) * step / 2 + rng.normal(0, 0.08 * half)
        y0 = c - (rows - 1) * step / 2 + rng.normal(0, 0.08 * half)
        font = str(rng.choice(("dejavu_sans_bold", "liberation_sans", "urw_gothic_demi")))
        strength = float(rng.uniform(0.45, 1.0))
        for ch, (a, b) in zip(word, spots, strict=True):
            m, _ = text_mask(font, ch, cap)
            _paint(img, m, ink, int(x0 + a * step - m.shape[1] / 2),
                   int(y0 + b * step - m.shape[0] / 2), strength)
    elif style.blank_mark == "shield":
        # A crest: a shield outline with a band across it and a short name knocked out of the
        # band, most of the face wide (a club's or a maker's emblem).
        big = 4 * px
        mask = np.zeros((big, big), np.uint8)
        w, h = half * rng.uniform(0.9, 1.3) * 4, half * rng.uniform(1.0, 1.4) * 4
        cx, cy = big / 2 + rng.normal(0, 0.05 * half * 4, 2)
        top, shoulder = cy - h / 2, cy + h * rng.uniform(0.0, 0.2)
        outline = np.array([(cx - w / 2, top), (cx + w / 2, top), (cx + w / 2, shoulder),
                            (cx + w * 0.25, cy + h * 0.38), (cx, cy + h / 2),
                            (cx - w * 0.25, cy + h * 0.38), (cx - w / 2, shoulder)], np.int32)
        cv2.polylines(mask, [outline], True, 255, max(3, int(w / 14)), cv2.LINE_AA)
        band = (int(cx - w / 2), int(cy - h * 0.16), int(cx + w / 2), int(cy + h * 0.06))
        cv2.rectangle(mask, band[:2], band[2:], 255, -1)
        word = "".join(rng.choice(list("ABCDEFGHKLMNPRSTW"), rng.integers(3, 6)))
        text, _ = text_mask("dejavu_sans_bold", word, (band[3] - band[1]) * 0.6)
        tw = min(text.shape[1], int(w * 0.8))
        text = cv2.resize(text, (tw, text.shape[0]))
        ty, tx = (band[1] + band[3]) // 2 - text.shape[0] // 2, int(cx) - tw // 2
        region = mask[ty:ty + text.shape[0], tx:tx + tw]
        region[:] = np.minimum(region, 255 - text[:region.shape[0], :region.shape[1]])
        mask = cv2.resize(mask, (px, px), interpolation=cv2.INTER_AREA)
        _paint(img, mask, ink, 0, 0, float(rng.uniform(0.6, 1.0)))
    elif style.blank_mark == "badge":
        # A small solid emblem off the centre, often turned: a square, diamond or disc towards
        # one edge of the face, most with a pale stroke across it.
        big = 4 * px
        mask = np.zeros((big, big), np.uint8)
        r = half * rng.uniform(0.18, 0.32) * 4
        off = half * rng.uniform(0.25, 0.5) * 4
        a = rng.uniform(0, 2 * np.pi)
        cx, cy = big / 2 + off * np.cos(a), big / 2 + off * np.sin(a)
        shape = rng.integers(3)
        if shape == 2:
            cv2.circle(mask, (int(cx), int(cy)), int(r), 255, -1, cv2.LINE_AA)
        else:
            turn = rng.uniform(-0.6, 0.6) + (np.pi / 4 if shape == 1 else 0)
            corners = [(cx + r * 1.2 * np.cos(turn + k * np.pi / 2 + np.pi / 4),
                        cy + r * 1.2 * np.sin(turn + k * np.pi / 2 + np.pi / 4)) for k in range(4)]
            cv2.fillConvexPoly(mask, np.array(corners, np.int32), 255, cv2.LINE_AA)
        if rng.random() < 0.7:  # a pale stroke across it
            stroke = np.zeros_like(mask)
            cv2.line(stroke, (int(cx - r * 0.5), int(cy + r * 0.3)), (int(cx + r * 0.5),
                     int(cy - r * 0.3)), 255, max(2, int(r / 4)), cv2.LINE_AA)
            mask = np.minimum(mask, 255 - stroke // 2)
        mask = cv2.resize(mask, (px, px), interpolation=cv2.INTER_AREA)
        _paint(img, mask, ink, 0, 0, float(rng.uniform(0.6, 1.0)))
    elif style.blank_mark == "faint":
        text, _ = text_mask("dejavu_sans", "BLANK" if rng.random() < 0.5 else "ABC", half * 0.25)
        _paint(img, text, ink, int(c - text.shape[1] / 2), int(c - text.shape[0] / 2),
               float(rng.uniform(0.15, 0.4)))


@lru_cache(maxsize=2048)
def tile_face(style: TileStyle, face: str, value: int, px: int) -> tuple[np.ndarray, np.ndarray]:
    """The top of a tile seen straight on, in a px x px square: (BGR uint8, alpha uint8).

    face is 'A'-'Z' or '?' for a blank (value ignored). Drawn lit from the top left; the scene
    adds its own lighting. Deterministic for a given style, face and size.
    """
    rng = np.random.default_rng([px, ord(face), zlib.crc32(repr(style).encode())])
    half = style.face_frac * px / 2
    sdf = rounded_rect_sdf(px, half, style.corner * 2 * half)
    alpha = np.clip(0.5 - sdf, 0, 1)
    img = np.empty((px, px, 3), np.float32)
    img[:] = style.face
    if style.grain > 0:
        img *= _grain(rng, px, style.grain)[..., None]
    # Rounded edge: bright towards the light (top left), dark away from it.
    c = (px - 1) / 2
    coords = np.arange(px, dtype=np.float32) - c
    dx, dy = np.broadcast_to(coords[None, :], (px, px)), np.broadcast_to(coords[:, None], (px, px))
    normal_dot = np.where(np.abs(dx) > np.abs(dy), -np.sign(dx), -np.sign(dy))
    edge = np.clip(1 + sdf / (0.14 * half), 0, 1) ** 1.5
    img += (style.bevel * 70 * edge * normal_dot)[..., None]
    sheen = np.exp(-(((dx + dy) / (1.4 * half) + 0.4) ** 2) * 3)
    img += (style.gloss * 45 * sheen)[..., None]
    if face == "?":
        _draw_blank_mark(img, style, half, rng)
    else:
        _draw_letter(img, style, face, value, half)
    bgr = np.clip(img, 0, 255).astype(np.uint8)
    return bgr, (alpha * 255).astype(np.uint8)


def _draw_letter(img: np.ndarray, style: TileStyle, face: str, value: int, half: float) -> None:
    px = img.shape[0]
    c = (px - 1) / 2
    cap = style.letter_scale * 2 * half
    letter, base = text_mask(style.font, face, cap)
    letter = _lettered(letter, style, face, cap)
    digits, dbase = text_mask(style.value_font, str(value), cap * style.value_scale, 0.05)
    gap = 0.05 * half
    if style.value_tucked:
        group = letter.shape[1] + gap + digits.shape[1] * 0.6
        lx = c - group / 2
        ly = c + cap / 2 + 0.04 * half  # baseline
        vx = lx + letter.shape[1] + gap
        vy = ly + digits.shape[0] * 0.3
        vx = min(vx, c + half * 0.93 - digits.shape[1])
        vy = min(vy, c + half * 0.9)
    else:
        lx = c - letter.shape[1] / 2 - 0.06 * half
        ly = c + cap / 2 - 0.02 * half
        vx = c + half * 0.88 - digits.shape[1]
        vy = c + half * 0.86
    if not style.values:  # the letter alone, in the middle
        lx, ly = c - letter.shape[1] / 2, c + cap / 2
    _paint(img, letter, style.ink, round(lx), round(ly - base))
    if style.values:
        _paint(img, digits, style.value_ink, round(vx), round(vy - dbase))


def _lettered(mask: np.ndarray, style: TileStyle, face: str, cap: float) -> np.ndarray:
    """The letter's mask with the set's stroke weight, and for hand-lettered sets a lean, a
    squash and a wobble of its own (the same for every tile of that letter in the set)."""
    if style.weight:
        k = max(1, round(abs(style.weight) * cap))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        pad = cv2.copyMakeBorder(mask, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
        grown = cv2.dilate(pad, kernel) if style.weight > 0 else cv2.erode(pad, kernel)
        mask = grown if style.weight > 0 else grown[k:-k, k:-k]
    if not style.hand:
        return mask
    rng = np.random.default_rng([ord(face), zlib.crc32(repr(style).encode())])
    h, w = mask.shape
    pad = max(h, w) // 3
    big = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    n = big.shape[0]
    lean = np.radians(rng.normal(0, 6 * style.hand))
    m = cv2.getRotationMatrix2D((big.shape[1] / 2, n / 2), np.degrees(lean), 1.0)
    m[0, :2] *= 1 + rng.normal(0, 0.12 * style.hand)
    m[0, 1] += rng.normal(0, 0.15 * style.hand)
    big = cv2.warpAffine(big, m, (big.shape[1], n), flags=cv2.INTER_LINEAR)
    flow = cv2.resize(rng.normal(0, 1, (2, 3, 3)).transpose(1, 2, 0).astype(np.float32),
                      (big.shape[1], n), interpolation=cv2.INTER_CUBIC) * (0.04 * cap * style.hand)
    gx, gy = np.meshgrid(np.arange(big.shape[1], dtype=np.float32),
                         np.arange(n, dtype=np.float32))
    big = cv2.remap(big, gx + flow[..., 0], gy + flow[..., 1], cv2.INTER_LINEAR)
    ys, xs = np.nonzero(big > 20)
    return big[ys.min():ys.max() + 1, xs.min():xs.max() + 1] if len(ys) else mask


def _shifted(a: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """a translated by whole pixels, zero filled."""
    out = np.zeros_like(a)
    h, w = a.shape
    if abs(dx) >= w or abs(dy) >= h:
        return out
    out[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = \
        a[max(-dy, 0):h + min(-dy, 0), max(-dx, 0):w + min(-dx, 0)]
    return out


@dataclass(frozen=True)
class TileDraw:
    """One tile to stand on a board-plane canvas.

    centre: its base centre in canvas pixels; angle: its turn in its square (degrees); lift: where
    its top face appears relative to its base (pixels), the parallax of its height under a tilted
    camera, which also exposes its edge.
    """

    sprite: np.ndarray  # BGRA face, from tile_bgra
    centre: tuple[float, float]
    angle: float
    lift: tuple[float, float]


@lru_cache(maxsize=2048)
def tile_bgra(style: TileStyle, face: str, value: int, px: int) -> np.ndarray:
    """tile_face packed as one BGRA image, the form draw_tiles warps."""
    return np.dstack(tile_face(style, face, value, px))


def _sweep(base: np.ndarray, lift: tuple[float, float]) -> np.ndarray:
    """base dilated along the segment from 0 to lift: the tile's body from foot to top."""
    dx, dy = round(lift[0]), round(lift[1])
    if dx == 0 and dy == 0:
        return base
    kernel = np.zeros((2 * abs(dy) + 1, 2 * abs(dx) + 1), np.uint8)
    # dilate reflects the kernel: marking the segment towards -lift moves ink towards +lift.
    cv2.line(kernel, (abs(dx), abs(dy)), (abs(dx) - dx, abs(dy) - dy), 1, 1)
    return cv2.dilate(base, kernel)


def _layers(t: TileDraw, shape: tuple[int, ...]) -> tuple[tuple[slice, slice], np.ndarray,
                                                           np.ndarray] | None:
    """Canvas window and, inside it, the tile's body mask (base swept to top) and its top BGRA."""
    px = t.sprite.shape[0]
    reach = px * 0.72 + max(abs(t.lift[0]), abs(t.lift[1])) + 2
    x0, y0 = max(int(t.centre[0] - reach), 0), max(int(t.centre[1] - reach), 0)
    x1 = min(int(t.centre[0] + reach) + 1, shape[1])
    y1 = min(int(t.centre[1] + reach) + 1, shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    size = (x1 - x0, y1 - y0)
    m = cv2.getRotationMatrix2D(((px - 1) / 2, (px - 1) / 2), t.angle, 1.0)
    m[:, 2] += np.array(t.centre) - (px - 1) / 2 - (x0, y0)
    base = cv2.warpAffine(t.sprite[..., 3], m, size, flags=cv2.INTER_LINEAR)
    m[:, 2] += t.lift
    top = cv2.warpAffine(t.sprite, m, size, flags=cv2.INTER_LINEAR)
    return (slice(y0, y1), slice(x0, x1)), _sweep(base, t.lift), top


def draw_tiles(canvas: np.ndarray, style: TileStyle, tiles: list[TileDraw],
               shadow: tuple[float, float, float]) -> None:
    """Stand tiles on a board-plane canvas (uint8 BGR, modified in place), in the given order
    (farthest from the camera first), after darkening the canvas with their shadows.

    shadow: (dx, dy, softness) in pixels, shared by all tiles (one light).
    """
    layers = [lay for t in tiles if (lay := _layers(t, canvas.shape)) is not None]
    if not layers:
        return
    union = np.zeros(canvas.shape[:2], np.uint8)
    for win, body, _ in layers:
        np.maximum(union[win], body, out=union[win])
    shade = _shifted(union, round(shadow[0]), round(shadow[1]))
    if shadow[2] > 0.3:  # blurred at quarter resolution: a soft shadow has no fine detail
        h, w = shade.shape
        small = cv2.resize(shade, ((w + 3) // 4, (h + 3) // 4), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), max(shadow[2] / 4, 0.3))
        shade = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(shade[::4, ::4])
    if len(ys):
        win = np.s_[max(ys.min() * 4 - 4, 0):ys.max() * 4 + 5,
                    max(xs.min() * 4 - 4, 0):xs.max() * 4 + 5]
        dark = shade[win].astype(np.float32) * (0.55 / 255)
        canvas[win] = cv2.blendLinear(canvas[win], np.zeros_like(canvas[win]), 1 - dark, dark)
    side = np.empty(canvas.shape, np.uint8)
    side[:] = style.side
    for win, body, top in layers:
        a = body.astype(np.float32) * (1 / 255)
        out = cv2.blendLinear(side[win], canvas[win], a, 1 - a)
        a = top[..., 3].astype(np.float32) * (1 / 255)
        canvas[win] = cv2.blendLinear(cv2.cvtColor(top, cv2.COLOR_BGRA2BGR), out, a, 1 - a)
