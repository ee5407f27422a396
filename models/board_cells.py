"""Cell crops cut from whole rendered board photos, the way the reader cuts them.

render_cells draws a square's neighbourhood; the reader instead rectifies a whole frame at the
corners it found and cuts every square out of that. These photos give the classifier the
reader's own crops (perspective resampling, the frame's light and lens, a fix a little off),
and the evaluation's whole-board figures (models/eval_classifier.py).

Training chunks use looks of the training styles only; load_split in tile_splits.py keeps any
held-out style apart as usual. Their orientation is not labelled (-1): only the tile class is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
from tile_splits import HELD_OUT_BOARDS, HELD_OUT_TILES

from tilecast.config import load_tileset
from tilecast.engine.board import SIZE, Board
from tilecast.engine.tiles import Tile
from tilecast.vision.reader import reader_crops
from tilecast.vision.rectify import cell_crops, cell_size_px, rectify, warp_board
from tilecast.vision.render.scene import CORNERS, Scene, draw_scene_look
from tilecast.vision.render.styles import TILE_FAMILIES, draw_tile_style

BOARD_SEEDS = range(2001, 3025)  # a CPU run takes the first 128, a GPU run more
LOOKS_PER_CHUNK = 8
PHOTOS_PER_LOOK = 2
KEEP_EMPTY = 0.35  # most squares are empty; keep this share of them
FRAME_SIZES = ((960, 720), (1280, 720), (1920, 1080))
CORNER_ERROR = 0.07  # squares: the locator's fix is a little off, as in use
HIDDEN = 0.15  # mean overlay opacity over a square that hides it


def board_photo(look, scene: Scene, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """A frame of this board and the playing area's corners in it (1A first)."""
    frame = scene.finish(scene.background(board), 0)
    corners = look.camera.project(CORNERS).astype(np.float32)
    if look.mirrored:
        corners[:, 0] = look.camera.size[0] - 1 - corners[:, 0]
    return frame, corners


def cells_of(frame: np.ndarray, corners: np.ndarray) -> list[np.ndarray]:
    """Crops cut at about the frame's own resolution (24 to 64 pixels a square): the training
    crops, so that the network sees squares sharper and softer than the reader's cut."""
    cell_px = int(np.clip(round(cell_size_px(corners)), 24, 64))
    return list(cell_crops(rectify(frame, corners, cell_px), margin=0.25, size=64))


def read_cells(frame: np.ndarray, corners: np.ndarray) -> list[np.ndarray]:
    """The crops the video reader classifies (vision.reader.BoardReader's cut)."""
    return list(reader_crops(frame, corners))


def hidden_cells(scene: Scene, corners: np.ndarray) -> np.ndarray:
    """[225] bool: squares that the feed's overlay (a score bar, a watermark) covers enough to
    hide what stands there; nobody can read them, so the figures leave them out."""
    if scene.overlay_win is None:
        return np.zeros(SIZE * SIZE, bool)
    alpha = warp_board(scene.overlay[1].astype(np.float32) / 255, corners, 8, 0.0)
    return alpha.reshape(SIZE, 8, SIZE, 8).mean((1, 3)).ravel() > HIDDEN


def layout_board(layout: np.ndarray) -> Board:
    return Board().with_tiles(
        (r, c, Tile("A", blank=True) if layout[r, c] == "?" else Tile(str(layout[r, c])))
        for r in range(SIZE) for c in range(SIZE) if layout[r, c] != ".")


def random_layout(rng: np.random.Generator, tileset, n: int) -> np.ndarray:
    bag = [f for f, k in tileset.counts.items() for _ in range(k)]
    layout = np.full((SIZE, SIZE), ".", "<U1")
    squares = rng.choice(SIZE * SIZE, n, replace=False)
    layout.ravel()[squares] = rng.choice(bag, n, replace=False)
    return layout


def in_view(look) -> bool:
    """Whether the whole playing area, and half a square around it, is inside the frame."""
    t = np.linspace(-0.5, SIZE + 0.5, 4 * SIZE)
    lo, hi = np.full_like(t, -0.5), np.full_like(t, SIZE + 0.5)
    ring = np.concatenate([np.stack(p, 1) for p in ((t, lo), (t, hi), (lo, t), (hi, t))])
    p = look.camera.project(ring)
    width, height = look.camera.size
    return bool(((p >= 0) & (p <= (width - 1, height - 1))).all())


def visible_looks(families: tuple[str, ...], count: int, seed: int,
                  size: tuple[int, int] = (960, 720)) -> Iterator[tuple[object, int]]:
    """(look, seed) pairs with the families' tile styles in turn, skipping looks whose camera
    cuts off part of the board (nothing can read a square outside the frame)."""
    found, k = 0, seed
    while found < count:
        rng = np.random.default_rng(k)
        look = replace(draw_scene_look(rng, size),
                       tiles=draw_tile_style(rng, families[found % len(families)]))
        if in_view(look):
            yield look, k
            found += 1
        k += 1


def _training_look(rng: np.random.Generator, seed: int):
    """A look of the training styles only, whole board in view."""
    tiles = [f for f in TILE_FAMILIES if f not in HELD_OUT_TILES]
    size = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
    while True:
        look, seed = next(visible_looks((str(rng.choice(tiles)),), 1, seed, size))
        if look.board.family not in HELD_OUT_BOARDS:
            return look
        seed += 1


def render_board_chunk(seed: int) -> dict[str, np.ndarray]:
    """Cells of LOOKS_PER_CHUNK looks x PHOTOS_PER_LOOK random positions, in the chunk format
    of tile_splits (blanks drawn more often than a real bag holds them)."""
    tileset = load_tileset("english")
    rng = np.random.default_rng([seed, 7])
    parts: dict[str, list] = {k: [] for k in ("images", "classes", "tile_family",
                                              "board_family", "mirrored")}
    for i in range(LOOKS_PER_CHUNK):
        look = _training_look(rng, seed * 100 + i * 7919)
        scene = Scene(look, seed * 100 + i)
        for _ in range(PHOTOS_PER_LOOK):
            layout = random_layout(rng, tileset, int(rng.integers(40, 101)))
            tiles = np.flatnonzero(layout.ravel() != ".")
            layout.ravel()[rng.choice(tiles, int(rng.integers(0, 7)), replace=False)] = "?"
            frame, corners = board_photo(look, scene, layout_board(layout))
            corners = corners + rng.normal(0, CORNER_ERROR * cell_size_px(corners), (4, 2))
            keep = (layout.ravel() != ".") | (rng.random(SIZE * SIZE) < KEEP_EMPTY)
            parts["images"].append(np.asarray(cells_of(frame, corners))[keep])
            parts["classes"].append(layout.ravel()[keep])
            n = int(keep.sum())
            parts["tile_family"].append(np.full(n, look.tiles.family))
            parts["board_family"].append(np.full(n, look.board.family))
            parts["mirrored"].append(np.full(n, look.mirrored))
    out = {k: np.concatenate(v) for k, v in parts.items()}
    n = len(out["classes"])
    out["rotation"] = np.full(n, -90)  # not labelled
    out["occluded"] = np.zeros(n, np.float32)
    return out
