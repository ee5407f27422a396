"""Tile classifier speed: milliseconds to read one frame's 225 cell crops on one core.

Crops are rendered cells (64x64, as rectify.cell_crops cuts them); the classifier runs with one
onnxruntime thread, as in the app. Times are CPU seconds of this process, so other work on the
machine does not inflate them; preprocessing (resize, grey, normalise) is reported apart.
Run: .venv/bin/python benchmarks/classify_speed.py [--frames N] [--model PATH]
Target: under 100 ms a frame, so reading settled frames never holds up the camera.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tilecast.vision.classify import DEFAULT_MODEL, TileClassifier, preprocess
from tilecast.vision.render import render_cells


def cpu_ms(fn, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(1000 * (time.process_time() - t))
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=50)
    ap.add_argument("--model", default=str(DEFAULT_MODEL))
    args = ap.parse_args()
    clf = TileClassifier.load(args.model, threads=1)
    cells = list(render_cells(225, seed=99)[0])
    clf.predict(cells)  # warm up
    whole = cpu_ms(lambda: clf.predict(cells), args.frames)
    prep = cpu_ms(lambda: preprocess(cells), args.frames)
    size = DEFAULT_MODEL.stat().st_size / 1e6 if args.model == str(DEFAULT_MODEL) else None
    print(f"225 cells, one thread: median {statistics.median(whole):.1f} ms a frame "
          f"(min {min(whole):.1f}), of which preprocessing {statistics.median(prep):.1f} ms"
          + (f"; model {size:.2f} MB" if size else ""))


if __name__ == "__main__":
    main()
