"""Plays replayed per second over the ../shared/gcg corpus (parse + replay + check).

Run: .venv/bin/python benchmarks/replay_corpus.py [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from tilecast.config import load_profile, load_tileset
from tilecast.engine.gcg import GcgError, parse_gcg
from tilecast.engine.replay import replay

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "gcg"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"corpus not found at {CORPUS}")
    rules, tileset = load_profile("wespa"), load_tileset("english")
    blobs = [p.read_bytes() for p in sorted(CORPUS.rglob("*.gcg"))]
    best = float("inf")
    for _ in range(args.repeat):
        start, plays = time.perf_counter(), 0
        for blob in blobs:
            try:
                record = parse_gcg(blob)
            except GcgError:
                continue
            game = replay(record, rules, tileset).game
            plays += sum(t.kind == "play" for t in game.turns) if game else 0
        best = min(best, time.perf_counter() - start)
    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    print(
        f"{len(blobs)} files, {plays} plays in {best:.3f} s (best of {args.repeat}): "
        f"{plays / best:,.0f} plays/s"
    )


if __name__ == "__main__":
    main()
