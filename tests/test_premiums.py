"""The premium-square check that catches grid fits locked a whole square off."""

import cv2
import numpy as np

from tilecast.engine.board import Board
from tilecast.vision.premiums import best_move
from tilecast.vision.rectify import board_to_image, cell_size_px
from tilecast.vision.render import render_still


def moved(corners: np.ndarray, u0: float, v0: float, u1: float, v1: float) -> np.ndarray:
    square = np.float32([[u0, v0], [u1, v0], [u1, v1], [u0, v1]])
    return cv2.perspectiveTransform(square[None], board_to_image(corners))[0]


def test_a_fit_a_square_off_all_round_or_on_one_side_is_told_by_the_premium_layout():
    rows = ["." * 15] * 6 + ["...CAT.........", "....ODE........"] + ["." * 15] * 7
    board = Board.from_rows(rows)
    for seed in (3, 8, 21):
        image, truth = render_still(board, seed=seed, hand=False)
        corners = np.float32(truth["corners"])
        found, best, unmoved = best_move(image, corners)
        assert np.allclose(found, corners, atol=1e-3) and best == unmoved
        # whole shifts are undone exactly; a side a square off leaves the fit's scale a
        # fifteenth off, which the grid lines then take out
        wrong_fits = [(1, 0, 16, 15), (0, -1, 15, 14), (-1, 1, 14, 16), (0, 0, 16, 15)]
        wrong_fits.append((0, 1, 15, 15))
        for fit in wrong_fits:
            found, best, unmoved = best_move(image, moved(corners, *fit))
            error = np.linalg.norm(found - corners, axis=1).max() / cell_size_px(corners)
            assert error < 0.1, (seed, fit, error)
            assert best > 1.3 * unmoved + 0.05  # what refine_to_grid needs to move


def test_a_fit_with_one_corner_a_square_off_is_moved_back():
    board = Board.from_rows(["." * 15] * 7 + [".....HEX.......", ] + ["." * 15] * 7)
    image, truth = render_still(board, seed=5, hand=False)
    corners = np.float32(truth["corners"])
    square = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]])
    for corner, step in ((1, (1, 0)), (3, (0, -1)), (2, (-1, 0))):
        skewed = square.copy()
        skewed[corner] += step
        fit = cv2.perspectiveTransform(skewed[None], board_to_image(corners))[0]
        found, best, unmoved = best_move(image, fit)
        error = np.linalg.norm(found - corners, axis=1).max() / cell_size_px(corners)
        assert error < 0.1, (corner, step, error)  # the grid lines take out the rest
        assert best > unmoved + 0.1  # refine_to_grid moves only on a clearer gain than this
