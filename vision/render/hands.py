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
    )


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, width: float, value: int = 255
             ) -> None:
    cv2.line(mask, tuple(np.round(a * 4).astype(int)), tuple(np.round(b * 4).astype(int)), value,
             max(1, round(width)), cv2.LINE_AA, shift=2)


def hand_layers(look: HandLook, shape: tuple[int, int], tip: tuple[float, float],
                toward: tuple[float, float], square: float) -> tuple[np.ndarray, np.ndarray]:
    """Masks (uint8, full image) of skin and sleeve for a hand whose fingertips are at tip and
    whose arm comes from the direction of `toward` (an image point, usually past an edge).

    square is the size of a board square in image pixels, which sets the hand's size.
    """
    s = square * look.size
    p = np.asarray(tip, float)
    u = p - np.asarray(toward, float)
    u /= np.linalg.norm(u) + 1e-9
    n = np.array([-u[1], u[0]]) * (-1 if look.left else 1)
    skin = np.zeros(shape, np.uint8)
    palm_c = p - u * 5.2 * s
    wrist = palm_c - u * 2.3 * s
    elbow = wrist - u * 40 * s
    # Forearm: a tapered band from far past the edge down to the wrist.
    arm = np.array([elbow + n * 2.2 * s, wrist + n * 1.5 * s, wrist - n * 1.5 * s,
                    elbow - n * 2.2 * s])
    cv2.fillPoly(skin, [np.round(arm * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    axes = (int(2.6 * s * 4), int(2.05 * s * 4))
    ang = np.degrees(np.arctan2(u[1], u[0]))
    cv2.ellipse(skin, tuple(np.round(palm_c * 4).astype(int)), axes, ang, 0, 360, 255, -1,
                cv2.LINE_AA, shift=2)
    # Index finger to the tip, thumb pinching beside it, the others curled under the palm.
    knuckle = palm_c + u * 2.2 * s
    _capsule(skin, knuckle + n * 0.9 * s, p, 0.95 * s)
    _capsule(skin, palm_c - n * 1.6 * s, p - n * 0.5 * s - u * 0.3 * s, 1.05 * s)
    for i, off in enumerate((0.0, -0.9, -1.7)):
        bend = u * (2.0 - 0.35 * i) * s + n * (off - look.spread * (i + 1)) * s
        _capsule(skin, knuckle + n * off * s, knuckle + n * off * s + bend, 0.9 * s)
    sleeve = np.zeros(shape, np.uint8)
    if look.sleeve is not None:
        cuff = wrist - u * look.cuff * s
        band = np.array([elbow + n * 2.6 * s, cuff + n * 2.0 * s, cuff - n * 2.0 * s,
                         elbow - n * 2.6 * s])
        cv2.fillPoly(sleeve, [np.round(band * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    return skin, sleeve


def paint_hand(img: np.ndarray, look: HandLook, skin: np.ndarray, sleeve: np.ndarray,
               motion: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Composite a hand's layers onto img (uint8 BGR, in place) with rounded shading and optional
    motion blur (dx, dy in pixels); returns the combined coverage mask actually drawn."""
    cover = np.maximum(skin, sleeve)
    ys, xs = np.nonzero(cover[::4, ::4])
    if len(ys) == 0:
        return cover
    pad = int(abs(motion[0]) + abs(motion[1])) + 8
    y0, y1 = max(ys.min() * 4 - pad, 0), min(ys.max() * 4 + pad + 4, img.shape[0])
    x0, x1 = max(xs.min() * 4 - pad, 0), min(xs.max() * 4 + pad + 4, img.shape[1])
    roi = np.s_[y0:y1, x0:x1]
    c = cover[roi]
    # Rounded-body shading: brighter along the middle of each limb, darker at its outline.
    small = cv2.resize(c, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    dist = cv2.distanceTransform((small > 127).astype(np.uint8), cv2.DIST_L2, 3)
    dist = cv2.resize(dist, (c.shape[1], c.shape[0]), interpolation=cv2.INTER_LINEAR)
    shade = 0.62 + 0.38 * np.sqrt(np.clip(dist / 3.5, 0, 1))
    colour = np.empty(c.shape + (3,), np.float32)
    colour[:] = look.skin
    if look.sleeve is not None:
        sl = sleeve[roi].astype(np.float32)[..., None] / 255
        colour = colour * (1 - sl) + np.asarray(look.sleeve, np.float32) * sl
    colour *= shade[..., None]
    alpha = c.astype(np.float32) / 255
    if abs(motion[0]) + abs(motion[1]) >= 2:
        k = motion_kernel(float(np.hypot(*motion)), float(np.degrees(np.arctan2(motion[1],
                                                                                 motion[0]))))
        colour = cv2.filter2D(colour * alpha[..., None], -1, k)
        alpha = cv2.filter2D(alpha, -1, k)
        colour /= np.maximum(alpha, 1e-3)[..., None]
    a = alpha[..., None]
    img[roi] = np.clip(img[roi] * (1 - a) + colour * a, 0, 255).astype(np.uint8)
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
