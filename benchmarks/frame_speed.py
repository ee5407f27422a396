"""Camera pipeline speed per frame (issue 4): milliseconds of each stage on one core.

Renders a short self-play game (the first --turns turns, at --fps) to mp4 at 1280x720 and at
1920x1080, then decodes every frame with cv2.VideoCapture and times, on each frame: the decode,
locate_board (a first fix, network and grid), track (following the previous frame's fix),
rectify + cell_crops, the classifier on the 225 crops, and a BoardReader.read of the frame (it
tracks after the first frame, and locates again when tracking fails). OpenCV, the decoder and
onnxruntime all run on one thread. Times are CPU time of this process, so another job on the
machine does not inflate them; wall-clock times are printed beside them.

Target (issue 4): under 15 ms per 1080p frame with tracking.

    .venv/bin/python benchmarks/frame_speed.py [--turns 8] [--fps 2] [--seed 0] [--markdown]
        [--keep DIR]   # the same clips for a second run (another version of the code)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from tilecast.vision.classify import DEFAULT_MODEL, TileClassifier
from tilecast.vision.locate import BoardFix, BoardNotFound, locate_board, track
from tilecast.vision.reader import BoardReader
from tilecast.vision.rectify import cell_crops, rectify
from tilecast.vision.render.script import selfplay_script
from tilecast.vision.render.video import render_game

SIZES = ((1280, 720), (1920, 1080))
STAGES = ("decode mp4 frame", "locate_board (first fix)", "track (following fix)",
          "rectify + cell_crops", "classify 225 cells", "BoardReader.read (incremental)")
T = TypeVar("T")


class Timings:
    """CPU and wall milliseconds of each stage, one entry per frame."""

    def __init__(self) -> None:
        self.cpu: dict[str, list[float]] = {s: [] for s in STAGES}
        self.wall: dict[str, list[float]] = {s: [] for s in STAGES}

    def time(self, stage: str, fn: Callable[..., T], *args: object) -> T:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return fn(*args)
        finally:
            self.cpu[stage].append(1000 * (time.process_time() - cpu))
            self.wall[stage].append(1000 * (time.perf_counter() - wall))


def crops_of(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    return cell_crops(rectify(frame, corners))


def measure(video: Path, classifier: TileClassifier) -> tuple[Timings, dict[str, int]]:
    """Time every stage on every frame of the video; count frames where a fix failed."""
    cap = cv2.VideoCapture(str(video), cv2.CAP_FFMPEG, [cv2.CAP_PROP_N_THREADS, 1])
    timings, misses = Timings(), {"frames": 0, "locate": 0, "track": 0, "read": 0}
    reader = BoardReader(classifier)
    previous: BoardFix | None = None
    while True:
        ok, frame = timings.time(STAGES[0], cap.read)
        if not ok:
            timings.cpu[STAGES[0]].pop()  # the failed read past the last frame
            timings.wall[STAGES[0]].pop()
            break
        if misses["frames"] == 0:  # load the networks before timing them
            classifier.predict(crops_of(frame, locate_board(frame).corners))
        misses["frames"] += 1
        located = tracked = None
        try:
            located = timings.time(STAGES[1], locate_board, frame)
        except BoardNotFound:
            misses["locate"] += 1
        if previous is not None:
            try:
                tracked = timings.time(STAGES[2], track, frame, previous)
            except BoardNotFound:
                misses["track"] += 1
        previous = tracked or located
        if previous is not None:
            crops = timings.time(STAGES[3], crops_of, frame, previous.corners)
            timings.time(STAGES[4], classifier.predict, crops)
        if timings.time(STAGES[5], reader.read, frame) is None:
            misses["read"] += 1
    cap.release()
    return timings, misses


def table(results: dict[str, Timings], clock: str, markdown: bool) -> str:
    """Median, p90 and mean milliseconds per stage (rows) and resolution (columns); the mean
    is what a long video costs per frame."""
    head = ["stage"] + [f"{name} {q}" for name in results for q in ("median", "p90", "mean")]
    rows = [head]
    for stage in STAGES:
        row = [stage]
        for timings in results.values():
            ms = getattr(timings, clock)[stage]
            row += (
                [f"{np.median(ms):.1f}", f"{np.percentile(ms, 90):.1f}", f"{np.mean(ms):.1f}"]
                if ms
                else ["-"] * 3
            )
        rows.append(row)
    if markdown:
        lines = ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join([lines[0], "| " + " | ".join(["---"] * len(head)) + " |", *lines[1:]])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True)))
                     for r in rows)


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), "unknown CPU")
    return f"{model}, {os.cpu_count()} cores"


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f} (1/5/15 min)".format(*os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=8, help="first turns of the game to render")
    parser.add_argument("--fps", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0, help="self-play game and look")
    parser.add_argument("--markdown", action="store_true", help="tables for docs/benchmarks.md")
    parser.add_argument("--keep", type=Path, help="render the clips into (or reuse them from) "
                        "this folder, so that two versions of the code time the same frames")
    parser.add_argument("--model", type=Path, help="tile classifier ONNX (default: the shipped "
                        "one; models/tiles.onnx is the float model it was quantized from)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    classifier = TileClassifier.load(args.model, threads=1)
    turns = selfplay_script(args.seed)[: args.turns]
    results: dict[str, Timings] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        videos = {f"{w}x{h}": folder / f"{w}x{h}.mp4" for w, h in SIZES}
        for video, size in zip(videos.values(), SIZES, strict=True):
            if not video.exists():
                render_game(turns, video, seed=args.seed, fps=args.fps, size=size)
        before = load()
        for name, video in videos.items():
            results[name], misses = measure(video, classifier)
            print(f"{name}: {misses['frames']} frames; no fix from locate_board in "
                  f"{misses['locate']}, track lost in {misses['track']}, "
                  f"BoardReader.read found no board in {misses['read']}")
        after = load()
    print(f"machine: {machine()}; other jobs may be running: {before} before, {after} after")
    print(f"game: self-play seed {args.seed}, first {len(turns)} turns at {args.fps:g} fps")
    print(f"tile classifier: {args.model or DEFAULT_MODEL}")
    for clock, what in (("cpu", "CPU ms of this process (one core)"), ("wall", "wall-clock ms")):
        print(f"\n{what}, median, p90 and mean per frame:\n")
        print(table(results, clock, args.markdown))


if __name__ == "__main__":
    main()
