"""Move generation speed: plays generated per second for full racks on mid-game boards (ENABLE),
and whole self-play games.

Boards are built from a seeded bag by playing the top-scoring move a few times; then each
position's full rack is timed. Times are CPU seconds of this process (one core), so that other
work on the machine does not inflate them.
Run: .venv/bin/python benchmarks/movegen_speed.py [--positions N] [--games N]
Targets: well under 50 ms a turn; a self-play game under 2 s on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tilecast.config import load_profile, load_tileset
from tilecast.engine.board import Board
from tilecast.engine.movegen import generate
from tilecast.engine.play import RACK_SIZE
from tilecast.engine.selfplay import self_play
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
    parser.add_argument("--games", type=int, default=10, help="self-play games (seeds 0..N-1)")
    args = parser.parse_args()

    start = time.process_time()
    lexicon = load_lexicon()
    print(f"load ENABLE: {len(lexicon)} words in {time.process_time() - start:.2f} s")
    tileset = load_tileset("english")
    rows = []
    for board, rack in positions(lexicon, tileset, args.positions, args.seed, args.turns):
        start = time.process_time()
        moves = generate(board, rack, lexicon, tileset)
        rows.append((rack, len(moves), time.process_time() - start))
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

    rules = load_profile("wespa")
    games = []
    for seed in range(args.games):
        start = time.process_time()
        game = self_play(lexicon, tileset, rules, seed)
        games.append((time.process_time() - start, len(game.record.events)))
    if games:
        times = [t for t, _ in games]
        print(
            f"self-play: {len(games)} games, median {statistics.median(times):.2f} s,"
            f" max {max(times):.2f} s, {sum(n for _, n in games) / len(games):.0f} GCG lines a game"
        )


if __name__ == "__main__":
    main()
