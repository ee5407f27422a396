"""Contact sheets that show a reader the renderer's variety: whole frames and cell crops."""

from __future__ import annotations

import cv2
import numpy as np

from .cells import render_cells
from .script import RenderTurn
from .video import render_frames


def frames_sheet(turns: list[RenderTurn], seeds: list[int], cols: int = 4,
                 tile: tuple[int, int] = (400, 225)) -> np.ndarray:
    """One late frame per seed (a different look each), mid-game with a hand where possible."""
    shots = []
    for seed in seeds:
        frames = list(render_frames(turns, seed, fps=2))
        with_hand = [img for img, rec in frames[len(frames) // 2:] if rec["hand"]]
        pick = with_hand[len(with_hand) // 2] if with_hand and seed % 2 else frames[-1][0]
        shots.append(cv2.resize(pick, tile, interpolation=cv2.INTER_AREA))
    return _grid(shots, cols)


def crops_sheet(n: int = 240, seed: int = 0, cols: int = 20, size: int = 64) -> np.ndarray:
    images, labels = render_cells(n, seed, size=size, mirror=0.1, looks=n)
    shots = []
    for img, cls, rot in zip(images, labels.classes, labels.rotation, strict=True):
        shot = cv2.copyMakeBorder(img, 0, 14, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(shot, f"{cls} {rot}", (2, size + 11), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                    (0, 0, 0), 1, cv2.LINE_AA)
        shots.append(shot)
    return _grid(shots, cols)


def _grid(shots: list[np.ndarray], cols: int, gap: int = 2) -> np.ndarray:
    h, w = shots[0].shape[:2]
    rows = (len(shots) + cols - 1) // cols
    out = np.full((rows * (h + gap) - gap, cols * (w + gap) - gap, 3), 255, np.uint8)
    for i, s in enumerate(shots):
        r, c = divmod(i, cols)
        out[r * (h + gap):r * (h + gap) + h, c * (w + gap):c * (w + gap) + w] = s
    return out
