"""The locator's stages on boards its network was not trained for: a printed margin that
continues the grid, a rough outline squares off, a stretched fit, the reasons for a miss."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.conftest import PREMIUM_BGR, PX, max_error_cells
from tilecast.engine.board import premium_name
from tilecast.vision.lattice import TRIM, combs, lattice_outlines
from tilecast.vision.locate import (
    BoardNotFound,
    Candidate,
    LocateConfig,
    fitted_candidates,
    halved,
    locate_board,
    order_corners,
)
from tilecast.vision.locate import _best as choose
from tilecast.vision.locate import stretched as stretched_pitch
from tilecast.vision.outlines import mirrored_network_outlines
from tilecast.vision.rectify import board_to_image, cell_size_px, corners_from_points

TRUTH = np.float32([[420, 120], [900, 140], [880, 620], [400, 600]])
EXTRA = 3  # squares of plain printed grid around the playing area, as on framed boards


def framed_board(rng: np.random.Generator, line: tuple = (60, 90, 110),
                 frame_at: float | None = None) -> np.ndarray:
    """A board whose plain grid runs EXTRA squares past the playing area on every side, with a
    column of tiles in that margin (a "SCRABBLE" column), in a 1280x720 frame. line: the grid
    lines' colour. frame_at: a pale mat round the board and a black picture frame from this
    many squares outside the playing area (their edges far stronger than faint grid lines)."""
    n = 15 + 2 * EXTRA
    side = n * PX + 2
    board = np.full((side, side, 3), line, np.uint8)
    for r in range(n):
        for c in range(n):
            y, x = r * PX + 2, c * PX + 2
            inside = EXTRA <= r < 15 + EXTRA and EXTRA <= c < 15 + EXTRA
            kind = premium_name(r - EXTRA, c - EXTRA) if inside else ""
            board[y:y + PX - 2, x:x + PX - 2] = PREMIUM_BGR.get(kind, (200, 230, 240))
            if (inside and rng.random() < 0.2) or (c == 1 and 4 <= r < 12):
                board[y + 3:y + PX - 5, x + 3:x + PX - 5] = (50, 80, 130)
    lo, hi = EXTRA * PX + 1, (15 + EXTRA) * PX + 1
    src = np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    frame = np.full((720, 1280, 3), (90, 100, 110) if frame_at is None else (230, 235, 240),
                    np.uint8)
    h = cv2.getPerspectiveTransform(src, TRUTH)
    cv2.warpPerspective(board, h, (1280, 720), frame, cv2.INTER_AREA, cv2.BORDER_TRANSPARENT)
    if frame_at is not None:
        inside = np.zeros((720, 1280), np.uint8)
        cv2.fillConvexPoly(inside, np.int32(outline_off_by(frame_at)), 1)
        frame[inside == 0] = (25, 25, 25)
    return cv2.GaussianBlur(frame, (3, 3), 0.7)


def outline_off_by(squares: float, stretch: float = 1.0) -> np.ndarray:
    """The truth's outline grown by `squares` on every side and stretched across."""
    unit = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]])
    grown = (unit - 7.5) * np.float32([stretch, 1.0]) * (15 + 2 * squares) / 15 + 7.5
    return cv2.perspectiveTransform(grown[None], board_to_image(TRUTH))[0]


def test_framed_board_is_found_inside_its_continued_grid():
    fix = locate_board(framed_board(np.random.default_rng(1)))
    assert max_error_cells(fix.corners, TRUTH) < 0.25


@pytest.mark.parametrize("off", [2.0, 3.0, -1.5])
def test_lattice_stage_finds_the_board_from_an_outline_squares_off(off):
    image = framed_board(np.random.default_rng(2))
    found = lattice_outlines(image, outline_off_by(off))
    assert found, "no lattice near the outline"
    agreement, corners = found[0]
    assert max_error_cells(corners, TRUTH) < 0.3
    assert agreement > 0.3
    # the outline itself was never near: the comb, not closeness, placed the board
    assert max_error_cells(outline_off_by(off), TRUTH) > 1.4


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_a_picture_frame_does_not_pull_the_comb_off_a_faint_grid(seed):
    """Faint grid lines inside a pale mat and a black frame, the outline on the frame 3.5
    squares out (a framed board turned on the wall: the network outlined the frame): the
    frame's and the mat's edges, many times stronger than a grid line, drew the strongest
    16-line comb to another pitch, 5 squares off. A comb scored without its strongest and
    weakest lines is searched beside it and finds the grid."""
    image = framed_board(np.random.default_rng(seed), line=(175, 205, 215), frame_at=3.5)
    agreement, corners = lattice_outlines(image, outline_off_by(3.5))[0]
    assert max_error_cells(corners, TRUTH) < 0.3
    assert agreement > 0.3


def test_a_few_strong_edges_do_not_pull_the_robust_comb():
    """The comb's score leaves out its 3 strongest and 3 weakest lines: 16 faint evenly spaced
    lines beat a comb of another pitch through two edges 10 times as strong."""
    profile = np.zeros(280, np.float32)
    profile[np.round(69.4 + 9.95 * np.arange(16)).astype(int)] = 30.0
    profile[[25, 47]] = (400.0, 250.0)
    plain, robust = combs(profile, 1)[0], combs(profile, 1, trim=TRIM)[0]
    assert abs(plain.pitch - 9.95) > 0.3
    assert abs(robust.pitch - 9.95) < 0.1
    assert abs((robust.start - 69.4) / 9.95 - round((robust.start - 69.4) / 9.95)) < 0.1


def _candidate(squares_off: float, contrast: float, agreement: float) -> Candidate:
    shift = squares_off * cell_size_px(TRUTH)
    return Candidate("test", TRUTH + np.float32([shift, 0]), contrast, 32, agreement, "")


def test_a_far_fit_tied_on_the_layout_loses_to_a_much_clearer_grid():
    """Tiles over most premium squares (a vintage board, seen tilted): a fit 4.4 squares off
    agreed 0.134 with the layout, the board's own 0.119, and was chosen; the board's grid shows
    far more clearly (contrast 2.87 against 1.83), and that now decides."""
    wrong, right = _candidate(4.4, 1.83, 0.134), _candidate(0.0, 2.87, 0.119)
    assert choose([wrong, right]) is right
    # a clear lead on the layout still wins, and so does the better layout between near fits
    assert choose([_candidate(4.4, 1.83, 0.20), right]).agreement == 0.20
    near = _candidate(0.5, 1.83, 0.134)
    assert choose([near, right]) is near


def test_a_stretched_grid_is_told_apart():
    gray = cv2.cvtColor(framed_board(np.random.default_rng(3)), cv2.COLOR_BGR2GRAY)
    assert stretched_pitch(gray, TRUTH, 0.07) is None
    pitch = stretched_pitch(gray, outline_off_by(0.0, stretch=18 / 15), 0.07)
    assert pitch is not None and abs(pitch - 15 / 18) < 0.05


def test_a_faint_grid_is_not_taken_for_a_stretched_one():
    """A white board with faint lines, a fold line and scattered tiles: at the playing area,
    a comb at 0.83 squares is about as strong as the grid's own, which once rejected the
    right fit as stretched and chose the dark frame's edge, 1.8 squares out."""
    from tilecast.vision.locate import order_corners
    from tilecast.vision.render import render_still, scattered_board

    image, truth = render_still(scattered_board(np.random.default_rng(1016)), seed=1016,
                                hand=False)
    assert truth["look"]["board"] == "white_modern"
    fix = locate_board(image)
    assert max_error_cells(fix.corners, order_corners(np.float32(truth["corners"]))) < 0.7


def _hand_over_white_board() -> tuple[np.ndarray, np.ndarray]:
    from tilecast.vision.render import render_still, scattered_board

    image, truth = render_still(scattered_board(np.random.default_rng(1097)), seed=1097,
                                hand=True)
    assert truth["look"]["board"] == "white_modern"
    return image, order_corners(np.float32(truth["corners"]))


def test_a_fit_faint_in_both_grid_and_layout_is_no_fix():
    """A hand over a white board (74 tiles): the network's outline, 2.2 squares off, passed both
    the contrast and the layout threshold, only just; read, it would have put every tile on
    the wrong square without a word. It is rejected, and the network's second look, at the
    mirrored frame, finds the board."""
    image, truth = _hand_over_white_board()
    candidates = fitted_candidates(image)
    assert any("both faint" in c.rejected for c in candidates if "mirrored" not in c.source)
    fix = locate_board(image)
    assert max_error_cells(fix.corners, truth) < 0.25


def test_the_mirrored_look_needs_a_clearer_layout():
    """The second look is tried only on frames the first could not fix, the hardest ones: its
    fit must show the premium layout more clearly than a first look's, or the frame is missed
    (and a video tries the next)."""
    image, _ = _hand_over_white_board()
    with pytest.raises(BoardNotFound, match="needs 0.5"):
        locate_board(image, LocateConfig(second_look_agreement=0.5))


def test_a_doubtful_first_look_is_weighed_against_the_mirrored_one():
    """A hand over a purple board: the first look's only accepted fit is 5.5 squares off and
    agrees 0.12 with the premium layout. Under LocateConfig.doubtful_agreement the mirrored
    look is taken too, and its fit (0.6, on the board) is chosen; without that rule the wrong
    fit was the fix."""
    from tilecast.vision.render import render_still, scattered_board

    image, truth = render_still(scattered_board(np.random.default_rng(1181)), seed=1181,
                                hand=True)
    truth = order_corners(np.float32(truth["corners"]))
    first = [c for c in fitted_candidates(image) if not c.rejected and "mirrored" not in c.source]
    assert first and max(c.agreement for c in first) < LocateConfig().doubtful_agreement
    assert min(max_error_cells(c.corners, truth) for c in first) > 2
    assert max_error_cells(locate_board(image).corners, truth) < 0.25
    blind = locate_board(image, LocateConfig(doubtful_agreement=0.0))
    assert max_error_cells(blind.corners, truth) > 2


def test_the_mirrored_look_is_put_back_in_the_frame():
    image, truth = _hand_over_white_board()
    looks = mirrored_network_outlines(image)
    assert looks and all(o.source.endswith("mirrored") for o in looks)
    assert min(max_error_cells(o.corners, truth) for o in looks) < 1.0


def test_every_rejected_candidate_says_why():
    image = np.full((720, 1280, 3), 140, np.uint8)
    cv2.rectangle(image, (300, 100), (900, 650), (60, 60, 60), -1)  # a dark box, no grid
    for candidate in fitted_candidates(image):
        assert candidate.rejected
    with pytest.raises(BoardNotFound, match="grid|outline|premium"):
        locate_board(image)


def test_strict_agreement_rejects_what_a_loose_one_accepts():
    image = framed_board(np.random.default_rng(4))
    accepted = [c for c in fitted_candidates(image) if not c.rejected]
    best = max(c.agreement for c in accepted)
    with pytest.raises(BoardNotFound, match="premium layout explains"):
        locate_board(image, LocateConfig(min_agreement=best + 0.01))


def test_corners_in_any_order_come_back_in_the_vision_order():
    want = TRUTH
    for order in ([0, 1, 2, 3], [3, 2, 1, 0], [0, 2, 1, 3], [2, 0, 3, 1]):
        got = corners_from_points(TRUTH[order], (1280, 720))
        assert np.array_equal(got, want)


@pytest.mark.parametrize("points, message", [
    ([[np.nan, 0], [10, 0], [10, 10], [0, 10]], "finite"),
    ([[5, 5]] * 4, "line"),
    ([[0, 0], [100, 0], [200, 0], [300, 0]], "line"),
    ([[0, 0], [300, 0], [150, 40], [150, 300]], "inside"),
    ([[0, 0], [20, 0], [20, 20], [0, 20]], "too close"),
    ([[0, 0], [2000, 0], [300, 300], [0, 300]], "outside"),
])
def test_bad_corners_are_refused_with_the_reason(points, message):
    with pytest.raises(ValueError, match=message):
        corners_from_points(np.array(points, float), (1280, 720))


def test_cell_size_of_the_drawn_frame():
    assert 30 < cell_size_px(TRUTH) < 34


def test_a_fit_over_half_the_board_is_told_apart():
    """A 15x15 fit over 7.5 squares of the board's width (a shrunk photo's edge candidate, 6.3
    squares off, beat the right fit on premium agreement): every second fitted line lies
    mid-square, a repeat of 2 squares that no 16-line comb in the view can reach."""
    gray = cv2.cvtColor(framed_board(np.random.default_rng(3)), cv2.COLOR_BGR2GRAY)
    half = np.float32([[4, 0], [11.5, 0], [11.5, 15], [4, 15]])
    corners = cv2.perspectiveTransform(half[None], board_to_image(TRUTH))[0]
    assert halved(gray, corners)
    assert not halved(gray, TRUTH)
