"""Camera and transmission damage shared by frames and cell crops: colour cast, exposure, uneven
light, glare, defocus and motion blur, sensor noise, JPEG compression."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Damage:
    """One draw of imaging conditions; pixel sizes are for the image they are applied to."""

    gains: tuple[float, float, float]  # per channel (B, G, R): white balance and exposure
    gamma: float
    ramp: tuple[float, float, float]  # brightness slope in x and y (per image width), offset
    glare: tuple[float, float, float, float]  # x, y (fractions), radius (fraction), strength
    defocus: float  # Gaussian sigma, pixels
    motion: tuple[float, float]  # length in pixels, angle in degrees
    noise: float  # sigma in grey levels
    jpeg: int  # quality, 0 for none
    glare_grain: float = 0.0  # how much the surface's texture breaks the glare up (0: smooth)


def draw_damage(rng: np.random.Generator, scale: float = 1.0) -> Damage:
    """Random conditions; scale converts the blur sizes to the target image's resolution."""
    warm = rng.uniform(-1, 1)
    exposure = rng.uniform(0.65, 1.3)
    gains = exposure * np.clip(rng.normal(1, 0.05, 3) + np.array([-0.12, 0, 0.12]) * warm,
                               0.6, 1.4)
    glare = (rng.uniform(), rng.uniform(), rng.uniform(0.2, 0.8), rng.uniform(20, 110)) \
        if rng.random() < 0.2 else (0.0, 0.0, 0.0, 0.0)
    return Damage(
        gains=tuple(float(g) for g in gains),  # type: ignore[arg-type]
        gamma=float(rng.uniform(0.8, 1.25)),
        ramp=(float(rng.normal(0, 0.15)), float(rng.normal(0, 0.15)), 0.0),
        glare=glare, glare_grain=float(rng.uniform(0.3, 0.9)) if rng.random() < 0.4 else 0.0,
        defocus=float(rng.uniform(0.3, 1.1) * scale if rng.random() < 0.55 else 0.0),
        motion=(float(rng.uniform(2, 7) * scale) if rng.random() < 0.15 else 0.0,
                float(rng.uniform(0, 180))),
        noise=float(rng.uniform(0, 8)),
        jpeg=int(rng.integers(25, 95)) if rng.random() < 0.75 else 0,
    )


def motion_kernel(length: float, angle: float) -> np.ndarray:
    k = int(np.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1,
             cv2.LINE_AA)
    return kernel / kernel.sum()


def light(img: np.ndarray, d: Damage) -> np.ndarray:
    """Colour cast, exposure, gamma, uneven light and glare; returns float32 in 0..255."""
    h, w = img.shape[:2]
    f = img.astype(np.float32) * np.asarray(d.gains, np.float32)
    x = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    y = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None] * (h / w)
    f *= (1 + d.ramp[0] * x + d.ramp[1] * y + d.ramp[2])[..., None]
    if d.glare[3] > 0:
        gx, gy, gr, gs = d.glare
        blob = np.exp(-((x - gx + 0.5) ** 2 + (y - (gy - 0.5) * h / w) ** 2) / (gr * gr * 0.5))
        if d.glare_grain > 0:  # a glossy surface's reflection shows its texture
            rng = np.random.default_rng(int(gx * 1e6))
            grain = cv2.resize(rng.normal(0, 1, (max(2, h // 3), max(2, w // 3))).astype(
                np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
            blob = blob * np.clip(1 + d.glare_grain * grain, 0, 2)
        f += (gs * blob)[..., None]
    np.clip(f, 0, 255, out=f)
    if abs(d.gamma - 1) > 0.01:
        f = 255 * (f / 255) ** d.gamma
    return f


def blur(img: np.ndarray, d: Damage) -> np.ndarray:
    if d.defocus > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), d.defocus)
    if d.motion[0] >= 2:
        img = cv2.filter2D(img, -1, motion_kernel(*d.motion))
    return img


def sensor(img: np.ndarray, d: Damage, rng: np.random.Generator) -> np.ndarray:
    """Noise and JPEG round trip; float in, uint8 out."""
    if d.noise > 0.5:
        img = img + rng.normal(0, d.noise, img.shape[:2] + (1,)).astype(np.float32) \
            + rng.normal(0, d.noise * 0.4, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if d.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, d.jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
