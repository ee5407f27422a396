"""Find the 15 x 15 lattice of grid lines near a rough outline, however far off the outline is.

A rough outline (the network's, or last frame's) can take in a board's printed margin, a
"SCRABBLE" letter column or a box in front, so the playing area may be a few squares inside or
outside it and span 12 to 18 of its squares. Seen top-down through the outline, though, the grid
lines are one periodic comb: 16 evenly spaced lines per direction, with none between them. This
stage looks for that comb in the edge profile across the view (all of it, then band by band so
that a tilt the outline got wrong shows as a slant), and returns the playing area where the comb
says it is. vision.grid then pins the lines to the pixel; vision.premiums checks which 15 of a
longer run of lines are the board's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .premiums import layout_agreements
from .rectify import SIZE, board_to_image, cell_size_px, warp_board

PX = 12  # pixels per outline square in the search view
REACH = 4.0  # outline squares searched beyond the outline on every side
PITCH = (0.7, 1.3)  # the board's squares, in outline squares, that are searched
BANDS = 3  # bands across the view whose lines are found apart (a slant the outline missed)
LINES = SIZE + 1
# lines left out, at each end of their strengths' order, of a robust comb's score: a frame's or
# a mat's edge is many times stronger than a grid line, and one of them can pull the best comb
# to the wrong pitch; the robust comb is searched beside the plain one
TRIM = 3


@dataclass(frozen=True)
class Comb:
    """16 evenly spaced lines along one direction of the search view, in its pixels."""

    start: float  # the first line
    pitch: float  # pixels between lines
    score: float  # edge strength on the lines over that between them

    @property
    def lines(self) -> np.ndarray:
        return self.start + self.pitch * np.arange(LINES)


def search_view(gray: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """The image top-down through `outline` (4 corners, board order), REACH squares around it,
    at PX pixels a square, as float32 (smoothed first so the view does not alias)."""
    sigma = 0.45 * cell_size_px(outline) / PX
    img = gray.astype(np.float32)
    if sigma > 0.6:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    return warp_board(img, outline, PX, REACH)


def edges(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strength of vertical and of horizontal edges at every pixel of a view."""
    return (np.abs(cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3)),
            np.abs(cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3)))


def edge_profiles(strength: tuple[np.ndarray, np.ndarray], lo: float, hi: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Strength of vertical edges per column and of horizontal edges per row (from edges()),
    counted over the rows (columns) from lo to hi view pixels, each less its local
    background."""
    dx, dy = strength
    a, b = int(max(lo, 0)), int(min(hi, dx.shape[0]))
    return _detrend(dx[a:b].mean(0)), _detrend(dy[:, a:b].mean(1))


def _detrend(profile: np.ndarray) -> np.ndarray:
    base = cv2.blur(profile.reshape(1, -1).astype(np.float32), (2 * PX + 1, 1),
                    borderType=cv2.BORDER_REFLECT).ravel()
    return profile - base


def combs(profile: np.ndarray, keep: int = 3, pitches: tuple[float, float] = PITCH,
          near: Comb | None = None, trim: int = 0) -> list[Comb]:
    """The best 16-line combs in a profile, best first, at least a third of a pitch apart.

    Searched coarsely over all pitches and starts, then finely around the best coarse ones.
    near: look only within a third of a pitch and 4% of pitch of this comb (a band's lines
    follow the whole view's). trim: the strongest and weakest lines left out of the score."""
    if near is not None:
        return _search(profile, near.pitch * np.linspace(0.96, 1.04, 17),
                       lambda p: near.start + np.linspace(-p / 3, p / 3, 27), keep)
    n = len(profile)
    rough = _search(profile, np.arange(pitches[0] * PX, pitches[1] * PX, 0.2),
                    lambda p: np.arange(0, n - 15 * p - 1, 1.0), keep * 3, trim)
    fine = [c for r in rough for c in _search(
        profile, r.pitch + np.linspace(-0.2, 0.2, 9),
        lambda p, r=r: r.start + np.linspace(-1.0, 1.0, 9), 1, trim)]
    return _distinct(fine, keep)


def _search(profile: np.ndarray, pitches: np.ndarray, starts_of, keep: int, trim: int = 0
            ) -> list[Comb]:
    """The best distinct combs over these pitches, each pitch's starts given by starts_of
    (every pair scored in one go)."""
    n = len(profile)
    starts = [np.asarray(starts_of(p), np.float32) for p in pitches]
    pitch = np.concatenate([np.full(len(st), p, np.float32)
                            for p, st in zip(pitches, starts, strict=True)])
    start = np.concatenate(starts)
    fits = (start >= 0) & (start + 15 * pitch <= n - 1)
    pitch, start = pitch[fits], start[fits]
    if not len(start):
        return []
    k = np.arange(LINES, dtype=np.float32)
    x = np.arange(n, dtype=np.float32)
    on = np.interp(start[:, None] + pitch[:, None] * k, x, profile)
    off = np.interp(start[:, None] + pitch[:, None] * (k[:-1] + 0.5), x, profile)
    if trim:
        on = np.sort(on, axis=1)[:, trim:LINES - trim]
        off = np.sort(off, axis=1)[:, trim:LINES - 1 - trim]
    score = on.mean(1) - off.mean(1)
    best = np.argsort(-score)[:keep * 40]
    return _distinct([Comb(float(start[i]), float(pitch[i]), float(score[i])) for i in best],
                     keep)


def _alike(a: Comb, b: Comb) -> bool:
    """Whether two combs have the same pitch and lines (to a whole-line shift, which the
    premium placement tries anyway)."""
    if abs(a.pitch - b.pitch) > 0.02 * b.pitch:
        return False
    phase = (a.start - b.start) / b.pitch
    return abs(phase - round(phase)) < 0.15 and abs(round(phase)) <= SHIFTS


def _distinct(found: list[Comb], keep: int) -> list[Comb]:
    found = sorted(found, key=lambda c: -c.score)
    kept: list[Comb] = []
    for c in found:
        if all(abs(c.start - o.start) > o.pitch / 3 or abs(c.pitch - o.pitch) > 0.05 * o.pitch
               for o in kept):
            kept.append(c)
        if len(kept) == keep:
            break
    return kept


def lattice_outlines(image: np.ndarray, outline: np.ndarray, keep: int = 2
                     ) -> list[tuple[float, np.ndarray]]:
    """Candidate playing areas near `outline`: (premium layout agreement, corners in image
    pixels in the outline's order), best first.

    The combs give the grid's pitch and phase; which 16 of a longer run of evenly spaced lines
    bound the board (a margin column of tiles or a printed border continues the comb) is chosen
    by how well the premium layout fits the squares' colours, up to SHIFTS lines either way."""
    outline = np.asarray(outline, np.float32)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    view = search_view(gray, outline)
    colour = search_view(image, outline) if image.ndim == 3 else view[..., None]
    if colour.ndim == 3 and colour.shape[2] == 3:
        colour = cv2.cvtColor(np.clip(colour, 0, 255).astype(np.uint8),
                              cv2.COLOR_BGR2LAB).astype(np.float32)
    inner = (REACH * PX, (REACH + SIZE) * PX)
    strength = edges(view)
    cols, rows = edge_profiles(strength, *inner)
    across, down = combs(cols, 2), combs(rows, 2)
    pairs = [(u, v, keep) for i, u in enumerate(across) for j, v in enumerate(down)
             if not (i and j)]
    robust = combs(cols, 1, trim=TRIM), combs(rows, 1, trim=TRIM)
    if all(robust) and not any(_alike(robust[0][0], u) and _alike(robust[1][0], v)
                               for u, v, _ in pairs):
        pairs.append((robust[0][0], robust[1][0], 1))
    to_image = board_to_image(outline) @ _view_to_board()
    results = []
    for u, v, best in pairs:
        for agreement, su, sv in _placements(colour, u, v)[:best]:
            corners = _slanted_corners(strength, su, sv)
            results.append((agreement, cv2.perspectiveTransform(corners[None], to_image)[0]))
    results.sort(key=lambda r: -r[0])
    return results


SHIFTS = 3  # whole lines a comb's window may move to fit the premium layout


def _placements(colour: np.ndarray, across: Comb, down: Comb) -> list[tuple[float, Comb, Comb]]:
    """The combs moved by whole lines, with how well the premium layout fits each placement,
    best first (placements whose window leaves the view are skipped)."""
    m, side = SHIFTS, SIZE + 2 * SHIFTS
    k = np.arange(side, dtype=np.float32) - m + 0.5
    xs, ys = across.start + across.pitch * k, down.start + down.pitch * k
    box = max(1, int(0.6 * min(across.pitch, down.pitch))) | 1
    smooth = cv2.blur(colour, (box, box))
    mx, my = np.meshgrid(xs, ys)
    grid = cv2.remap(smooth, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
    grid = grid.reshape(side, side, -1)
    n = colour.shape[0]
    agreements = layout_agreements(grid)
    out = []
    for du in range(-m, m + 1):
        for dv in range(-m, m + 1):
            u = Comb(across.start + du * across.pitch, across.pitch, across.score)
            v = Comb(down.start + dv * down.pitch, down.pitch, down.score)
            if u.lines[0] < 0 or v.lines[0] < 0 or u.lines[-1] > n - 1 or v.lines[-1] > n - 1:
                continue
            out.append((float(agreements[m + dv, m + du]), u, v))
    out.sort(key=lambda r: -r[0])
    return out


def _view_to_board() -> np.ndarray:
    """Search-view pixels -> outline squares."""
    return np.array([[1 / PX, 0, -REACH], [0, 1 / PX, -REACH], [0, 0, 1]])


def _slanted_corners(strength: tuple[np.ndarray, np.ndarray], across: Comb, down: Comb
                     ) -> np.ndarray:
    """The playing area's corners in view pixels, from the combs refitted band by band: each
    outer line becomes a straight line through its bands' positions."""
    left, right = _band_ends(strength, across, down, 0)
    top, bottom = _band_ends(strength, down, across, 1)
    sides = [
        _line(left, vertical=True, fallback=(across.lines[0], True)),
        _line([p[::-1] for p in top], vertical=False, fallback=(down.lines[0], False)),
        _line(right, vertical=True, fallback=(across.lines[-1], True)),
        _line([p[::-1] for p in bottom], vertical=False, fallback=(down.lines[-1], False)),
    ]
    left_, top_, right_, bottom_ = sides
    return np.float32([_cross(left_, top_), _cross(right_, top_), _cross(right_, bottom_),
                       _cross(left_, bottom_)])


def _band_ends(strength: tuple[np.ndarray, np.ndarray], comb: Comb, other: Comb, axis: int
               ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Where `comb`'s first and last lines lie (position along the comb, position across it)
    in each of BANDS bands across the other comb's span; axis 0 for the columns' comb."""
    first, last = [], []
    lo0, hi0 = other.lines[0], other.lines[-1]
    for b in range(BANDS):
        lo = lo0 + (hi0 - lo0) * b / BANDS
        hi = lo0 + (hi0 - lo0) * (b + 1) / BANDS
        profile = edge_profiles(strength, lo, hi)[axis]
        got = combs(profile, 1, near=comb)
        if got:
            first.append((got[0].lines[0], (lo + hi) / 2))
            last.append((got[0].lines[-1], (lo + hi) / 2))
    return first, last


def _line(points: list[tuple[float, float]], vertical: bool,
          fallback: tuple[float, bool]) -> tuple[np.ndarray, np.ndarray]:
    """(point, direction) of the straight line through points, or the view-aligned line at
    the fallback position when fewer than two bands found it."""
    if len(points) < 2:
        at, is_vertical = fallback
        return ((np.array([at, 0.0]), np.array([0.0, 1.0])) if is_vertical else
                (np.array([0.0, at]), np.array([1.0, 0.0])))
    pts = np.array(points, np.float64)
    if vertical:  # x = a y + b
        a, b = np.polyfit(pts[:, 1], pts[:, 0], 1)
        return np.array([b, 0.0]), np.array([a, 1.0])
    a, b = np.polyfit(pts[:, 0], pts[:, 1], 1)  # y = a x + b
    return np.array([0.0, b]), np.array([1.0, a])


def _cross(p: tuple[np.ndarray, np.ndarray], q: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (a, u), (b, v) = p, q
    s = np.linalg.solve(np.array([u, -v]).T, b - a)[0]
    return a + s * u
