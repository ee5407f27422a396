"""What the camera side hands the core: one committed (still) reading of the board, the single
boundary type between vision (reader and stillness gate) and the session that records it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Observation:
    """A still reading of every square, in board order (row 1 first, letters upright)."""

    probs: np.ndarray = field(repr=False)  # [225, 28] over tilecast.engine.infer.CLASSES
    frame: int  # the source's frame index it was committed at
    time: float  # seconds into the source
    view: int | None = None  # the camera view the reader decided (vision.reader.Reading.view)
    # [225] per square, the time it last read as empty (orders two plays run together)
    emptied: np.ndarray | None = field(default=None, repr=False)
