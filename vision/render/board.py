"""Drawing the board seen straight on: squares with premium colours and printed labels, the centre
star, grid lines and the frame. Squares are cached per kind so that cell crops and full boards
share the same pixels."""

from __future__ import annotations

import zlib
from functools import lru_cache

import cv2
import numpy as np

from tilecast.engine.board import CENTRE, SIZE, premium_name

from .glyphs import text_mask
from .styles import LONG_LABELS, NUMERIC_LABELS, BoardStyle


def square_kind(row: int, col: int) -> str:
    """'TW', 'DW', 'TL', 'DL', '' for plain, or 'STAR' for the centre."""
    return "STAR" if (row, col) == CENTRE else premium_name(row, col)


def _fill(style: BoardStyle, kind: str) -> tuple[int, int, int]:
    return {"": style.plain, "STAR": style.centre, "TW": style.tw, "DW": style.dw,
            "TL": style.tl, "DL": style.dl}[kind]


def _label_mask(style: BoardStyle, kind: str, px: int) -> np.ndarray | None:
    if style.label_mode == "none" or kind in ("", "STAR"):
        return None
    lines = {"long": LONG_LABELS, "numeric": NUMERIC_LABELS}.get(style.label_mode, None)
    lines = lines[kind] if lines else (kind,)
    cap = {"long": 0.15, "short": 0.3, "numeric": 0.32}[style.label_mode] * style.label_size * px
    masks = [text_mask(style.label_font, t, cap, 0.08)[0] for t in lines]
    widest = max(m.shape[1] for m in masks)
    fit = min(1.0, 0.9 * px / widest)
    masks = [cv2.resize(m, (max(1, round(m.shape[1] * fit)), max(1, round(m.shape[0] * fit))),
                        interpolation=cv2.INTER_AREA) for m in masks]
    pitch = round(cap * fit * style.label_pitch)
    out = np.zeros((px, px), np.uint8)
    top = max(0, (px - pitch * (len(masks) - 1) - masks[0].shape[0]) // 2)
    for i, m in enumerate(masks):
        y, x = top + i * pitch, (px - m.shape[1]) // 2
        h, w = min(m.shape[0], px - y), min(m.shape[1], px - x)
        if h > 0 and w > 0:
            out[y:y + h, x:x + w] = np.maximum(out[y:y + h, x:x + w], m[:h, :w])
    return np.rot90(out, style.label_turn).copy()


def _star(px: int, points: int, size: float) -> np.ndarray:
    mask = np.zeros((px * 4, px * 4), np.uint8)
    ang = np.pi / 2 + np.arange(2 * points) * np.pi / points
    r = np.where(np.arange(2 * points) % 2 == 0, 1.0, 0.4) * px * 2 * size
    pts = np.stack([px * 2 + r * np.cos(ang), px * 2 - r * np.sin(ang)], 1)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)
    return cv2.resize(mask, (px, px), interpolation=cv2.INTER_AREA)


def _premium_alpha(style: BoardStyle, dist: np.ndarray, xx: np.ndarray, yy: np.ndarray,
                   inset: float, px: int) -> np.ndarray:
    """Coverage of a premium square's colour: the square inset, with rounded corners, or with
    a triangular tab on each side reaching out to the grid line (Deluxe boards)."""
    if style.premium_shape == "round":
        r = 0.18 * px
        c = (px / 2 - inset - r)
        qx, qy = np.abs(xx - px / 2) - c, np.abs(yy - px / 2) - c
        outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(
            np.maximum(qx, qy), 0) - r
        return np.clip(0.5 - outside, 0, 1)
    body = np.clip(dist - inset, 0, 1)
    if style.premium_shape != "tabs":
        return body
    inner = max(inset, 0.14 * px)
    body = np.clip(dist - inner, 0, 1)
    along = np.where(np.minimum(xx, px - xx) < np.minimum(yy, px - yy), yy, xx) - px / 2
    tab = np.clip(dist - (inner * (0.35 + 0.65 * np.abs(along) / (0.22 * px))), 0, 1)
    return np.maximum(body, tab * (dist > 0.5 * style.line_width * px))


@lru_cache(maxsize=512)
def square_image(style: BoardStyle, kind: str, px: int) -> np.ndarray:
    """One square as printed, with half a grid line on each side (BGR uint8, px x px)."""
    rng = np.random.default_rng([px, len(kind), zlib.crc32(repr(style).encode())])
    img = np.empty((px, px, 3), np.float32)
    img[:] = style.line
    lw = style.line_width * px / 2
    inset = lw + (style.inset * px if kind else 0)
    yy, xx = np.mgrid[0:px, 0:px].astype(np.float32) + 0.5
    dist = np.minimum(np.minimum(xx, px - xx), np.minimum(yy, px - yy))
    if style.ridge > 0:  # a raised grid catches light on its top-left faces
        side = np.where(np.minimum(xx, yy) < np.minimum(px - xx, px - yy), 1.0, -1.0)
        img += (style.ridge * 40 * side * (dist < lw))[..., None]
    a = np.clip(dist - lw, 0, 1)[..., None]
    img = img * (1 - a) + np.asarray(style.plain, np.float32) * a
    if kind:
        a = _premium_alpha(style, dist, xx, yy, inset, px)[..., None]
        img = img * (1 - a) + np.asarray(_fill(style, kind), np.float32) * a
    if kind == "STAR" and style.star_points:
        a = _star(px, style.star_points, style.star_size)[..., None].astype(np.float32) / 255
        img = img * (1 - a) + np.asarray(style.star, np.float32) * a
    label = _label_mask(style, kind, px)
    if label is not None:
        ink = style.label_ink[("TW", "DW", "TL", "DL").index(kind)]
        a = label[..., None].astype(np.float32) / 255
        img = img * (1 - a) + np.asarray(ink, np.float32) * a
    img += rng.normal(0, style.texture, (px, px, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def margin_px(style: BoardStyle, px: int) -> int:
    """Width of the frame and band around the 15x15 grid, in pixels."""
    return round((style.frame_width + style.band_width) * px)


def board_image(style: BoardStyle, px: int) -> np.ndarray:
    """The whole board, grid and frame, with squares px wide (BGR uint8). The grid starts at
    (margin_px, margin_px)."""
    m = margin_px(style, px)
    n = SIZE * px + 2 * m
    img = np.empty((n, n, 3), np.uint8)
    img[:] = style.frame
    rng = np.random.default_rng(zlib.crc32(repr(style).encode()))
    stripes = cv2.resize(rng.normal(0, 1, (1, 24)).astype(np.float32), (n, n))
    img[:] = np.clip(img + 10 * stripes[..., None], 0, 255).astype(np.uint8)
    b = m - round(style.band_width * px)
    img[b:n - b, b:n - b] = style.band
    if style.brand and b > px * 0.4:
        ink = (60, 190, 230) if sum(style.frame) < 300 else (30, 30, 30)
        text, _ = text_mask(style.label_font, style.brand, b * 0.45, 0.15)
        text = text[:, :n - 2 * b]
        x, y = (n - text.shape[1]) // 2, n - b + (b - text.shape[0]) // 2
        a = text[..., None].astype(np.float32) / 255
        img[y:y + text.shape[0], x:x + text.shape[1]] = (
            img[y:y + text.shape[0], x:x + text.shape[1]] * (1 - a) + np.asarray(ink) * a
        ).astype(np.uint8)
        if rng.random() < 0.5:  # the same on the far side, facing the other player
            img[:b] = np.rot90(img[n - b:], 2)
    for r in range(SIZE):
        for c in range(SIZE):
            img[m + r * px:m + (r + 1) * px, m + c * px:m + (c + 1) * px] = \
                square_image(style, square_kind(r, c), px)
    if style.fold:  # the halves of a folding board catch the light a little differently
        half = img[:, : n // 2] if style.fold == 1 else img[: n // 2]
        half[:] = np.clip(half * rng.uniform(0.92, 1.08), 0, 255).astype(np.uint8)
        a, b = (n // 2, 0), (n // 2, n)
        if style.fold == 2:
            a, b = (0, n // 2), (n, n // 2)
        cv2.line(img, a, b, (30, 30, 30), max(1, px // 24), cv2.LINE_AA)
    return img
