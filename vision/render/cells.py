"""Single-cell crops for training the tile classifier, drawn without rendering whole frames.

Crop convention (what the classifier is fed at run time too): the board is rectified so squares
are axis-aligned, and a cell's crop is its square expanded by `margin` (default 25%) of a square
on every side, i.e. 1.5 squares across, resized to size x size. The label is what stands on
that square: a letter 'A'-'Z', '?' for a blank (whatever letter it was given) or '.' for an
empty square. rotation is how far the tile's letter is turned counter-clockwise in the crop
(0/90/180/270): `np.rot90(crop, -rotation // 90)` makes it upright, and then, where mirrored
is set (a left-right mirrored camera feed), `[:, ::-1]` makes it read the right way.

Each crop is built on a 3x3 neighbourhood of real board squares (so premium labels and the
neighbours' tiles match the layout), with tiles lifted by parallax (their tops shift up to
~0.45 of a square and expose an edge, as under a tilted broadcast camera), shadows, small
misplacements, grid error, anisotropic resolution loss, blur, noise, JPEG and sometimes fingers.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tilecast.config import load_tileset
from tilecast.engine.board import SIZE
from tilecast.engine.infer import CLASSES

from .board import square_image, square_kind
from .degrade import blur, draw_damage, light, sensor
from .hands import draw_hand_look, hand_layers, paint_hand
from .styles import BoardStyle, TileStyle, draw_look
from .tiles import TileDraw, draw_tiles, tile_bgra

# Pixels per square (sq) on the neighbourhood canvas: the coarse one serves crops whose camera
# resolution is below COARSE_BELOW pixels per square (most of them), four times cheaper.
FINE, COARSE, COARSE_BELOW = 64, 32, 26


@dataclass(frozen=True)
class CellLabels:
    """Per-crop truth, arrays of length n."""

    classes: np.ndarray  # '<U1': 'A'-'Z', '?' blank, '.' empty
    rotation: np.ndarray  # int16, degrees counter-clockwise of the letter in the crop
    tile_family: np.ndarray  # str, the tile set family ('' where the square is empty)
    board_family: np.ndarray  # str
    square: np.ndarray  # str, the square's print: 'TW', 'DW', 'TL', 'DL', 'STAR' or ''
    lift: np.ndarray  # float32 [n, 2], top-face offset in squares (x, y) before rotation
    occluded: np.ndarray  # float32, fraction of the square covered by fingers
    mirrored: np.ndarray  # bool, the crop is a left-right mirror image (applied before rotation)

    @property
    def index(self) -> np.ndarray:
        """Class indices into CLASSES."""
        return np.array([CLASSES.index(c) for c in self.classes], np.int64)


def _neighbourhood(board: BoardStyle, row: int, col: int, sq: int) -> np.ndarray:
    canvas = np.empty((3 * sq, 3 * sq, 3), np.uint8)
    for dr in range(3):
        for dc in range(3):
            r, c = row + dr - 1, col + dc - 1
            cell = canvas[dr * sq:(dr + 1) * sq, dc * sq:(dc + 1) * sq]
            if 0 <= r < SIZE and 0 <= c < SIZE:
                cell[:] = square_image(board, square_kind(r, c), sq)
            else:
                cell[:] = board.band if board.band_width > 0.05 else board.frame
    return canvas


def _lift(rng: np.random.Generator) -> np.ndarray:
    """Parallax of the tile tops, in squares: mostly small, sometimes nearly half a square."""
    kind = rng.random()
    mag = rng.uniform(0, 0.08) if kind < 0.5 else rng.uniform(0.08, 0.25) if kind < 0.85 \
        else rng.uniform(0.25, 0.45)
    a = rng.uniform(0, 2 * np.pi)
    return np.array([np.cos(a), np.sin(a)]) * mag


def _draw_tiles(canvas: np.ndarray, tiles: TileStyle, faces: dict[tuple[int, int], str],
                values: dict[str, int], lift: np.ndarray, rng: np.random.Generator,
                sq: int) -> None:
    shadow = (*(rng.normal(0, 0.05, 2) * sq), rng.uniform(0.5, 4) * sq / FINE)
    # Farther tiles first: tops shift away from the camera, so farther means further along lift.
    order = sorted(faces, key=lambda rc: -(rc[1] * lift[0] + rc[0] * lift[1]))
    draws = []
    for dr, dc in order:
        face = faces[(dr, dc)]
        wobble = rng.normal(0, 0.035, 2) * sq
        if rng.random() < 0.12:  # left askew by a player: up to a third of a square off
            wobble = rng.uniform(-0.33, 0.33, 2) * sq
        angle = rng.normal(0, 2.5) if rng.random() < 0.9 else rng.normal(0, 8)
        centre = ((dc + 0.5) * sq - 0.5 + wobble[0], (dr + 0.5) * sq - 0.5 + wobble[1])
        draws.append(TileDraw(tile_bgra(tiles, face, values.get(face, 0), sq), centre,
                              float(angle), (float(lift[0] * sq), float(lift[1] * sq))))
    draw_tiles(canvas, tiles, draws, shadow)


def _crop_matrix(rng: np.random.Generator, margin: float, out_w: int, out_h: int,
                 sq: int) -> np.ndarray:
    """Homography from output pixels to canvas pixels: the nominal crop plus grid error."""
    span = 1 + 2 * margin
    to_cells = np.array([[span / out_w, 0, -span / 2], [0, span / out_h, -span / 2], [0, 0, 1]])
    a = np.radians(rng.normal(0, 2.0))
    sc = rng.normal(1, 0.04)
    shear = rng.normal(0, 0.04)
    off = rng.normal(0, 0.04 if rng.random() < 0.85 else 0.12, 2)  # sometimes a poor grid fit
    if rng.random() < 0.08:  # or another tool's grid, up to half a square off
        off = rng.uniform(-0.45, 0.45, 2)
    jitter = np.array([[sc * np.cos(a), -sc * np.sin(a) + shear, off[0]],
                       [sc * np.sin(a), sc * np.cos(a), off[1]],
                       [rng.normal(0, 0.04), rng.normal(0, 0.04), 1]])
    to_canvas = np.array([[sq, 0, 1.5 * sq - 0.5], [0, sq, 1.5 * sq - 0.5], [0, 0, 1]])
    return to_canvas @ jitter @ to_cells


def _fingers(img: np.ndarray, rng: np.random.Generator, res: float) -> float:
    """Fingers from a random side over part of the crop; returns the covered square fraction."""
    h, w = img.shape[:2]
    edge = rng.uniform(0, 2 * np.pi)
    tip = np.array([w / 2, h / 2]) + rng.uniform(0.45, 1.0) * np.array(
        [np.cos(edge), np.sin(edge)]) * w / 2
    toward = tip + np.array([np.cos(edge), np.sin(edge)]) * w * 3
    look = draw_hand_look(rng)
    cover = paint_hand(img, look, hand_layers(look, (h, w), tuple(tip), tuple(toward), res))
    inner = cover[round(h / 6):round(5 * h / 6), round(w / 6):round(5 * w / 6)]
    return float(inner.mean() / 255) if inner.size else 0.0


def render_cells(n: int, seed: int, size: int = 64, margin: float = 0.25,
                 classes: str = CLASSES, mirror: float = 0.0, looks: int | None = None,
                 tile_families: tuple[str, ...] | None = None) -> tuple[np.ndarray, CellLabels]:
    """n random cell crops (uint8 [n, size, size, 3] BGR) and their labels.

    Classes are drawn uniformly from `classes` (repeat a character to weight it); `mirror` is
    the share of crops mirrored left-right, as from a mirrored webcam feed. Looks (board
    and tile set pairs) come from a pool of `looks` (default n/64, at most 512) drawn from the
    seed; more looks means more variety and more time drawing sprites. tile_families (names
    from styles.TILE_FAMILIES) limits the tile sets, e.g. to hold some out for evaluation.
    Everything is reproducible from the arguments.
    """
    rng = np.random.default_rng(seed)
    values = dict(load_tileset("english").values)
    pool = [draw_look(rng, tile_families) for _ in range(looks or min(512, max(1, n // 64)))]
    images = np.empty((n, size, size, 3), np.uint8)
    fields: dict[str, list] = {k: [None] * n
                               for k in ("cls", "rot", "tf", "bf", "sq", "lift", "occ", "mir")}
    letters = [c for c in CLASSES if c not in "?."]
    which = rng.integers(len(pool), size=n)
    # Grouped by look so each look's squares and sprites are drawn once and stay cached.
    for i in np.argsort(which, kind="stable"):
        board, tiles = pool[which[i]]
        cls = classes[rng.integers(len(classes))]
        row, col = (int(v) for v in rng.integers(0, SIZE, 2))
        faces = {}
        p_nb = rng.uniform(0, 0.8)
        for dr in range(3):
            for dc in range(3):
                r, c = row + dr - 1, col + dc - 1
                if (dr, dc) == (1, 1):
                    if cls != ".":
                        faces[(1, 1)] = cls
                elif 0 <= r < SIZE and 0 <= c < SIZE and rng.random() < p_nb:
                    faces[(dr, dc)] = "?" if rng.random() < 0.04 else letters[rng.integers(26)]
        lift = _lift(rng)
        res = float(np.exp(rng.uniform(np.log(14), np.log(64))))  # camera pixels per square
        out_w = max(8, round((1 + 2 * margin) * res))
        out_h = max(8, round(out_w * rng.uniform(0.6, 1.0)))
        if rng.random() < 0.5:
            out_w, out_h = out_h, out_w
        sq = COARSE if res < COARSE_BELOW else FINE
        canvas = _neighbourhood(board, row, col, sq)
        _draw_tiles(canvas, tiles, faces, values, lift, rng, sq)
        # Shrink first (area filter) so the warp samples without aliasing.
        k = min(1.0, 1.2 * max(out_w, out_h) / ((1 + 2 * margin) * sq))
        src = cv2.resize(canvas, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) \
            if k < 1 else canvas
        h = np.diag([k, k, 1.0]) @ _crop_matrix(rng, margin, out_w, out_h, sq)
        crop = cv2.warpPerspective(src, h, (out_w, out_h),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
        occ = _fingers(crop, rng, res) if rng.random() < 0.1 else 0.0
        damage = draw_damage(rng, scale=res / 40)
        f = blur(light(crop, damage), damage)
        crop = sensor(f, damage, rng)
        interp = cv2.INTER_AREA if out_w > size else cv2.INTER_LINEAR
        crop = cv2.resize(crop, (size, size), interpolation=interp)
        turn = int(rng.integers(4))
        mirrored = bool(rng.random() < mirror)
        images[i] = np.rot90(crop[:, ::-1] if mirrored else crop, turn)
        fields["mir"][i] = mirrored
        fields["cls"][i] = cls
        fields["rot"][i] = 90 * turn
        fields["tf"][i] = tiles.family if cls != "." else ""
        fields["bf"][i] = board.family
        fields["sq"][i] = square_kind(row, col)
        fields["lift"][i] = lift
        fields["occ"][i] = occ
    labels = CellLabels(
        classes=np.array(fields["cls"], "<U1"), rotation=np.array(fields["rot"], np.int16),
        tile_family=np.array(fields["tf"]), board_family=np.array(fields["bf"]),
        square=np.array(fields["sq"]), lift=np.array(fields["lift"], np.float32).reshape(n, 2),
        occluded=np.array(fields["occ"], np.float32), mirrored=np.array(fields["mir"], bool),
    )
    return images, labels
