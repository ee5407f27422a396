"""Things between the scene and the viewer: a large soft shadow (a person or lamp between the light
and the table) and what the streaming app or broadcast draws on top (watermark, score bar)."""

from __future__ import annotations

import cv2
import numpy as np

from .glyphs import text_mask

WATERMARKS = ("CAM", "WEBCAM", "LIVE", "STREAM", "IVCAM", "DROIDCAM", "REC")
NAMES = ("ALICE", "BOB", "NIGEL", "MACK", "WELLINGTON", "ADAM", "DAVID", "JOEL", "HARSHAN")


def big_shadow(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A brightness factor field (float32, HxW) with a broad soft shadow."""
    width, height = size
    mask = np.zeros((height // 8, width // 8), np.float32)
    c = rng.uniform(0, 1, 2) * (width // 8, height // 8)
    axes = rng.uniform(0.15, 0.5, 2) * (width // 8)
    cv2.ellipse(mask, (int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])),
                float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    if rng.random() < 0.5:  # a shoulder or arm reaching from the edge
        edge = rng.integers(4)
        x0, y0 = int(c[0]), int(c[1])
        x1, y1 = {0: (x0, 0), 1: (width // 8, y0), 2: (x0, height // 8), 3: (0, y0)}[edge]
        cv2.line(mask, (x0, y0), (x1, y1), 1.0, int(axes[1]))
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(3, 12))
    field = 1 - rng.uniform(0.15, 0.45) * mask
    return cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR)


def overlay(rng: np.random.Generator, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A watermark or a broadcast score bar in final-image coordinates: (BGR, alpha)."""
    width, height = size
    kind = rng.random()
    bgr = np.zeros((height, width, 3), np.uint8)
    alpha = np.zeros((height, width), np.uint8)
    if kind < 0.65:
        text, _ = text_mask("dejavu_sans_bold", str(rng.choice(WATERMARKS)),
                            height * rng.uniform(0.025, 0.05))
        x = int(rng.uniform(0.01, 0.04) * width)
        y = int(rng.uniform(0.02, 0.06) * height)
        if rng.random() < 0.5:
            x = width - x - text.shape[1]
        if rng.random() < 0.3:
            y = height - y - text.shape[0]
        bgr[:] = 250
        alpha[y:y + text.shape[0], x:x + text.shape[1]] = (text * rng.uniform(0.6, 0.95)).astype(
            np.uint8)
    else:
        bar = int(height * rng.uniform(0.07, 0.12))
        x0, x1 = sorted((rng.uniform(0, 0.3) * width, rng.uniform(0.6, 1.0) * width))
        y0 = height - bar - int(rng.uniform(0, 0.05) * height)
        bgr[:] = np.clip(rng.normal((60, 30, 20), 20), 0, 255)
        alpha[y0:y0 + bar, int(x0):int(x1)] = int(rng.uniform(170, 240))
        names = rng.choice(NAMES, 2, replace=False)
        line = f"{names[0]} {rng.integers(100, 500)}   {names[1]} {rng.integers(100, 500)}"
        text, _ = text_mask("liberation_sans_bold", line, bar * 0.4)
        text = text[:, :max(1, int(x1 - x0) - 20)]
        ty, tx = y0 + (bar - text.shape[0]) // 2, int(x0) + 10
        region = bgr[ty:ty + text.shape[0], tx:tx + text.shape[1]]
        a = text[..., None].astype(np.float32) / 255
        region[:] = (region * (1 - a) + 250 * a).astype(np.uint8)
        alpha[ty:ty + text.shape[0], tx:tx + text.shape[1]] = np.maximum(
            alpha[ty:ty + text.shape[0], tx:tx + text.shape[1]], text)
    return bgr, alpha
