"""Learn a venue from a game already played, measured on renders: enrol from one game of a look
(`tilecast enroll VIDEO --record GAME.gcg`), then read another game of the same look.

    .venv/bin/python benchmarks/enroll_game.py --looks 4 --workdir /tmp/enroll-game

For each look (seed 800 on, held-out tile families first): two real records from ../shared/gcg
(or self-play games when it is absent) are rendered with the same look; game 1's video and
record make the tile set; every settled frame of game 2 (no hand, board still, per its truth)
is read with and without it, and its squares compared with the truth. Squares that the feed's
overlay hides are left out.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from tilecast.commands.readboard import rows_of
from tilecast.vision.classify import TileClassifier
from tilecast.vision.reader import BoardReader
from tilecast.vision.render.script import gcg_script, selfplay_script
from tilecast.vision.render.video import render_game

GCG = Path(__file__).resolve().parents[1].parent / "shared" / "gcg"
FIRST_LOOK = 800
TURNS = 14  # turns of each record rendered (enough positions, a few minutes a game)


def records(n: int) -> list[tuple[str, bytes | None]]:
    """(name, GCG bytes) pairs, or self-play games (bytes None) when ../shared is absent."""
    if GCG.is_dir():
        paths = sorted(GCG.rglob("*.gcg"))[:: 7][: 2 * n]
        return [(p.stem, p.read_bytes()) for p in paths]
    return [(f"selfplay {s}", None) for s in range(2 * n)]


def render(name: str, data: bytes | None, seed: int, out: Path) -> Path:
    turns = gcg_script(data, name) if data is not None else selfplay_script(int(name.split()[1]))
    render_game(turns[:TURNS], out, seed=seed, fps=5)
    return out


def settled_truth(video: Path) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(frame index, [225] true labels, [225] bool hidden) of the settled frames."""
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    out = []
    for i, f in enumerate(truth["frames"]):
        if f.get("settled"):
            board = "".join(f["board"])
            labels = np.array(["?" if ch.islower() else ch for ch in board])
            hidden = np.array(list("".join(f["occluded"]))) == "1"
            out.append((i, labels, hidden))
    return out


def read_game(clf: TileClassifier, video: Path) -> tuple[int, int]:
    """(squares wrong, squares counted) over the settled frames of a rendered game."""
    wanted = {i: (labels, hidden) for i, labels, hidden in settled_truth(video)}
    reader = BoardReader(clf)
    cap = cv2.VideoCapture(str(video))
    wrong = total = i = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        reading = reader.read(frame)
        if i in wanted and reading is not None:
            labels, hidden = wanted[i]
            read = np.array(list("".join(rows_of(reading.probs))))
            wrong += int(((read != labels) & ~hidden).sum())
            total += int((~hidden).sum())
        i += 1
    return wrong, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--looks", type=int, default=4)
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/enroll-game"))
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    clf = TileClassifier.load()
    pairs = records(args.looks)
    rows = []
    for look in range(args.looks):
        seed = FIRST_LOOK + look
        (name1, data1), (name2, data2) = pairs[2 * look], pairs[2 * look + 1]
        first = args.workdir / f"look{seed}_a.mp4"
        second = args.workdir / f"look{seed}_b.mp4"
        if not first.exists():
            render(name1, data1, seed, first)
        if not second.exists():
            render(name2, data2, seed, second)
        record = args.workdir / f"look{seed}_a.gcg"
        if data1 is not None:
            record.write_bytes(data1)
        else:
            subprocess.run([sys.executable, "-m", "tilecast.cli", "selfplay", "--seed",
                            name1.split()[1], "-o", str(record)], check=True)
        venue = args.workdir / f"look{seed}.npz"
        subprocess.run([sys.executable, "-m", "tilecast.cli", "enroll", str(first), "--record",
                        str(record), "-o", str(venue)], check=True)
        before = read_game(clf, second)
        after = read_game(TileClassifier.load(tileset=venue), second)
        truth = json.loads(second.with_suffix(".truth.json").read_text())["look"]
        rows.append((seed, truth["board"], truth["tiles"], before, after))
        print(f"look {seed} ({truth['board']}, {truth['tiles']}): squares wrong without "
              f"enrolment {before[0]} of {before[1]}, enrolled from game 1 {after[0]}",
              flush=True)
    b = sum(r[3][0] for r in rows)
    a = sum(r[4][0] for r in rows)
    n = sum(r[3][1] for r in rows)
    print(f"all looks: {b} of {n} squares wrong without enrolment ({100 * b / n:.3f}%), "
          f"{a} enrolled from another game of the look ({100 * a / n:.3f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
