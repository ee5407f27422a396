"""Rendering a scripted game to video frames with per-frame truth.

truth.json (see TRUTH_DOC, also written into the file) gives for every frame what is on the
board, where the playing area's corners are in the image, how the board is turned and mirrored,
what a hand hides, and which turn is in progress.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from tilecast.engine.board import SIZE, Board

from .camera import turned
from .hands import cast_shadow, hand_layers, paint_hand
from .scene import CORNERS, Look, Scene, draw_scene_look
from .script import RenderTurn
from .tiles import tile_face
from .timeline import Reach, Timeline, plan, shoulder, spread

TRUTH_DOC = {
    "board": "15 strings, row 1 first, column A first: 'A'-'Z' a tile, a lower-case letter a "
             "blank standing for that letter, '.' an empty square (the engine's Board.rows())",
    "corners": "image (x, y) of the playing area's outer corners in the order 1A, 1O, 15O, 15A "
               "(as the board is read, whatever the camera sees); pixel centres are integers; "
               "they move from frame to frame when the camera sways",
    "rotation": "how the board is turned in the image before any mirroring: the direction from "
                "row 15 to row 1, counter-clockwise from image-up, rounded to 0/90/180/270; "
                "angle is the same unrounded, in degrees",
    "mirrored": "the feed is flipped left-right (corners and polygons are in the flipped image)",
    "occluded": "15 strings of '0'/'1': '1' where at least 20% of the square is hidden by a hand, "
                "a tile held above it or an overlay",
    "polygons": "outlines of what hides the view (hands, sleeves, held tiles, and any "
                "watermark or score bar drawn over the feed; pixels at least a quarter covered), "
                "image (x, y)",
    "hand": "a hand (or a tile it holds) is in the frame",
    "turn": "index of the turn in progress (the last one begun), -1 before the first",
    "phase": "'place', 'withdraw', 'exchange', 'cross' while a hand is in the frame, else 'rest'",
    "settled": "no hand in the frame and the board unchanged and unturned for at least half a "
               "second",
}
SETTLE_S = 0.5
OCCLUDED_SHARE = 0.2
COVERED = 64  # coverage (of 255) from which a pixel counts as hidden, motion-blur fringes too


def _cell_samples(scene: Scene) -> np.ndarray:
    """Image pixels [225, 9, 2] of a 3x3 grid of points inside every square."""
    offs = (np.arange(3) + 0.5) / 3
    g = np.stack(np.meshgrid(offs, offs), -1).reshape(-1, 2)
    rows, cols = np.mgrid[0:SIZE, 0:SIZE]
    pts = (np.stack([cols, rows], -1).reshape(-1, 1, 2) + g).reshape(-1, 2)
    px = np.round(scene.look.camera.project(pts)).astype(int)
    return px.reshape(SIZE * SIZE, 9, 2)


def _covered(cover: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """Which sample points [225, 9, 2] fall on hidden pixels (points off the image do not)."""
    height, width = cover.shape
    inside = ((samples >= 0) & (samples < (width, height))).all(-1)
    xs, ys = samples[..., 0].clip(0, width - 1), samples[..., 1].clip(0, height - 1)
    return (cover[ys, xs] > COVERED) & inside


def _orientation(corners: np.ndarray) -> tuple[int, float]:
    up = corners[0] - corners[3]  # row 15 to row 1, along column A
    angle = float(np.degrees(np.arctan2(-up[0], -up[1])) % 360)
    return int(round(angle / 90) % 4 * 90), round(angle, 2)


class _Painter:
    """Draws the hands of a timeline into frames of one scene."""

    def __init__(self, scene: Scene, timeline: Timeline, fps: float,
                 rng: np.random.Generator) -> None:
        self.scene, self.timeline, self.fps = scene, timeline, fps
        self.shutter = float(rng.uniform(0.3, 0.9))
        gains = np.asarray(scene.look.damage.gains)
        self.lit = {}
        for r in timeline.reaches:
            hl = r.look
            self.lit[id(r)] = replace(
                hl, skin=tuple(int(min(c * g, 255)) for c, g in zip(hl.skin, gains, strict=True)),
                sleeve=None if hl.sleeve is None else tuple(
                    int(min(c * g, 255)) for c, g in zip(hl.sleeve, gains, strict=True)))

    def _tip(self, r: Reach, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Fingertip in the image, the image point the arm comes from, and the square size."""
        cam = self.scene.look.camera
        sh = shoulder(r.side, float(pos[0] if r.side in (0, 2) else pos[1]))
        to_sh = sh - pos
        to_sh /= np.linalg.norm(to_sh)
        flat = to_sh[:2] / (np.linalg.norm(to_sh[:2]) + 1e-9)
        tip3 = np.array([pos[0] + flat[0] * 0.35, pos[1] + flat[1] * 0.35, -(pos[2] + 0.1)])
        step3 = tip3 + np.array([to_sh[0], to_sh[1], -to_sh[2]]) * 0.5
        tip, step = cam.project(np.stack([tip3, step3]))
        d = step - tip
        toward = tip + d / (np.linalg.norm(d) + 1e-9) * 4000
        height = -cam.C[2]
        square = cam.square_px(pos[0], pos[1]) * height / max(height - pos[2], 1.0)
        return tip, toward, square

    def _held_tile(self, frame: np.ndarray, cover: np.ndarray, tile_face_name: str,
                   pos: np.ndarray) -> None:
        look, cam = self.scene.look, self.scene.look.camera
        px = 48
        bgr, alpha = tile_face(look.tiles, tile_face_name, self.scene.values[tile_face_name], px)
        half = 0.5
        h = -(pos[2] + look.tiles.thickness)
        quad = cam.project(np.array([[pos[0] - half, pos[1] - half, h],
                                     [pos[0] + half, pos[1] - half, h],
                                     [pos[0] + half, pos[1] + half, h],
                                     [pos[0] - half, pos[1] + half, h]]))
        x0, y0 = np.floor(quad.min(0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
        height, width = frame.shape[:2]
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        src = np.float32([[0, 0], [px, 0], [px, px], [0, px]]) - 0.5
        m = cv2.getPerspectiveTransform(src, (quad - (cx0, cy0)).astype(np.float32))
        size = (cx1 - cx0, cy1 - cy0)
        img = cv2.warpPerspective(bgr, m, size, flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)
        win = np.s_[cy0:cy1, cx0:cx1]
        af = a.astype(np.float32) / 255
        frame[win] = cv2.blendLinear(img, frame[win], af, 1 - af)
        np.maximum(cover[win], a, out=cover[win])

    def paint(self, frame: np.ndarray, t: float) -> tuple[np.ndarray | None, str]:
        """Draw every hand active at time t; returns their coverage mask (or None) and phase."""
        active = [(r, pos) for r in self.timeline.reaches if (pos := r.at(t)) is not None]
        if not active:
            return None, "rest"
        scene = self.scene
        cam = scene.look.camera
        width, height = scene.size
        cover = np.zeros((height, width), np.uint8)
        sdu, sdv, soft = scene.look.shadow
        for r, pos in active:
            tip, toward, square = self._tip(r, pos)
            prev = r.at(t - 1 / self.fps)
            motion = (0.0, 0.0)
            if prev is not None:
                d = (tip - self._tip(r, prev)[0]) * self.shutter
                motion = (float(d[0]), float(d[1]))
            look = self.lit[id(r)]
            layers = hand_layers(look, (height, width), tuple(tip), tuple(toward), square)
            shade = np.maximum(layers.skin, layers.sleeve)
            ground = cam.project(np.array([[pos[0] + sdu * pos[2], pos[1] + sdv * pos[2], 0.0]]))
            offset = ground[0] - cam.project(np.array([[pos[0], pos[1], -pos[2]]]))[0]
            cast_shadow(frame, shade, (float(offset[0]), float(offset[1])),
                        square * (soft * 4 + 0.15 * pos[2]), 0.45)
            held = r.held(t)
            if held is not None:
                self._held_tile(frame, cover, held.face, pos)
            drawn = paint_hand(frame, look, layers, motion)
            np.maximum(cover, drawn, out=cover)
        return cover, active[0][0].phase


def _outlines(cover: np.ndarray) -> list[np.ndarray]:
    """Polygons [N, 2] around the pixels of a coverage mask counted as hidden."""
    small = (cover[::2, ::2] > COVERED).astype(np.uint8)
    contours, _ = cv2.findContours(small, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cv2.approxPolyDP(c, 1.0, True).reshape(-1, 2).astype(np.float64) * 2
            for c in contours if cv2.contourArea(c) >= 4]


def _sway(look: Look, rng: np.random.Generator) -> Callable[[float], np.ndarray]:
    """The camera's slow sway and jitter: time -> 2x3 affine map of the image."""
    phases = rng.uniform(0, 2 * np.pi, 5)
    width, height = look.camera.size
    a = look.shake

    def at(t: float) -> np.ndarray:
        dx = a * (0.7 * np.sin(1.4 * t + phases[0]) + 0.3 * np.sin(10.7 * t + phases[1]))
        dy = a * (0.7 * np.sin(1.2 * t + phases[2]) + 0.3 * np.sin(8.2 * t + phases[3]))
        turn = a * 0.05 * np.sin(0.7 * t + phases[4])
        m = cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2), turn, 1.0)
        m[:, 2] += (dx, dy)
        return m

    return at


def _apply(m: np.ndarray | None, pts: np.ndarray) -> np.ndarray:
    """Points moved by an affine map (a new array either way)."""
    return pts.astype(np.float64) if m is None else pts @ m[:, :2].T + m[:, 2]


class _Shooter:
    """Takes the frames of one scene: background, hands, camera sway, feed, and the geometry
    truth of each frame."""

    def __init__(self, scene: Scene, timeline: Timeline, fps: float, rng: np.random.Generator,
                 seed: int) -> None:
        self.scene, self.timeline, self.seed = scene, timeline, seed
        self.turned = {0.0: (scene, _cell_samples(scene), scene.look.camera.project(CORNERS))}
        self.painter = _Painter(scene, timeline, fps, rng)
        self.overlay = scene.overlay_cover()  # in the unmirrored frame, for what it hides
        self.overlay_polys = _outlines(scene.overlay[1]) if scene.overlay else []
        self.sway = _sway(scene.look, rng) if scene.look.shake > 0 else None

    def _view(self, t: float) -> tuple[Scene, np.ndarray, np.ndarray]:
        """The scene as the board stands turned on its turntable at time t, its squares' sample
        points and its corners: a turned board is the same table seen by a camera moved round
        it, drawn with the same seed and the tiles as they lie."""
        degrees = round(self.timeline.turned(t) % 360, 1)
        if degrees not in self.turned:
            look = replace(self.scene.look, camera=turned(self.scene.look.camera, degrees))
            scene = Scene(look, self.seed)
            scene.poses = self.scene.poses
            self.turned[degrees] = (scene, _cell_samples(scene), look.camera.project(CORNERS))
            if len(self.turned) > 6:  # (the turns in progress are seen once each)
                del self.turned[next(k for k in self.turned if k % 90)]
        return self.turned[degrees]

    def shoot(self, board: Board, t: float, index: int) -> tuple[np.ndarray, dict]:
        scene, samples, corners = self._view(t)
        self.painter.scene = scene
        look = scene.look
        width, height = scene.size
        frame = scene.background(board).copy()
        cover, phase = self.painter.paint(frame, t)
        m = self.sway(t) if self.sway is not None else None
        if m is not None:
            frame = cv2.warpAffine(frame, m, scene.size, borderMode=cv2.BORDER_REFLECT_101)
        hand = cover is not None and bool((cover > 8).any())  # even a faint blurred edge
        # Hands move with the image (sample them unshaken); overlays stay put (sample shaken).
        hits = np.zeros(samples.shape[:2], bool)
        polygons = []
        if cover is not None:
            hits |= _covered(cover, samples)
            polygons = [_apply(m, p) for p in _outlines(cover)]
        if self.overlay is not None:
            moved = np.round(_apply(m, samples.reshape(-1, 2))).astype(int)
            hits |= _covered(self.overlay, moved.reshape(samples.shape))
        share = hits.mean(1).reshape(SIZE, SIZE)
        occluded = ["".join("1" if s >= OCCLUDED_SHARE else "0" for s in row) for row in share]
        corners = _apply(m, corners)
        rotation, angle = _orientation(corners)
        if look.mirrored:
            corners[:, 0] = width - 1 - corners[:, 0]
            for p in polygons:
                p[:, 0] = width - 1 - p[:, 0]
        polygons += self.overlay_polys
        record = {
            "phase": phase, "board": board.rows(), "corners": np.round(corners, 2).tolist(),
            "rotation": rotation, "angle": angle, "mirrored": look.mirrored,
            "occluded": occluded, "polygons": [np.round(p).astype(int).tolist() for p in polygons],
            "hand": hand,
        }
        return scene.finish(frame, index), record


def _look_summary(look: Look) -> dict:
    cam = look.camera
    return {"board": look.board.family, "tiles": look.tiles.family, "font": look.tiles.font,
            "tilt": round(cam.tilt, 1), "roll": round(cam.roll, 1), "k1": round(cam.k1, 3),
            "mirrored": look.mirrored, "jpeg": look.damage.jpeg, "shake": look.shake}


def render_frames(turns: list[RenderTurn], seed: int, fps: float = 10.0,
                  size: tuple[int, int] = (1280, 720), look: Look | None = None,
                  duration: float | None = None, rests: tuple[float, float] = (2.0, 4.0),
                  rethinks: float = 0.0, spins: float = 0.0
                  ) -> Iterator[tuple[np.ndarray, dict]]:
    """Every frame of the game (uint8 BGR) with its truth record; the first record also carries
    the video's look under 'look'. The look (styles, camera, light) is drawn from the seed unless
    given; its camera's size wins over `size`. `duration` (seconds) stretches the rests between
    turns so the game lasts that long (see timeline.spread); `rests`, `rethinks` and `spins` as
    in timeline.plan."""
    rng = np.random.default_rng(seed)
    drawn = draw_scene_look(rng, size)
    look = look or drawn
    scene_seed = int(rng.integers(2**31))
    scene = Scene(look, scene_seed)
    timeline = plan(list(turns), look.player_sides, look.hands, rng, rests, rethinks, spins)
    if duration is not None:
        timeline = spread(timeline, duration)
    shooter = _Shooter(scene, timeline, fps, rng, scene_seed)
    board = Board()
    changes = list(timeline.changes)
    last_change, ci = -np.inf, 0
    for f in range(int(np.ceil(timeline.duration * fps))):
        t = f / fps
        while ci < len(changes) and changes[ci].t <= t:
            c = changes[ci]
            board = board.with_tiles([(c.row, c.col, c.tile)]) if c.put else board.without(
                [(c.row, c.col)])
            last_change, ci = c.t, ci + 1
        frame, shot = shooter.shoot(board, t, f)
        turn = int(np.searchsorted(timeline.turn_starts, t, side="right")) - 1
        spun = max((s.t1 for s in timeline.spins if s.t0 <= t), default=-np.inf)
        record = {"frame": f, "t": round(t, 3), "turn": turn,
                  "player": turns[turn].player if turn >= 0 else None, **shot,
                  "settled": not shot["hand"] and t - max(last_change, spun) >= SETTLE_S}
        if f == 0:
            record["look"] = _look_summary(look)
        yield frame, record


def render_still(board: Board, seed: int, size: tuple[int, int] = (1280, 720),
                 hand: bool | None = None, look: Look | None = None) -> tuple[np.ndarray, dict]:
    """One frame of a board position in a fresh look (much cheaper than a game, for locator and
    reader training): its truth record as in render_frames, with 'look'. hand: whether a hand
    hovers over the board (None: half the time)."""
    rng = np.random.default_rng(seed)
    drawn = draw_scene_look(rng, size)
    look = look or drawn
    scene_seed = int(rng.integers(2**31))
    scene = Scene(look, scene_seed)
    reaches: tuple[Reach, ...] = ()
    if hand if hand is not None else rng.random() < 0.5:
        u, v = rng.uniform(0, 15, 2)
        h = float(rng.uniform(0.3, 4))
        player = int(rng.integers(2))
        reaches = (Reach(0, player, look.player_sides[player], "place", look.hands[player],
                         ((0.0, u, v, h), (1.0, u, v, h)), ()),)
    shooter = _Shooter(scene, Timeline(reaches, (), (0.0,), 1.0), 10.0, rng, scene_seed)
    frame, shot = shooter.shoot(board, 0.5, 0)
    return frame, {**shot, "look": _look_summary(look)}


def render_game(turns: list[RenderTurn], out: str | Path, seed: int = 0, fps: float = 10.0,
                size: tuple[int, int] = (1280, 720), look: Look | None = None,
                duration: float | None = None, rests: tuple[float, float] = (2.0, 4.0),
                rethinks: float = 0.0, spins: float = 0.0) -> Path:
    """Render a game to `out`: an .mp4 file (written with the 'mp4v' codec, truth beside it as
    NAME.truth.json) or a folder of frame_NNNNN.jpg files with truth.json. Returns the truth
    file's path. `duration`, `rests`, `rethinks` and `spins` as in render_frames."""
    out = Path(out)
    frames: list[dict] = []
    writer = None
    if out.suffix.lower() == ".mp4":
        out.parent.mkdir(parents=True, exist_ok=True)
        size = look.camera.size if look else size
        writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
        truth_path = out.with_suffix(".truth.json")
    else:
        out.mkdir(parents=True, exist_ok=True)
        truth_path = out / "truth.json"
    summary: dict = {}
    quality = 90
    try:
        for frame, record in render_frames(turns, seed, fps, size, look, duration, rests,
                                           rethinks, spins):
            if "look" in record:
                summary = record.pop("look")
                quality = int(summary["jpeg"]) or 92
            if writer is not None:
                writer.write(frame)
            else:
                cv2.imwrite(str(out / f"frame_{record['frame']:05d}.jpg"), frame,
                            [cv2.IMWRITE_JPEG_QUALITY, max(quality, 40)])
            frames.append(record)
    finally:
        if writer is not None:
            writer.release()
    truth = {"format": "tilecast-render-truth", "version": 1, "seed": seed, "fps": fps,
             "size": list(size), "look": summary, "doc": TRUTH_DOC, "frames": frames}
    truth_path.write_text(json.dumps(truth, separators=(",", ":")), encoding="utf-8")
    return truth_path
