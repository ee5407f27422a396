"""The altered photos of benchmarks/real_eval.py --variants carry their labelled corners along:
a corner that moved differently from the image would count right fixes as misses."""

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

SPEC = importlib.util.spec_from_file_location(
    "real_eval", Path(__file__).resolve().parents[1] / "benchmarks" / "real_eval.py")
real_eval = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(real_eval)

COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]


@pytest.mark.parametrize("name", list(real_eval.VARIANTS))
def test_variant_moves_corners_with_the_image(name):
    image = np.full((480, 640, 3), 60, np.uint8)
    corners = np.float32([[150, 90], [500, 110], [560, 400], [100, 380]])
    for (x, y), colour in zip(corners, COLOURS, strict=True):
        cv2.circle(image, (int(x), int(y)), 14, colour, -1)
    out, moved = real_eval.VARIANTS[name](image, corners)
    assert moved.shape == (4, 2)
    # the nearest of the four marks and the background (a change of tone dims or tints them)
    marks = np.int32(COLOURS + [(60, 60, 60)])
    for (x, y), k in zip(moved, range(4), strict=True):
        got = out[int(round(y)), int(round(x))].astype(int)
        assert int(np.argmin(np.abs(marks - got).sum(1))) == k, (name, (x, y), got, COLOURS[k])
