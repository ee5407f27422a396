"""A hand and forearm seen from above, reaching to a point: drawn straight into the image, since it
floats above the board, and returned as a mask so truth can say what it hides."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .degrade import motion_kernel

# Skin tones from very light to very dark (BGR), and sleeve cloth colours.
SKIN_TONES = ((170, 195, 235), (150, 180, 225), (120, 160, 215), (105, 145, 200),
              (85, 125, 180), (70, 105, 160), (55, 85, 135), (40, 60, 100), (35, 50, 80))
SLEEVES = ((30, 30, 30), (200, 200, 200), (120, 60, 20), (40, 40, 140), (60, 110, 60),
           (150, 150, 150), (90, 60, 120), (20, 70, 120), (235, 235, 235), (50, 50, 80))


@dataclass(frozen=True)
class HandLook:
    """Who reaches in: skin, sleeve and proportions (in board squares)."""

    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    cuff: float  # how far up the forearm the sleeve ends (0 = at the wrist), squares
    size: float  # overall scale, 1 = an average adult hand
    spread: float  # how far the curled fingers fan out, radians
    left: bool  # a left hand (thumb on the other side)
    watch: bool = False  # a watch or bracelet on the wrist


def draw_hand_look(rng: np.random.Generator) -> HandLook:
    skin = np.asarray(SKIN_TONES[rng.integers(len(SKIN_TONES))], float) + rng.normal(0, 7, 3)
    sleeve = None
    if rng.random() < 0.65:
        sleeve = tuple(int(v) for v in np.clip(
            np.asarray(SLEEVES[rng.integers(len(SLEEVES))]) + rng.normal(0, 12, 3), 0, 255))
    return HandLook(
        skin=tuple(int(v) for v in np.clip(skin, 0, 255)),  # type: ignore[arg-type]
        sleeve=sleeve,  # type: ignore[arg-type]
        cuff=float(rng.uniform(1.5, 6)), size=float(rng.uniform(0.85, 1.15)),
        spread=float(rng.uniform(0.05, 0.35)), left=bool(rng.random() < 0.15),
        watch=bool(rng.random() < 0.15),
    )


@dataclass(frozen=True)
class HandLayers:
    """Full-image uint8 masks of one hand."""

    skin: np.ndarray
    sleeve: np.ndarray
    crease: np.ndarray  # outlines between fingers and palm, drawn darker
    nails: np.ndarray  # fingernails, drawn lighter
    band: np.ndarray  # a watch strap


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(p[0] * 4)), int(round(p[1] * 4))


def _finger(layers: HandLayers, root: np.ndarray, joint: np.ndarray, tip: np.ndarray,
            width: float, nail: bool) -> None:
    """A finger in two tapered segments, its outline into the crease layer."""
    for a, b, w in ((root, joint, width), (joint, tip, width * 0.85)):
        cv2.line(layers.crease, _pt(a), _pt(b), 255, max(1, round(w + 2)), cv2.LINE_AA, 2)
        cv2.line(layers.crease, _pt(a), _pt(b), 0, max(1, round(w - 1)), cv2.LINE_AA, 2)
        cv2.line(layers.skin, _pt(a), _pt(b), 255, max(1, round(w)), cv2.LINE_AA, 2)
    if nail:
        d = tip - joint
        d /= np.linalg.norm(d) + 1e-9
        c = tip - d * width * 0.3
        axes = (max(1, int(width * 0.22 * 4)), max(1, int(width * 0.3 * 4)))
        ang = float(np.degrees(np.arctan2(d[1], d[0])))
        cv2.ellipse(layers.nails, _pt(c), (axes[1], axes[0]), ang, 0, 360, 255, -1, cv2.LINE_AA,
                    2)


def hand_layers(look: HandLook, shape: tuple[int, int], tip: tuple[float, float],
                toward: tuple[float, float], square: float) -> HandLayers:
    """Masks of a hand seen from above whose index fingertip is at tip and whose arm comes from
    the direction of `toward` (an image point, usually past an edge).

    square is the size of a board square in image pixels, which sets the hand's size.
    """
    s = square * look.size
    p = np.asarray(tip, float)
    u = p - np.asarray(toward, float)
    u /= np.linalg.norm(u) + 1e-9
    n = np.array([-u[1], u[0]]) * (-1 if look.left else 1)
    layers = HandLayers(*(np.zeros(shape, np.uint8) for _ in range(5)))
    palm_c = p - u * 5.2 * s
    wrist = palm_c - u * 2.3 * s
    elbow = wrist - u * 40 * s
    # Forearm: a tapered band from far past the edge down to the wrist.
    arm = np.array([elbow + n * 2.2 * s, wrist + n * 1.5 * s, wrist - n * 1.5 * s,
                    elbow - n * 2.2 * s])
    cv2.fillPoly(layers.skin, [np.round(arm * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    ang = float(np.degrees(np.arctan2(u[1], u[0])))
    cv2.ellipse(layers.skin, _pt(palm_c), (int(2.6 * s * 4), int(2.05 * s * 4)), ang, 0, 360,
                255, -1, cv2.LINE_AA, 2)
    # Index finger to the tip, thumb pinching beside it, the others curled under the palm.
    knuckle = palm_c + u * 2.2 * s
    root = knuckle + n * 0.9 * s
    _finger(layers, root, root + (p - root) * 0.5 + n * 0.15 * s, p, 0.9 * s, True)
    thumb_root = palm_c - n * 1.5 * s
    thumb_tip = p - n * 0.55 * s - u * 0.35 * s
    _finger(layers, thumb_root, (thumb_root + thumb_tip) / 2 - n * 0.4 * s, thumb_tip, 1.0 * s,
            True)
    for i, off in enumerate((0.0, -0.9, -1.7)):
        base = knuckle + n * off * s
        bend = u * (1.3 - 0.15 * i) * s + n * (-look.spread * (i + 1)) * s
        _finger(layers, base, base + bend * 0.6, base + bend - n * 0.2 * s, 0.85 * s, False)
    if look.watch:
        cv2.line(layers.band, _pt(wrist - u * 1.2 * s - n * 1.7 * s),
                 _pt(wrist - u * 1.2 * s + n * 1.7 * s), 255, max(1, round(0.7 * s)),
                 cv2.LINE_AA, 2)
    if look.sleeve is not None:
        cuff = wrist - u * look.cuff * s
        band = np.array([elbow + n * 2.6 * s, cuff + n * 2.0 * s, cuff - n * 2.0 * s,
                         elbow - n * 2.6 * s])
        cv2.fillPoly(layers.sleeve, [np.round(band * 4).astype(np.int32)], 255, cv2.LINE_AA,
                     shift=2)
    return layers


def paint_hand(img: np.ndarray, look: HandLook, layers: HandLayers,
               motion: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Composite a hand onto img (uint8 BGR, in place) with rounded shading, creases, nails and
    optional motion blur (dx, dy in pixels); returns the coverage mask actually drawn.

    Colour is worked out at half resolution: a hand has no fine detail and is rarely sharp.
    """
    cover = np.maximum(layers.skin, layers.sleeve)
    ys, xs = np.nonzero(cover[::4, ::4])
    if len(ys) == 0:
        return cover
    pad = int(abs(motion[0]) + abs(motion[1])) + 8
    y0, y1 = max(ys.min() * 4 - pad, 0), min(ys.max() * 4 + pad + 4, img.shape[0])
    x0, x1 = max(xs.min() * 4 - pad, 0), min(xs.max() * 4 + pad + 4, img.shape[1])
    y1, x1 = y0 + (y1 - y0) // 2 * 2, x0 + (x1 - x0) // 2 * 2
    roi = np.s_[y0:y1, x0:x1]
    half = (max(1, (x1 - x0) // 2), max(1, (y1 - y0) // 2))

    def small(m: np.ndarray) -> np.ndarray:
        return cv2.resize(m[roi], half, interpolation=cv2.INTER_AREA).astype(np.float32) / 255

    c, sl, cr = small(cover), small(layers.sleeve), small(layers.crease)
    dist = cv2.distanceTransform((c > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.6 + 0.4 * np.sqrt(np.clip(dist / max(2.0, 0.6 * float(dist.max())), 0, 1))
    colour = np.empty(c.shape + (3,), np.float32)
    colour[:] = look.skin
    colour *= (1 - 0.3 * cr)[..., None]
    colour += (small(layers.nails) * 45)[..., None]
    if look.watch:
        b = small(layers.band)[..., None]
        colour = colour * (1 - b) + np.float32([40, 40, 45]) * b
    if look.sleeve is not None:
        colour = colour * (1 - sl[..., None]) + np.asarray(look.sleeve, np.float32) * sl[..., None]
    colour *= shade[..., None]
    alpha = c
    if abs(motion[0]) + abs(motion[1]) >= 4:
        k = motion_kernel(float(np.hypot(*motion)) / 2,
                          float(np.degrees(np.arctan2(motion[1], motion[0]))))
        colour = cv2.filter2D(colour * alpha[..., None], -1, k)
        alpha = cv2.filter2D(alpha, -1, k)
        colour /= np.maximum(alpha, 1e-3)[..., None]
    size = (x1 - x0, y1 - y0)
    alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_LINEAR)
    colour = cv2.resize(np.clip(colour, 0, 255).astype(np.uint8), size,
                        interpolation=cv2.INTER_LINEAR)
    img[roi] = cv2.blendLinear(colour, img[roi], alpha, 1 - alpha)
    cover = cover.copy()
    cover[roi] = (alpha * 255).astype(np.uint8)
    return cover


def cast_shadow(img: np.ndarray, cover: np.ndarray, offset: tuple[float, float], soft: float,
                strength: float) -> None:
    """Darken img (in place) under the shadow of a mask displaced by offset (pixels) and blurred
    by soft (pixels); worked at quarter resolution since a shadow has no fine detail."""
    h, w = cover.shape
    small = cv2.resize(cover, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    m = np.float32([[1, 0, offset[0] / 4], [0, 1, offset[1] / 4]])
    small = cv2.warpAffine(small, m, (w // 4, h // 4))
    if soft > 2:
        small = cv2.GaussianBlur(small, (0, 0), soft / 4)
    ys, xs = np.nonzero(small > 2)
    if len(ys) == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    win = np.s_[y0 * 4:y1 * 4, x0 * 4:x1 * 4]
    part = cv2.resize(small[y0:y1, x0:x1], ((x1 - x0) * 4, (y1 - y0) * 4),
                      interpolation=cv2.INTER_LINEAR)
    dark = part.astype(np.float32) * (strength / 255)
    img[win] = cv2.blendLinear(img[win], np.zeros_like(img[win]), 1 - dark, dark)
