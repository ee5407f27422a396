"""The premium-square check that catches grid fits locked a whole square off."""

import numpy as np

from tilecast.engine.board import Board
from tilecast.vision.grid import _shifted
from tilecast.vision.premiums import best_shift
from tilecast.vision.render import render_still


def test_a_fit_one_square_off_is_told_by_the_premium_layout():
    rows = ["." * 15] * 6 + ["...CAT.........", "....ODE........"] + ["." * 15] * 7
    board = Board.from_rows(rows)
    for seed in (3, 8, 21):
        image, truth = render_still(board, seed=seed, hand=False)
        corners = np.float32(truth["corners"])
        assert best_shift(image, corners)[0] == (0, 0)
        for du, dv in ((1, 0), (0, -1), (-1, 1)):
            shift, best, unshifted = best_shift(image, _shifted(corners, (du, dv)))
            assert shift == (-du, -dv), (seed, du, dv)
            assert best > 1.3 * unshifted + 0.05  # what refine_to_grid needs to move
