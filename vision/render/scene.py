"""One camera's view of a game: table, board block and tiles composed in the board plane and
projected through the lens with a single remap per board state; lighting, blur and compression
are applied then and cached, so a frame without a hand is a copy plus noise."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tilecast.config import load_tileset
from tilecast.engine.board import SIZE, Board
from tilecast.engine.tiles import Tile

from .board import board_image, margin_px
from .camera import Camera, draw_camera
from .degrade import Damage, blur, draw_damage, light
from .hands import HandLook, draw_hand_look
from .overlays import big_shadow, overlay
from .styles import BoardStyle, TileStyle, draw_look
from .table import table_texture
from .tiles import TileDraw, draw_tiles, tile_bgra

CORNERS = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)  # 1A, 1O, 15O, 15A


@dataclass(frozen=True)
class Look:
    """Everything about a video that stays fixed: styles, camera, light, feed."""

    board: BoardStyle
    tiles: TileStyle
    camera: Camera
    mirrored: bool  # the feed is flipped left-right, as some webcam apps do
    damage: Damage  # lighting, blur and compression of the whole frame
    shadow: tuple[float, float, float]  # shadow offset per unit of height (du, dv); softness
    board_height: float  # board thickness in squares
    resolution: float  # < 1: the camera's real resolution, upscaled to the frame size
    player_sides: tuple[int, int]  # board side (0 top, 1 right, 2 bottom, 3 left) per player
    hands: tuple[HandLook, HandLook]  # each player's hand
    cast_shadow: bool  # a broad soft shadow (someone between the lamp and the table)
    depth_of_field: float  # > 0: what is nearer or farther than the board centre blurs (sigma)
    shake: float  # camera sway and jitter in pixels (0: locked off)
    overlay: bool  # the app or broadcast draws a watermark or score bar over the feed


def draw_scene_look(rng: np.random.Generator, size: tuple[int, int]) -> Look:
    board, tiles = draw_look(rng)
    extent = SIZE + 2 * (board.frame_width + board.band_width)
    first = int(rng.integers(4))
    return Look(
        board=board, tiles=tiles, camera=draw_camera(rng, size, extent),
        mirrored=bool(rng.random() < 0.25),
        damage=replace(draw_damage(rng, scale=1.2), motion=(0.0, 0.0)),  # the camera is still
        shadow=(float(rng.normal(0, 0.5)), float(rng.normal(0, 0.5)),
                float(rng.uniform(0.03, 0.15))),
        board_height=float(rng.uniform(0.15, 0.6)),
        resolution=float(rng.uniform(0.55, 1.0)) if rng.random() < 0.3 else 1.0,
        player_sides=(first, (first + 2) % 4) if rng.random() < 0.85
        else (first, (first + 1) % 4),
        hands=(draw_hand_look(rng), draw_hand_look(rng)),
        cast_shadow=bool(rng.random() < 0.35), overlay=bool(rng.random() < 0.3),
        depth_of_field=float(rng.uniform(1.5, 4)) if rng.random() < 0.35 else 0.0,
        shake=float(rng.uniform(0.5, 4)) if rng.random() < 0.3 else 0.0,
    )


class Scene:
    """Renders the background (everything but hands) for any board position of one video."""

    def __init__(self, look: Look, seed: int) -> None:
        self.look = look
        self.rng = np.random.default_rng(seed)
        self.values = dict(load_tileset("english").values)
        cam = look.camera
        width, height = cam.size
        self.size = cam.size
        # Board texture: a little finer than the nearest squares appear in the image.
        near = max(cam.square_px(u, v) for u, v in CORNERS)
        self.px = int(np.clip(near * 1.3, 24, 80))
        self.margin = margin_px(look.board, self.px) / self.px
        self.base = board_image(look.board, self.px)
        uv = cam.plane_points(0.0)
        tex = (uv + self.margin) * self.px - 0.5
        lo, hi = -self.margin, SIZE + self.margin
        inside_u = np.minimum(uv[..., 0] - lo, hi - uv[..., 0])
        inside_v = np.minimum(uv[..., 1] - lo, hi - uv[..., 1])
        edge = np.minimum(inside_u, inside_v) * cam.square_px(7.5, 7.5)
        alpha = np.clip(edge + 0.5, 0, 1).astype(np.float32)
        ys, xs = np.nonzero(alpha > 0)
        if len(ys) == 0:
            raise ValueError("the board is not in view")
        self.win = np.s_[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        self.board_alpha = alpha[self.win]
        self.board_maps = cv2.convertMaps(np.ascontiguousarray(tex[self.win][..., 0]),
                                          np.ascontiguousarray(tex[self.win][..., 1]),
                                          cv2.CV_16SC2)
        self.table = self._table(uv.shape[:2])
        self.focus = self._focus(uv) if look.depth_of_field > 0 else None
        self.cache: OrderedDict[tuple[str, ...], np.ndarray] = OrderedDict()
        self.poses: dict[tuple[int, int, Tile], tuple[float, float, float]] = {}
        self.noise = [self._noise_pair() for _ in range(4)]
        self.shade = big_shadow(self.rng, self.size) if look.cast_shadow else None
        self.overlay = overlay(self.rng, self.size) if look.overlay else None
        ys, xs = np.nonzero(self.overlay[1]) if self.overlay else ((), ())
        self.overlay_win = np.s_[min(ys):max(ys) + 1, min(xs):max(xs) + 1] if len(ys) else None

    def overlay_cover(self) -> np.ndarray | None:
        """What the overlay hides, in the unmirrored frame (uint8 HxW), or None."""
        if self.overlay_win is None:
            return None
        a = self.overlay[1]  # type: ignore[index]
        return cv2.flip(a, 1) if self.look.mirrored else a

    def _table(self, shape: tuple[int, int]) -> np.ndarray:
        look, cam = self.look, self.look.camera
        uv = cam.plane_points(look.board_height)
        span = 45.0
        u0, v0 = 7.5 - span, 7.5 - span
        tpx = float(np.clip(cam.square_px(7.5, 7.5) * 0.6, 8, 20))
        lo, hi = -self.margin, SIZE + self.margin
        sdu, sdv, soft = look.shadow
        tex = table_texture(self.rng, (u0, 7.5 + span, v0, 7.5 + span), tpx, (lo, hi),
                            look.player_sides, look.tiles, self.values,
                            (sdu * look.board_height, sdv * look.board_height, soft))
        mx = ((uv[..., 0] - u0) * tpx - 0.5).astype(np.float32)
        my = ((uv[..., 1] - v0) * tpx - 0.5).astype(np.float32)
        table = cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # The board block's edge, between its top outline and its foot on the table.
        t = np.linspace(0, 1, 24)
        ring = np.concatenate([np.stack([lo + (hi - lo) * t, np.full_like(t, lo)], 1),
                               np.stack([np.full_like(t, hi), lo + (hi - lo) * t], 1),
                               np.stack([hi - (hi - lo) * t, np.full_like(t, hi)], 1),
                               np.stack([np.full_like(t, lo), hi - (hi - lo) * t], 1)])
        top = cam.project(np.hstack([ring, np.zeros((len(ring), 1))]))
        foot = cam.project(np.hstack([ring, np.full((len(ring), 1), look.board_height)]))
        hull = cv2.convexHull(np.vstack([top, foot]).astype(np.float32))
        side = tuple(float(c) * 0.6 for c in look.board.frame)
        cv2.fillConvexPoly(table, np.round(hull * 4).astype(np.int32), side, cv2.LINE_AA, 2)
        return table

    def _noise_pair(self) -> tuple[np.ndarray, np.ndarray]:
        # Video coding smooths most sensor noise away (and noisy frames make huge files).
        width, height = self.size
        sigma = min(self.look.damage.noise, 2.5)
        n = self.rng.normal(0, sigma, (height, width, 1)) + self.rng.normal(
            0, sigma * 0.4, (height, width, 3))
        return np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)

    def tile_pose(self, row: int, col: int, tile: Tile) -> tuple[float, float, float]:
        """A placed tile's offset in its square (squares) and turn (degrees), fixed once drawn."""
        key = (row, col, tile)
        if key not in self.poses:
            r = self.rng
            angle = r.normal(0, 2.5) if r.random() < 0.9 else r.normal(0, 7)
            off = r.normal(0, 0.04, 2) if r.random() < 0.94 else np.clip(  # a sloppy one
                r.normal(0, 0.1, 2), -0.2, 0.2)
            self.poses[key] = (float(off[0]), float(off[1]), float(angle))
        return self.poses[key]

    def lift(self, u: float, v: float, height: float) -> np.ndarray:
        """Where a point `height` squares above the board at (u, v) appears, as a shift in the
        board plane (squares): its parallax seen from the camera centre."""
        c = self.look.camera.C
        return height * (np.array([u, v]) - c[:2]) / (-c[2] - height)

    def background(self, board: Board) -> np.ndarray:
        """The frame for this board position with no hand in it (uint8 BGR, shared: copy it)."""
        key = tuple(board.rows())
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        look, px, m = self.look, self.px, self.margin
        tex = self.base.copy()
        placed = list(board.tiles())
        c = look.camera.C
        placed.sort(key=lambda t: -np.hypot(t[1] + 0.5 - c[0], t[0] + 0.5 - c[1]))
        draws = []
        for row, col, tile in placed:
            du, dv, angle = self.tile_pose(row, col, tile)
            u, v = col + 0.5 + du, row + 0.5 + dv
            lift = self.lift(u, v, look.tiles.thickness) * px
            sprite = tile_bgra(look.tiles, tile.face, self.values[tile.face], px)
            draws.append(TileDraw(sprite, ((u + m) * px - 0.5, (v + m) * px - 0.5), angle,
                                  (float(lift[0]), float(lift[1]))))
        sdu, sdv, soft = look.shadow
        thick = look.tiles.thickness
        draw_tiles(tex, look.tiles, draws, (sdu * thick * px, sdv * thick * px, soft * px))
        frame = self.table.copy()
        warped = cv2.remap(tex, *self.board_maps, cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        a = self.board_alpha
        frame[self.win] = cv2.blendLinear(warped, frame[self.win], a, 1 - a)
        frame = self._camera(frame)
        self.cache[key] = frame
        if len(self.cache) > 6:
            self.cache.popitem(last=False)
        return frame

    def _focus(self, uv: np.ndarray) -> np.ndarray:
        """How out of focus each pixel is (0..1), from its depth against the board centre's."""
        cam = self.look.camera
        pts = np.concatenate([uv, np.zeros(uv.shape[:2] + (1,), np.float32)], -1)
        depth = (pts - cam.C.astype(np.float32)) @ cam.R[2].astype(np.float32)
        centre = float((np.array([7.5, 7.5, 0.0]) - cam.C) @ cam.R[2])
        return np.clip(np.abs(depth / centre - 1) / 0.25, 0, 1).astype(np.float32)

    def _camera(self, frame: np.ndarray) -> np.ndarray:
        d = self.look.damage
        out = light(frame, d)
        if self.shade is not None:
            out *= self.shade[..., None]
        out = blur(out, d)
        if self.focus is not None:
            far = cv2.GaussianBlur(out, (0, 0), self.look.depth_of_field)
            out = cv2.blendLinear(far, out, self.focus, 1 - self.focus)
        if self.look.resolution < 1:
            width, height = self.size
            small = cv2.resize(out, (int(width * self.look.resolution),
                                     int(height * self.look.resolution)),
                               interpolation=cv2.INTER_AREA)
            out = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
        out = np.clip(out, 0, 255).astype(np.uint8)
        if d.jpeg:
            _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, max(d.jpeg, 35)])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out

    def finish(self, frame: np.ndarray, index: int) -> np.ndarray:
        """Sensor noise (from a small pool, cheap), the mirrored feed and any overlay drawn by the
        app: the frame as sent."""
        if self.look.damage.noise > 0.5:
            plus, minus = self.noise[index % len(self.noise)]
            frame = cv2.subtract(cv2.add(frame, plus), minus)
        frame = cv2.flip(frame, 1) if self.look.mirrored else frame
        if self.overlay_win is not None:
            bgr, alpha = self.overlay  # type: ignore[misc]
            w = self.overlay_win
            a = alpha[w].astype(np.float32) / 255
            frame[w] = cv2.blendLinear(bgr[w], frame[w], a, 1 - a)
        return frame
