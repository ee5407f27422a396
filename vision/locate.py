"""Find the board's 15x15 playing area in a camera frame, with no markers, in one direction:

1. candidate outlines (vision.outlines): the network's and the frame's large quadrilaterals
   (and, when none of them leads to a board the premium layout clearly fits, the network's
   look at the mirrored frame);
2. lattice fit (vision.lattice): near each outline, where the grid's 16 + 16 evenly spaced
   lines are, wherever the outline was (a margin, a title, a box in front);
3. grid refinement (vision.grid): the lines pinned to the pixel, a fit a line off moved back;
4. premium check (vision.premiums): how much of the squares' colours the premium layout
   explains there, which only the true 15x15 window explains well;
5. choice: the candidate the premium layout fits best, among those whose grid shows clearly
   and is not stretched (or a far one as good on the layout whose grid shows much more
   clearly); never the one nearest the network's guess.
Each rejected candidate keeps its reason; BoardNotFound says them when none is left.
Tracking (`track`) follows a known fix from frame to frame with stage 3 alone.

Corner order, everywhere in tilecast.vision: clockwise as seen in the image, starting with
the corner nearest the image's top-left pixel. Which of them is square 1A (and whether the
feed is mirrored) is decided later, from the tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .grid import GridFit, grid_contrast, refine_to_grid, smooth_for_grid
from .lattice import PX, combs, edge_profiles, edges, lattice_outlines
from .outlines import DEFAULT_MODEL, Outline, candidate_outlines, mirrored_network_outlines
from .outlines import order_corners as order_corners
from .premiums import layout_agreement, square_colours
from .rectify import cell_size_px, warp_board


class BoardNotFound(Exception):
    """No playing area could be found (or trusted) in the frame; the message says why."""


@dataclass(frozen=True)
class LocateConfig:
    model_path: Path = DEFAULT_MODEL
    threads: int = 1  # onnxruntime threads; the app reads several cameras on few cores
    min_contrast: float = 1.3  # grid-line edge strength over off-line strength, to accept
    min_agreement: float = 0.08  # share of the squares' colour variance the layout explains
    min_lines: int = 12  # grid lines (of 32) the last refinement pass must have found
    track_shift: float = 1.0  # cells a tracked corner may move from the fix being followed
    stretch: float = 0.07  # a grid whose lines repeat at a pitch this far from 1 is stretched
    # BoardFix.quality a first fix needs: a fit only just over both the contrast and the layout
    # thresholds (each lenient, for boards weak in one of them) was a wrong fit in every case
    # measured (rendered stills, and real photos with a box over the near edge)
    min_quality: float = 0.06
    # premium agreement a fit from the network's second, mirrored look needs (tried only when
    # every first-look candidate was rejected): on rendered stills with a hand, its wrong fits
    # (1.1 to 4.5 squares off) agreed 0.084-0.088, its right ones mostly 0.11 or more
    second_look_agreement: float = 0.10
    # a first look whose best fit agrees less than this is doubtful: the second look is taken
    # too, and a fit from it must agree this much to be chosen over the first look's (on
    # rendered stills with a hand its wrong fits agreed up to 0.13; on altered boards-dev
    # photos its right ones 0.26 and 0.35, over first-look fits 4-6 squares off)
    doubtful_agreement: float = 0.20


@dataclass(frozen=True)
class BoardFix:
    """Where the playing area is: corners (4, 2) float32 in image pixels, order as above."""

    corners: np.ndarray = field(repr=False)
    quality: float  # 0-1: how clearly a 15x15 grid shows there; under about 0.5, doubtful


@dataclass(frozen=True)
class Candidate:
    """One fitted candidate and what was judged of it."""

    source: str
    corners: np.ndarray = field(repr=False)
    contrast: float
    lines: int
    agreement: float
    rejected: str  # '' when accepted


def locate_board(image: np.ndarray, cfg: LocateConfig | None = None) -> BoardFix:
    """Find the playing area in a BGR frame, or raise BoardNotFound saying why."""
    cfg = cfg or LocateConfig()
    candidates = fitted_candidates(image, cfg)
    best = _best(candidates)
    if best is None:
        raise BoardNotFound(_reasons(candidates))
    return BoardFix(best.corners, _quality(best.contrast, best.lines, best.agreement))


def fitted_candidates(image: np.ndarray, cfg: LocateConfig | None = None) -> list[Candidate]:
    """The candidates the stages produce for a frame, fitted and judged, in the order made.

    The search runs on the frame shrunk to about WORK_PX pixels a square (the grid is found as
    well there, at a fraction of the cost); the chosen fit is pinned down again at full size.
    It stops at the first candidate whose premium agreement is CONVINCING, or once an outline's
    own fit is confirmed by the lattice found near it (most frames: the network's outline)."""
    cfg = cfg or LocateConfig()
    outlines = candidate_outlines(image, cfg.model_path, cfg.threads)
    if not outlines:
        return []
    scale = min(1.0, WORK_PX / max(cell_size_px(o.corners) for o in outlines))
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                  interpolation=cv2.INTER_AREA)
    gray = _gray(small)
    out: list[Candidate] = []

    def convinced() -> bool:
        return any(c.agreement >= CONVINCING and not c.rejected for c in out)

    def fit(outline: Outline, cfg: LocateConfig = cfg) -> bool:
        """Fit the outline and the lattices near it; whether the search can stop."""
        start = _scaled(outline.corners, scale)
        direct = _judge(small, outline.source, start, cfg)
        out.append(direct)
        if convinced():
            return True
        for _, corners in lattice_outlines(small, start):
            if not any(_same(corners, c.corners, NEAR) for c in out):
                out.append(_judge(small, f"{outline.source}, lattice", corners, cfg))
        return convinced() or _confirmed(direct, out)

    if not any(fit(o) for o in outlines):
        out += _again(small, out, cfg)
        accepted = [c.agreement for c in out if not c.rejected]
        if not accepted or max(accepted) < cfg.doubtful_agreement:
            floor = cfg.doubtful_agreement if accepted else cfg.second_look_agreement
            looks = mirrored_network_outlines(image, cfg.model_path, cfg.threads)
            any(fit(o, replace(cfg, min_agreement=floor)) for o in looks)
    _check_stretch(out, gray, cfg)
    out = [_at_full_size(c, scale) for c in out]
    _pin_best(image, out, scale)
    return out


# Tiles over the premium squares blur the layout's evidence: a fit squares off can then agree
# about as well as the board's own (a vintage board covered in tiles, seen tilted: 0.134 at 4.4
# squares off against 0.119), while its grid shows far less clearly (contrast 1.83 against
# 2.87). Within TIE of the best agreement, a fit more than a square away whose BoardFix.quality
# is CLEARER times the best one's is the board.
TIE = 0.03
CLEARER = 1.5


def _best(candidates: list[Candidate]) -> Candidate | None:
    """The accepted candidate the premium layout fits best, unless a far one ties on the
    layout and shows its grid much more clearly (TIE, CLEARER)."""
    accepted = [c for c in candidates if not c.rejected]
    if not accepted:
        return None
    best = max(accepted, key=lambda c: c.agreement)
    rival = max(accepted, key=_candidate_quality)
    if (not _same(rival.corners, best.corners, 1.0) and rival.agreement >= best.agreement - TIE
            and _candidate_quality(rival) > CLEARER * _candidate_quality(best)):
        return rival
    return best


def _candidate_quality(c: Candidate) -> float:
    return _quality(c.contrast, c.lines, c.agreement)


AGAIN = 3  # the best candidates whose lattice is searched again from their own fit


def _again(image: np.ndarray, candidates: list[Candidate], cfg: LocateConfig
           ) -> list[Candidate]:
    """The best candidates' lattices found again from their fits: an outline in the wrong
    perspective can give a lattice skewed at one corner, which a second search from the
    nearly right fit straightens."""
    best = sorted((c for c in candidates if not c.rejected), key=lambda c: -c.agreement)
    more: list[Candidate] = []
    for c in best[:AGAIN]:
        found = lattice_outlines(image, c.corners, keep=1)
        if found and not any(_same(found[0][1], o.corners) for o in candidates + more):
            more.append(_judge(image, f"{c.source}, again", found[0][1], cfg))
    return more


WORK_PX = 24  # pixels a square the search runs at
CONVINCING = 0.35  # premium agreement that no misplaced grid came near on any real photo


def _scaled(corners: np.ndarray, scale: float) -> np.ndarray:
    """Corners in an image resized by `scale` (pixel centres kept)."""
    return ((np.asarray(corners, np.float32) + 0.5) * scale - 0.5).astype(np.float32)


def _at_full_size(c: Candidate, scale: float) -> Candidate:
    """A candidate found on the shrunk frame, its corners put back on the full one."""
    return c if scale == 1.0 else replace(c, corners=_scaled(c.corners, 1 / scale))


def _pin_best(image: np.ndarray, candidates: list[Candidate], scale: float) -> None:
    """The chosen candidate refined once more on the full frame (where the search ran on a
    shrunk one). A refined fit that is halved (a shrunk photo's grid can pull it onto half
    the board, 6 squares off) is rejected, and the next best is tried."""
    gray = _gray(image)
    while (best := _best(candidates)) is not None:
        i = next(k for k, c in enumerate(candidates) if c is best)
        corners = best.corners
        if scale != 1.0:
            corners = _refine(image, corners, shifts=False).corners
        if not halved(gray, corners):
            candidates[i] = replace(best, corners=corners)
            return
        candidates[i] = replace(best, corners=corners, rejected="grid halved: every other "
                                "fitted line lies mid-square (half the board mapped onto 15)")


def _check_stretch(candidates: list[Candidate], gray: np.ndarray, cfg: LocateConfig) -> None:
    """Reject, best first, the accepted candidates whose grid is stretched, until one is not
    (the others cannot be chosen, so they need no check)."""
    for i in sorted(range(len(candidates)), key=lambda i: -candidates[i].agreement):
        c = candidates[i]
        if c.rejected:
            continue
        pitch = stretched(gray, c.corners, cfg.stretch)
        if pitch is None:
            return
        candidates[i] = replace(c, rejected=f"grid stretched: its lines repeat every "
                                f"{pitch:.2f} squares")


NEAR = 0.35  # squares: a start this near a fit already made converges to it


def _same(a: np.ndarray, b: np.ndarray, near: float = 0.2) -> bool:
    return float(np.abs(a - b).max()) < near * cell_size_px(b)


def _confirmed(direct: Candidate, candidates: list[Candidate]) -> bool:
    """Whether an outline's own fit is the best candidate so far and its lattice search,
    made independently of it, found the same grid: the outline was on the board."""
    accepted = [c for c in candidates if not c.rejected]
    if direct.rejected or max(c.agreement for c in accepted) > direct.agreement + 0.02:
        return False
    return any(c is not direct and _same(c.corners, direct.corners) for c in accepted)


def _judge(image: np.ndarray, source: str, start: np.ndarray, cfg: LocateConfig) -> Candidate:
    fit = _refine(image, np.asarray(start, np.float32))
    agreement = layout_agreement(square_colours(image, fit.corners))
    why = ""
    if fit.lines < cfg.min_lines:
        why = f"{fit.lines} grid lines found, needs {cfg.min_lines}"
    elif fit.contrast < cfg.min_contrast:
        why = f"grid contrast {fit.contrast:.2f}, needs {cfg.min_contrast}"
    elif agreement < cfg.min_agreement:
        why = f"premium layout explains {agreement:.2f} of the colours, needs {cfg.min_agreement}"
    elif (q := _quality(fit.contrast, fit.lines, agreement)) < cfg.min_quality:
        why = (f"grid and premium layout both faint (quality {q:.2f}, needs "
               f"{cfg.min_quality})")
    return Candidate(source, fit.corners, fit.contrast, fit.lines, agreement, why)


STRETCH_MARGIN = 1.25  # how much stronger than any unstretched comb a stretched one must be
# A fit maps 7.5 squares onto 15 when its odd (or even) interior lines stand out of the edge
# profile (their mean over HALF_CLEAR times its mean size) and the others lie below the local
# background by HALF_FLOOR of that. On boards-dev (as taken and shrunk) every true fit had
# both parities above the background; the half fits stood at 2.2-2.9 and -0.24 to -0.39, a
# drawn board's at 2.0 and -0.41.
HALF_CLEAR = 1.5
HALF_FLOOR = -0.15


def stretched(gray: np.ndarray, corners: np.ndarray, tolerance: float) -> float | None:
    """The pitch, in squares, at which the grid's lines really repeat when that is not 1 (a
    fit that maps 18 squares onto 15, say), else None.

    Only a comb clearly stronger than the best one at a pitch of 1 counts: on a board whose
    grid lines are faint, tile edges and a fold line can make a comb at another pitch about
    as strong as the grid's own, while a truly stretched fit leaves the grid's lines well off
    any comb of pitch 1."""
    cols, rows = _profiles(gray, corners)
    for profile in (cols, rows):
        padded = np.pad(profile, 3 * PX, mode="reflect")
        best = combs(padded, 1, (0.75, 1.1))
        if not best or abs(best[0].pitch / PX - 1) <= tolerance:
            continue
        unit = combs(padded, 1, (1 - tolerance, 1 + tolerance))
        if not unit or best[0].score > STRETCH_MARGIN * unit[0].score:
            return best[0].pitch / PX
    return None


def _profiles(gray: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge profiles across and down the board seen top-down through `corners`."""
    view = warp_board(smooth_for_grid(gray, corners).astype(np.float32), corners, PX, 0.0)
    return edge_profiles(edges(view), 0, view.shape[0])


def halved(gray: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a fit maps half the board's width or height onto 15 squares. Judged on the
    full-size frame: shrunk to the search's scale, the board's own lines blur into the
    fit's mid-square ones."""
    return any(_every_other_line_missing(p) for p in _profiles(gray, corners))


def _every_other_line_missing(profile: np.ndarray) -> bool:
    """Whether the fit's odd or even interior lines (of a profile over the fitted board, 15
    squares wide) stand on no grid line: a 15x15 fit over half the board's width lays every
    second line mid-square, where comb pitches over 1.1 cannot be searched (16 lines at pitch 2
    do not fit in the view)."""
    at = np.arange(1, 15) * len(profile) / 15
    strength = np.interp(at, np.arange(len(profile)), profile)
    even, odd = strength[0::2].mean(), strength[1::2].mean()
    strong = max(even, odd)
    clear = strong > HALF_CLEAR * float(np.abs(profile).mean())
    return clear and min(even, odd) < HALF_FLOOR * strong


def _quality(contrast: float, lines: int, agreement: float) -> float:
    q = min(1.0, (contrast - 1.0) / 4.0) * min(1.0, lines / 28) * min(1.0, agreement / 0.3)
    return float(np.clip(q, 0.0, 1.0))


def _reasons(candidates: list[Candidate]) -> str:
    if not candidates:
        return "no board-like outline in the frame"
    lines = sorted(candidates, key=lambda c: -c.agreement)[:3]
    return "no 15x15 grid with the premium layout: " + "; ".join(
        f"{c.source}: {c.rejected}" for c in lines)


def track(image: np.ndarray, previous: BoardFix, cfg: LocateConfig | None = None) -> BoardFix:
    """Follow a board that moved a little since `previous`, without the network.

    Keeps the previous corner order, so a board near 45 degrees does not change its first
    corner from frame to frame. Raises BoardNotFound when the grid no longer shows at the old
    place (the board moved too far, or a hand hides too much of it): call locate_board() then.
    """
    cfg = cfg or LocateConfig()
    fit = _refine(image, previous.corners, shifts=False)
    shift = float(np.linalg.norm(fit.corners - previous.corners, axis=1).max())
    shift /= cell_size_px(fit.corners)
    if fit.contrast < cfg.min_contrast or shift > cfg.track_shift:
        raise BoardNotFound(
            f"the grid no longer shows where the board was (grid contrast {fit.contrast:.2f}, "
            f"needs {cfg.min_contrast}; corners moved {shift:.2f} squares, at most "
            f"{cfg.track_shift})"
        )
    quality = min(1.0, (fit.contrast - 1.0) / 4.0) * min(1.0, fit.lines / 28)
    return BoardFix(fit.corners, float(np.clip(quality, 0.0, 1.0)))


def grid_evidence(image: np.ndarray, corners: np.ndarray) -> float:
    """How clearly a 15x15 grid shows exactly at `corners` (the contrast a fit there has)."""
    smoothed, local, _, _ = _crop(image, np.asarray(corners, np.float32))
    return grid_contrast(smoothed, local)


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _refine(image: np.ndarray, corners: np.ndarray, shifts: bool = True) -> GridFit:
    """Grid refinement on a crop around the board, so the cost does not grow with the frame."""
    smoothed, local, offset, roi = _crop(image, corners)
    fit = refine_to_grid(smoothed, local, roi, shifts=shifts)
    return GridFit(fit.corners + offset, fit.contrast, fit.lines)


def _crop(image: np.ndarray, corners: np.ndarray):
    """(smoothed grey crop, corners in it, its offset, the colour crop) around the board."""
    gray = _gray(image)
    pad = 2.0 * cell_size_px(corners)
    x0, y0 = np.maximum(np.floor(corners.min(0) - pad), 0).astype(int)
    x1, y1 = np.ceil(corners.max(0) + pad).astype(int)
    offset = np.float32([x0, y0])
    local = corners - offset
    return smooth_for_grid(gray[y0:y1, x0:x1], local), local, offset, image[y0:y1, x0:x1]

