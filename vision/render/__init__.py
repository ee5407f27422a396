"""Synthetic camera footage of Scrabble games, and cell crops, for training and testing vision.

render_cells: labelled single-cell crops for the tile classifier (see cells.py for the crop
convention).
"""

from .cells import CLASSES, CellLabels, render_cells

__all__ = ["CLASSES", "CellLabels", "render_cells"]
