"""Synthetic camera footage of Scrabble games, and cell crops, for training and testing vision.

render_game / render_frames: a scripted game (RenderTurn list) as video frames with per-frame
truth (see video.TRUTH_DOC); render_still: one frame of a board position. render_cells:
labelled single-cell crops for the tile classifier (crop convention in cells.py). Everything is
drawn from a seed; see README.md in this folder.
"""

from .cells import CLASSES, CellLabels, render_cells
from .script import (
    RenderTurn,
    gcg_script,
    scattered_board,
    selfplay_script,
    turns_from_game,
    turns_from_json,
)
from .video import TRUTH_DOC, render_frames, render_game, render_still

__all__ = [
    "CLASSES",
    "CellLabels",
    "RenderTurn",
    "TRUTH_DOC",
    "gcg_script",
    "render_cells",
    "render_frames",
    "render_game",
    "render_still",
    "scattered_board",
    "selfplay_script",
    "turns_from_game",
    "turns_from_json",
]
