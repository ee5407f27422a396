"""The stillness gate's CPU time per frame, beside the reader's ~10 ms (benchmarks/frame_speed.py):
a still board of 90 tiles, read steadily for 2 seconds, then with 10 tiles read as another
letter in each frame (a shaking camera), fed at 5 frames a second.

    .venv/bin/python benchmarks/gate_speed.py [--frames 2000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.vision.stillness import StillConfig, StillnessGate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=2000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    board = np.zeros((225, len(CLASSES)))
    board[:, EMPTY_CLASS] = 1.0
    board[:90] = 0.0
    board[:90, CLASSES.index("E")] = 1.0
    frames = []
    for i in range(args.frames):
        frame = board.copy()
        for square in rng.choice(90, 10 if i >= 10 else 0, replace=False):
            frame[square] = 0.0
            frame[square, rng.integers(26)] = 1.0
        frames.append(frame)
    gate = StillnessGate(StillConfig())
    start = time.process_time()
    commits = sum(gate.feed(i / 5.0, 1.0, f) is not None for i, f in enumerate(frames))
    ms = (time.process_time() - start) / len(frames) * 1e3
    print(f"{ms:.3f} ms CPU per frame, {commits} commits in {len(frames)} frames")


if __name__ == "__main__":
    main()
