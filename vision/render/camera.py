"""A pinhole camera with radial lens distortion looking at the board.

Board coordinates (u, v, w) are in squares: (0, 0, 0) is the outer corner of square 1A, u runs
along row 1 towards column O, v down the columns towards row 15, and w = u x v points into the
table, so things above the board have negative w. The camera sits above the board (w < 0).

Distortion maps distorted normalised image coordinates d to undistorted ones as
u = d (1 + k1 |d|^2 + k2 |d|^4), so remapping the image is direct and projecting points needs a
few fixed-point steps.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True, eq=False)
class Camera:
    K: np.ndarray  # 3x3 intrinsics
    R: np.ndarray  # 3x3, board axes to camera axes (x right, y down, z forward)
    C: np.ndarray  # camera centre in board coordinates
    k1: float
    k2: float
    size: tuple[int, int]  # (width, height)
    tilt: float  # degrees from looking straight down
    roll: float  # degrees, in-plane rotation of the view

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Board points [N, 3] (or [N, 2] on the board plane) to distorted pixel coords [N, 2].

        Pixel centres are at integer coordinates (OpenCV's convention)."""
        pts = np.asarray(pts, np.float64)
        if pts.shape[1] == 2:
            pts = np.hstack([pts, np.zeros((len(pts), 1))])
        cam = (pts - self.C) @ self.R.T
        und = cam[:, :2] / cam[:, 2:3]
        d = und.copy()
        for _ in range(30):
            r2 = (d * d).sum(1, keepdims=True)
            d = und / (1 + self.k1 * r2 + self.k2 * r2 * r2)
        return d @ self.K[:2, :2].T + self.K[:2, 2]

    def plane_points(self, w: float = 0.0) -> np.ndarray:
        """For every pixel, where its ray meets the plane at depth w: [H, W, 2] in (u, v)."""
        width, height = self.size
        x, y = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height,
                                                                         dtype=np.float64))
        dx = (x - self.K[0, 2]) / self.K[0, 0]
        dy = (y - self.K[1, 2]) / self.K[1, 1]
        r2 = dx * dx + dy * dy
        f = 1 + self.k1 * r2 + self.k2 * r2 * r2
        rays = np.stack([dx * f, dy * f, np.ones_like(dx)], -1) @ self.R  # board axes
        t = (w - self.C[2]) / np.where(rays[..., 2] > 1e-6, rays[..., 2], 1e-6)
        return (self.C[:2] + rays[..., :2] * t[..., None]).astype(np.float32)

    def square_px(self, u: float, v: float) -> float:
        """Size in pixels of one board square around board point (u, v)."""
        p = self.project(np.array([[u - 0.5, v], [u + 0.5, v], [u, v - 0.5], [u, v + 0.5]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[3] - p[2])) / 2)


def turned(cam: Camera, degrees: float) -> Camera:
    """The camera as it sees the board once the board is turned `degrees` on a turntable about
    its centre (from row 1 towards column O): the camera moved round the board the other way,
    so the board, its tiles and the hands keep their board coordinates."""
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0, 0, 1.0]])
    centre = np.array([7.5, 7.5, 0.0])
    return replace(cam, R=cam.R @ turn, C=centre + turn.T @ (cam.C - centre))


def look_at(centre: np.ndarray, target: np.ndarray, up_hint: np.ndarray) -> np.ndarray:
    """Rotation whose rows are the camera's x (right), y (down) and z (forward) in board axes."""
    z = target - centre
    z /= np.linalg.norm(z)
    x = np.cross(-up_hint, z)  # camera y points down the image, i.e. against up_hint
    if np.linalg.norm(x) < 1e-6:
        x = np.cross(np.array([0.0, 1.0, 0.0]), z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return np.stack([x, y, z])


def draw_camera(rng: np.random.Generator, size: tuple[int, int], extent: float = 17.0
                ) -> Camera:
    """A random camera that frames the board: overhead to 40 degrees of tilt, any azimuth and
    in-plane rotation, focal length and distance such that the board fills much of the frame
    and the whole playing area is in view (as any camera that records a game must have it).

    extent is the board's outer size in squares (grid and frame).
    """
    width, height = size
    shrink = 1.0
    while True:
        tilt = float(rng.uniform(0, 40) if rng.random() < 0.8 else rng.uniform(0, 12))
        azimuth = float(rng.uniform(0, 2 * np.pi))
        fov = np.radians(rng.uniform(45, 75))
        f = width / 2 / np.tan(fov / 2)
        fill = rng.uniform(0.75, 1.2) * shrink
        dist = f * extent / (fill * height)
        target = np.array([7.5, 7.5, 0.0]) + np.append(rng.normal(0, 0.8, 2), 0)
        t = np.radians(tilt)
        horiz = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
        centre = target - horiz * dist * np.sin(t) + np.array([0, 0, -dist * np.cos(t)])
        # The image's up points away from the camera (the far side of the board is at the top),
        # then the view is turned: mostly near a quarter turn, sometimes anywhere.
        roll = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 4)) if rng.random() < 0.7 \
            else float(rng.uniform(0, 360))
        if tilt < 3:
            roll = float(rng.uniform(0, 360)) if rng.random() < 0.3 else roll
        up = horiz * np.cos(np.radians(roll)) + np.cross(horiz, [0, 0, -1.0]) * np.sin(
            np.radians(roll))
        rot = look_at(centre, target, up)
        k = np.array([[f, 0, (width - 1) / 2 + rng.normal(0, width * 0.01)],
                      [0, f, (height - 1) / 2 + rng.normal(0, height * 0.01)], [0, 0, 1]])
        k1, k2 = (float(rng.uniform(-0.06, 0.22)), float(rng.uniform(-0.02, 0.04))) \
            if rng.random() < 0.7 else (0.0, 0.0)
        cam = Camera(k, rot, centre, k1, k2, size, tilt, roll)
        corners = cam.project(np.array([[0, 0], [15, 0], [15, 15], [0, 15]], float))
        inside = ((corners >= 0) & (corners <= (width - 1, height - 1))).all()
        if inside:
            return cam
        shrink *= 0.97  # near 45 degrees a large board cannot fit a wide frame
