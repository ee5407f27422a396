"""Blank tiles as real sets print them: the renderer's blank marks land where real ones do."""

from dataclasses import replace

import numpy as np
import pytest

from tilecast.vision.render.styles import draw_tile_style
from tilecast.vision.render.tiles import tile_face

PX = 96
WHITE, NAVY = (235, 235, 235), (120, 40, 20)


def ink_of(mark: str, seed: int) -> np.ndarray:
    """[PX, PX] bool: where a blank with this mark differs from the same blank left plain."""
    style = draw_tile_style(np.random.default_rng(seed), "white_plastic")
    style = replace(style, face=WHITE, blank_mark_ink=NAVY, grain=0.0, gloss=0.0, bevel=0.0)
    plain, _ = tile_face(replace(style, blank_mark="plain"), "?", 0, PX)
    marked, _ = tile_face(replace(style, blank_mark=mark), "?", 0, PX)
    return np.abs(marked.astype(int) - plain.astype(int)).sum(2) > 60


@pytest.mark.parametrize("seed", range(6))
def test_a_crest_spans_most_of_the_face_about_its_centre(seed):
    ink = ink_of("shield", seed)
    ys, xs = np.nonzero(ink)
    assert xs.max() - xs.min() > 0.4 * PX
    assert abs(xs.mean() - PX / 2) < 0.1 * PX


@pytest.mark.parametrize("seed", range(6))
def test_a_badge_is_small_and_off_the_centre(seed):
    ink = ink_of("badge", seed)
    ys, xs = np.nonzero(ink)
    assert 0.005 * PX * PX < ink.sum() < 0.12 * PX * PX
    assert np.hypot(xs.mean() - PX / 2, ys.mean() - PX / 2) > 0.1 * PX
