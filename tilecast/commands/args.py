"""Arguments that several commands take, parsed and checked in one place."""

from __future__ import annotations

import argparse

import numpy as np

CORNERS_HELP = ("X1,Y1,...,X4,Y4: the playing area's four outer corners in pixels, in any order "
                "(which one is square 1A is read from the tiles); skips finding the board")


def corners_arg(text: str) -> np.ndarray:
    """argparse type of --corners: four corners, checked and put in the vision order."""
    from tilecast.vision.rectify import corners_from_points

    try:
        values = [float(v) for v in text.split(",")]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not numbers: {text!r}") from exc
    if len(values) != 8:
        raise argparse.ArgumentTypeError(f"needs 8 numbers (4 x,y pairs), got {len(values)}")
    try:
        return corners_from_points(np.array(values).reshape(4, 2))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
