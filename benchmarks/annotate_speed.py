"""Issue 5: how fast `tilecast annotate` records a game-length video on one core, and how long
after a play its move event comes.

Renders a self-play game (with withdrawn phonies) at --size and --fps, its rests between turns
lengthened so the video lasts --minutes (real players think; see render.timeline.spread), writes
an events file with the passes and exchanges, and records it with `tilecast.annotate` (what the
`tilecast annotate` command runs; with the ENABLE lexicon, which names blanks, unless --lexicon
'') in this process, pinned to one CPU core with OpenCV on one thread (onnxruntime already uses
one).

It reports:
- render time: making the video, setup only, not part of the benchmark;
- annotate time: wall and CPU seconds of the whole command (model loading included), seconds per
  frame, and speed as a multiple of real time (video seconds per wall second);
- per-frame wall times: decoding a frame, and processing it (reader, stillness gate, and for a
  committing frame the move inference, journal fsync and plugins);
- latency in video seconds, per play or withdrawal the camera recorded, from the render's truth:
  from the first frame after the turn's last tile change with no hand in the frame (the board
  is still) to the frame whose reading recorded the move (the journal's entry), and from the
  last tile change itself. The stillness gate's --still window (1 s) dominates it. A live
  system adds the processing time of that committing frame, also reported;
- whether the record is right: plays and withdrawals recorded exactly (benchmarks/
  annotate_accuracy.py's comparison), out of those played.

Run (the full benchmark; about 12000 frames, so tens of minutes on one core):
    .venv/bin/python benchmarks/annotate_speed.py --minutes 40 --size 1920x1080 --fps 5
Options: [--seed N] [--cpu N] [--still S] [--lexicon enable] [--workdir DIR] [--reuse]
(--reuse annotates the video an earlier run left in --workdir instead of rendering it again.)
"""

from __future__ import annotations

import argparse
import json
import os
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from annotate_accuracy import compare, events_file, expected, recorded  # a sibling script

import tilecast
from tilecast.config import load_profile, load_tileset
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon
from tilecast.vision.render.script import turns_from_game
from tilecast.vision.render.video import render_game
from tilecast.watch import load_events


class Clock:
    """Wall and CPU seconds since it was made."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def read(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


class FrameTimes:
    """Wraps annotate's frame source to time, per frame index, the decode (inside the source)
    and the processing (from the frame's hand-over until the loop asks for the next one)."""

    def __init__(self) -> None:
        self.decode: dict[int, float] = {}
        self.process: dict[int, float] = {}

    def wrap(self, source: Iterator) -> Iterator:
        while True:
            start = time.perf_counter()
            try:
                index, t, frame = next(source)
            except StopIteration:
                return
            handed = time.perf_counter()
            self.decode[index] = handed - start
            yield index, t, frame
            self.process[index] = time.perf_counter() - handed


def hidden(frame: dict) -> set[int]:
    """Squares at least partly hidden (by a hand, a held tile or an overlay) in a truth frame."""
    return {i for i, ch in enumerate("".join(frame["occluded"])) if ch == "1"}


def truth_moves(frames: list[dict]) -> list[dict]:
    """The plays and withdrawals as the render shows them: consecutive board changes of one
    turn in one direction, with the times of the first and the last change, of the first frame
    from the last change on where no hand hides any square (the board is still: only the
    squares an overlay hid in the last frame without a hand stay hidden), and of the first with
    no hand in the frame at all."""
    moves: list[dict] = []
    before, overlay = frames[0]["board"], hidden(frames[0])
    for i, f in enumerate(frames):
        if not f["hand"]:
            overlay = hidden(f)
        if f["board"] == before:
            continue
        count = sum(ch != "." for row in f["board"] for ch in row)
        kind = "play" if count > sum(ch != "." for row in before for ch in row) else "withdraw"
        if moves and moves[-1]["turn"] == f["turn"] and moves[-1]["kind"] == kind:
            moves[-1]["last"] = i
        else:
            moves.append({"turn": f["turn"], "kind": kind, "first": i, "last": i,
                          "overlay": overlay})
        before = f["board"]
    for m in moves:
        later, overlay = range(m["last"], len(frames)), m.pop("overlay")
        clear = next((j for j in later if hidden(frames[j]) <= overlay), None)
        gone = next((j for j in later if not frames[j]["hand"]), None)
        m["first_t"], m["last_t"] = frames[m["first"]]["t"], frames[m["last"]]["t"]
        m["still_t"] = frames[clear]["t"] if clear is not None else None
        m["hand_gone_t"] = frames[gone]["t"] if gone is not None else None
    return moves


def camera_moves(journal: Path) -> list[dict]:
    """Plays and withdrawals the camera recorded, each with the frame whose reading caused it
    (the board entry journaled right after the moves of one commit)."""
    entries = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
    moves, waiting = [], []
    for e in entries:
        if e.get("source") == "camera" and e["type"] in ("play", "withdraw"):
            waiting.append({"kind": e["type"], "time": e["time"],
                            "word": e.get("word"), "coord": e.get("coord")})
        elif e["type"] == "board":
            moves += [{**m, "frame": e["frame"]} for m in waiting]
            waiting = []
    return moves


def match(truth: list[dict], camera: list[dict], end: float) -> list[tuple[dict, dict | None]]:
    """Each shown move with the first recorded move of its kind between its last tile change and
    the next move's first change (a later commit would see both moves at once), or None."""
    pairs, used = [], set()
    for k, m in enumerate(truth):
        until = truth[k + 1]["first_t"] if k + 1 < len(truth) else end + 1
        hit = next((i for i, c in enumerate(camera) if i not in used and c["kind"] == m["kind"]
                    and m["last_t"] <= c["time"] < until), None)
        if hit is not None:
            used.add(hit)
        pairs.append((m, camera[hit] if hit is not None else None))
    return pairs


def stats(values: list[float], unit: str, scale: float = 1.0, digits: int = 2) -> str:
    if not values:
        return "none"
    v = np.asarray(values) * scale
    return (f"median {np.median(v):.{digits}f} {unit}, p90 {np.percentile(v, 90):.{digits}f}, "
            f"max {v.max():.{digits}f}, min {v.min():.{digits}f} (n={len(v)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=40.0, help="video length")
    parser.add_argument("--size", default="1920x1080", help="WIDTHxHEIGHT")
    parser.add_argument("--fps", type=float, default=5.0, help="video and annotate frame rate")
    parser.add_argument("--seed", type=int, default=0, help="self-play game and render look")
    parser.add_argument("--still", type=float, default=1.0, help="annotate --still seconds")
    parser.add_argument("--lexicon", default="enable", help="annotate --lexicon ('' for none)")
    parser.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)),
                        help="the core to pin this process to")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/tilecast-speed"))
    parser.add_argument("--reuse", action="store_true",
                        help="annotate the video an earlier run rendered with these options")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.lower().split("x"))
    os.sched_setaffinity(0, {args.cpu})
    cv2.setNumThreads(1)
    args.workdir.mkdir(parents=True, exist_ok=True)
    name = f"speed-s{args.seed}-{args.minutes:g}min-{width}x{height}-{args.fps:g}fps"
    video = args.workdir / f"{name}.mp4"

    rules, tileset = load_profile("wespa"), load_tileset("english")
    game = self_play(load_lexicon("enable"), tileset, rules, args.seed, phonies=0.1).game
    turns = turns_from_game(game)
    clock = Clock()
    truth_path = video.with_suffix(".truth.json")
    reused = args.reuse and video.exists() and truth_path.exists()
    if not reused:
        render_game(turns, video, seed=args.seed, fps=args.fps, size=(width, height),
                    duration=args.minutes * 60)
    render_wall, render_cpu = clock.read()
    truth = json.loads(truth_path.read_text())
    frames = truth["frames"]
    events = args.workdir / f"{name}.events.jsonl"
    events_file(truth, turns, game, events)
    out = args.workdir / f"{name}.gcg"

    times = FrameTimes()
    spec = tilecast.Spec("board1", out.with_suffix(".tilecast"), str(video),
                         lexicon=args.lexicon, fps=args.fps, still_s=args.still)
    (spec.out_dir / "board1.journal.jsonl").unlink(missing_ok=True)  # a fresh record
    failure = ""
    clock = Clock()
    try:
        tilecast.annotate(spec, out, events=load_events(events), progress=True, tap=times.wrap)
    except Exception as exc:  # reported below with the numbers up to the failure
        traceback.print_exc()
        failure = f"{type(exc).__name__}: {exc}"
    finally:
        wall, cpu = clock.read()

    video_s = len(frames) / args.fps
    n = len(times.process)
    want, _ = expected(game, turns)
    exact, misses = compare(want, recorded(out)) if not failure else ([], [])
    right = len(exact)
    shown = truth_moves(frames)
    pairs = match(shown, camera_moves(out.with_suffix(".tilecast") / "board1.journal.jsonl"),
                  video_s)
    found = [(m, c) for m, c in pairs if c is not None]
    from_still = [c["time"] - m["still_t"] for m, c in found if m["still_t"] is not None]
    from_gone = [c["time"] - m["hand_gone_t"] for m, c in found if m["hand_gone_t"] is not None]
    from_last = [c["time"] - m["last_t"] for m, c in found]
    commit_ms = [times.process[c["frame"]] for _, c in found if c["frame"] in times.process]
    plays = sum(1 for m in want if m[0] == "play")
    withdrawn = sum(1 for m in want if m[0] == "withdraw")

    print(f"\nvideo: {video_s / 60:.1f} min, {width}x{height} at {args.fps:g} fps, {len(frames)} "
          f"frames; self-play seed {args.seed}: {len(turns)} turns, {plays} plays of which "
          f"{withdrawn} withdrawn phonies, {len(want) - plays - withdrawn} passes/exchanges "
          f"(events file); look {truth['look']}")
    print(f"render (setup, not benchmarked): {render_wall:.0f} s wall, {render_cpu:.0f} s CPU"
          + (" (reused an earlier render)" if reused else ""))
    if failure:
        print(f"ANNOTATE FAILED after {n} frames ({n / args.fps:.0f} s of video): {failure}; "
              f"the numbers below cover the frames before it")
    print(f"annotate on one core (CPU {args.cpu}, OpenCV and onnxruntime one thread each, "
          f"lexicon {args.lexicon or 'none'}), {n} frames processed:")
    print(f"  wall {wall:.1f} s = {1000 * wall / n:.1f} ms per frame = "
          f"{n / args.fps / wall:.1f}x real time (video seconds per wall second)")
    print(f"  CPU  {cpu:.1f} s = {1000 * cpu / n:.1f} ms per frame (wall above CPU: the core "
          f"was shared)")
    print(f"  per frame, wall: decode {stats(list(times.decode.values()), 'ms', 1000, 1)}")
    print(f"  per frame, wall: process {stats(list(times.process.values()), 'ms', 1000, 1)}")
    print(f"record: {'(no GCG) ' if failure else ''}{right}/{plays + withdrawn} plays and "
          f"withdrawals recorded exactly; the camera recorded {len(found)}/{len(shown)} of the "
          f"moves shown")
    for miss in misses:
        print("   ", miss)
    print(f"latency, video seconds, over the {len(found)} moves the camera recorded "
          f"(--still {args.still:g} s, frames every {1 / args.fps:.2f} s):")
    print(f"  board still (no square hidden by the hand after the last tile) -> move recorded: "
          f"{stats(from_still, 's')}")
    print(f"  last tile down -> move recorded: {stats(from_last, 's')}")
    print(f"  hand out of the frame -> move recorded: {stats(from_gone, 's')}")
    slow = sorted(found, key=lambda p: p[1]["time"] - p[0]["last_t"], reverse=True)[:3]
    print("  slowest (last tile down -> recorded): " + "; ".join(
        f"turn {m['turn']} {m['kind']} {c['coord'] or ''} {c['word'] or ''} at "
        f"{m['last_t']:.1f} s: {c['time'] - m['last_t']:.1f} s" for m, c in slow))
    print(f"  live delay on top: processing of the committing frame, wall "
          f"{stats(commit_ms, 'ms', 1000, 1)}")
    report = {"video": {"minutes": video_s / 60, "size": [width, height], "fps": args.fps,
                        "frames": len(frames), "seed": args.seed, "look": truth["look"]},
              "render_s": {"wall": render_wall, "cpu": render_cpu},
              "annotate_s": {"wall": wall, "cpu": cpu, "frames": n, "failure": failure},
              "record": {"exact": right, "moves": plays + withdrawn, "misses": misses},
              "moves": [{**m, "recorded": c} for m, c in pairs]}
    (args.workdir / f"{name}.report.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
