"""How fast the renderer makes footage and crops, on one core.

Target (issue 3): 1280x720 frames at 50+ per second per core, so a whole game renders in seconds.
Reports frames per second for a self-play game (render only, and render + mp4 writing) over a
few looks, and cell crops per second, per CPU second of this process (OpenCV limited to one
thread, so one core) and per wall-clock second (lower when the machine is shared).

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
    clock = Clock()
    for seed in range(args.seeds):
        for _, rec in render_frames(turns, seed, fps=args.fps):
            frames += 1
            hand += rec["hand"]
    print(f"frames 1280x720, render only: {clock.rates(frames)} "
          f"({frames} frames of {len(turns)}-turn games, {hand / frames:.0%} with a hand, "
          f"{args.seeds} looks)")
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        truth = render_game(turns, Path(tmp) / "g.mp4", seed=0, fps=args.fps)
        n = len(json.loads(truth.read_text())["frames"])
        print(f"whole game to mp4 with truth.json ({n} frames): {clock.rates(n)}, "
              f"{time.perf_counter() - clock.wall:.1f} s")
    render_cells(64, 1)  # warm caches of glyphs and tile sets
    clock = Clock()
    render_cells(args.cells, 2)
    print(f"cell crops 64x64: {clock.rates(args.cells)}")


class Clock:
    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def rates(self, n: int) -> str:
        wall = time.perf_counter() - self.wall
        cpu = time.process_time() - self.cpu
        return f"{n / cpu:.1f}/s per core, {n / wall:.1f}/s wall"


if __name__ == "__main__":
    main()
