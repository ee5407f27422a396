"""How fast the renderer makes footage and crops, on one core.

Target (issue 3): 1280x720 frames at 50+ per second per core, so a whole game renders in seconds.
Reports frames per second for a self-play game (render only, and render + mp4 writing) over a
few looks, and cell crops per second.

    .venv/bin/python benchmarks/render_speed.py [--seeds 3] [--fps 10] [--cells 3000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import cv2

from tilecast.vision.render.cells import render_cells
from tilecast.vision.render.script import selfplay_script
from tilecast.vision.render.video import render_frames, render_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="looks to average over")
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--cells", type=int, default=3000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    turns = selfplay_script(0)
    frames = hand = 0
    took = 0.0
    for seed in range(args.seeds):
        start = time.perf_counter()
        for _, rec in render_frames(turns, seed, fps=args.fps):
            frames += 1
            hand += rec["hand"]
        took += time.perf_counter() - start
    print(f"frames 1280x720: {frames / took:.1f} per second render only "
          f"({frames} frames of {len(turns)}-turn games, {hand / frames:.0%} with a hand, "
          f"{args.seeds} looks)")
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        truth = render_game(turns, Path(tmp) / "g.mp4", seed=0, fps=args.fps)
        took = time.perf_counter() - start
        n = len(json.loads(truth.read_text())["frames"])
    print(f"whole game to mp4 with truth: {took:.1f} s for ~{n} frames "
          f"({n / took:.1f} frames per second)")
    render_cells(64, 1)  # warm caches of glyphs and tile sets
    start = time.perf_counter()
    render_cells(args.cells, 2)
    took = time.perf_counter() - start
    print(f"cell crops 64x64: {args.cells / took:.0f} per second")


if __name__ == "__main__":
    main()
