"""Move generation speed: plays generated per second for full racks on mid-game boards (ENABLE).

Boards are built from a seeded bag by playing the top-scoring move a few times; then each
position's full rack is timed. Run: .venv/bin/python benchmarks/movegen_speed.py [--positions N]
Target: well under 50 ms a turn, so that a self-play game takes under 2 s on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tilecast.config import load_tileset
from tilecast.engine.board import Board
from tilecast.engine.movegen import generate
from tilecast.engine.play import RACK_SIZE
from tilecast.lexicons import load_lexicon


def positions(lexicon, tileset, count: int, seed: int, turns: int) -> list[tuple[Board, str]]:
    """`count` (board, rack) pairs, each after `turns` top-scoring plays from a shuffled bag."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        bag = [face for face, n in sorted(tileset.counts.items()) for _ in range(n)]
        rng.shuffle(bag)
        board, rack = Board(), ""
        for _ in range(turns):
            rack += "".join(bag.pop() for _ in range(min(RACK_SIZE - len(rack), len(bag))))
            moves = generate(board, rack, lexicon, tileset)
            if not moves:
                break
            best = max(moves, key=lambda m: m.score)
            board = board.with_tiles((p.row, p.col, p.tile) for p in best.placements)
            for face in best.tiles:
                rack = rack.replace(face, "", 1)
        else:
            rack += "".join(bag.pop() for _ in range(min(RACK_SIZE - len(rack), len(bag))))
            found.append((board, rack))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--turns", type=int, default=8, help="plays made before timing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    start = time.perf_counter()
    lexicon = load_lexicon()
    print(f"load ENABLE: {len(lexicon)} words in {time.perf_counter() - start:.2f} s")
    tileset = load_tileset("english")
    rows = []
    for board, rack in positions(lexicon, tileset, args.positions, args.seed, args.turns):
        start = time.perf_counter()
        moves = generate(board, rack, lexicon, tileset)
        rows.append((rack, len(moves), time.perf_counter() - start))
    for label, chosen in (
        ("no blank", [r for r in rows if "?" not in r[0]]),
        ("one blank", [r for r in rows if r[0].count("?") == 1]),
        ("two blanks", [r for r in rows if r[0].count("?") == 2]),
        ("all", rows),
    ):
        if not chosen:
            continue
        times = [t for _, _, t in chosen]
        plays = sum(n for _, n, _ in chosen)
        median = statistics.median(times) * 1000
        print(
            f"{label:>10}: {len(chosen):3d} racks, median {median:6.1f} ms,"
            f" max {max(times) * 1000:7.1f} ms, {plays / sum(times):8.0f} plays/s,"
            f" median {statistics.median(n for _, n, _ in chosen):.0f} plays"
        )


if __name__ == "__main__":
    main()
