"""The classifier's data: rendered cell crops cached in chunks, and how they are split.

Each 2048-crop chunk is render_cells output for one seed (about 32 board and tile looks).
Whole styles are held out: crops of the tile families in HELD_OUT_TILES, or on boards of
HELD_OUT_BOARDS, never reach training. Training seeds' held-out crops are the validation split
(temperature scaling); test seeds' held-out crops, from looks never rendered for training, are
the test split. Test seeds' other crops measure new looks of the training styles.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from tilecast.vision.classify import CLASSES

CHUNK = 2048
RENDER_CLASSES = CLASSES + "??..."  # blanks 3x and empty squares 4x as likely as a letter
TRAIN_SEEDS = range(1, 513)  # a CPU run takes the first 64, a GPU run more
TEST_SEEDS = range(1_000_001, 1_000_017)
HELD_OUT_TILES = ("yellow_red", "protile_green", "protile_grey")
HELD_OUT_BOARDS = ("green_vintage",)
DEFAULT_CACHE = Path("/tmp/tilecast-cells")


def _cell_chunk(seed: int) -> dict[str, np.ndarray]:
    from tilecast.vision.render import render_cells

    images, lab = render_cells(CHUNK, seed, classes=RENDER_CLASSES)
    return {"images": images, "classes": lab.classes, "rotation": lab.rotation,
            "tile_family": lab.tile_family, "board_family": lab.board_family,
            "mirrored": lab.mirrored, "occluded": lab.occluded}


def _cached(args: tuple[Path, str, Callable[[int], dict[str, np.ndarray]], int]) -> Path:
    folder, prefix, render, seed = args
    path = folder / f"{prefix}_{seed}.npz"
    if not path.exists():
        tmp = folder / f"tmp_{prefix}_{seed}.npz"
        np.savez(tmp, **render(seed))
        tmp.rename(path)
    return path


def render_cache(folder: Path, seeds: range, workers: int,
                 render: Callable[[int], dict[str, np.ndarray]] = _cell_chunk,
                 prefix: str = "chunk") -> list[Path]:
    """Paths of the chunks for these seeds (`render(seed)` gives one chunk's arrays, by
    default render_cells crops), rendering those not cached yet."""
    folder.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_cached, [(folder, prefix, render, s) for s in seeds]))


def held_out(tile_family: np.ndarray, board_family: np.ndarray) -> np.ndarray:
    return np.isin(tile_family, HELD_OUT_TILES) | np.isin(board_family, HELD_OUT_BOARDS)


def load_split(paths: list[Path], keep_held_out: bool) -> dict[str, np.ndarray]:
    """Images, class indices y, orientation indices o (4 * mirrored + turn), tile and board
    families and occluded fractions of the held-out (or the other) crops of these chunks."""
    parts: dict[str, list[np.ndarray]] = {
        k: [] for k in ("images", "y", "o", "tile", "board", "occluded")}
    for p in paths:
        with np.load(p) as d:
            keep = held_out(d["tile_family"], d["board_family"]) == keep_held_out
            parts["images"].append(d["images"][keep])
            parts["y"].append(np.array([CLASSES.index(c) for c in d["classes"][keep]], np.int64))
            turn = d["rotation"][keep] // 90
            o = np.where(turn < 0, -1, 4 * d["mirrored"][keep] + turn)  # -1: not labelled
            parts["o"].append(o.astype(np.int64))
            parts["tile"].append(d["tile_family"][keep])
            parts["board"].append(d["board_family"][keep])
            parts["occluded"].append(d["occluded"][keep])
    return {k: np.concatenate(v) for k, v in parts.items()}
