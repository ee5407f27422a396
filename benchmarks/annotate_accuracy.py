"""Issue 5 acceptance: render games, annotate the videos, compare every play with the truth.

For each game (records from ../shared/gcg that replay cleanly, and self-play games with a few
withdrawn phonies) this renders a video with the renderer's default variety, writes an events
file carrying only the passes and exchanges (at the moment each turn starts), runs the real
`annotate` pipeline, and compares the recorded plays (position, word with blanks, score) and
withdrawals with what was played. Prints the share of plays exactly right and every miss.

Run: .venv/bin/python benchmarks/annotate_accuracy.py [--gcg N] [--selfplay N] [--fps F]
     [--lexicon enable] [--workdir DIR] [--shard I/N] [--misreads N --keep P]
(--shard 0/2 and --shard 1/2 in two processes split the games between two cores.)

--misreads N seeds N tiles of each game that the camera reads, in every frame, as a look-alike
letter (the true letter keeping the share --keep of its probability), as another renderer's
faces are misread, and counts the plays lost that no seeded tile touches: a misread should
cost at most the plays whose words run through its square.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import random
import time
from dataclasses import replace
from pathlib import Path
from unittest import mock

import numpy as np

from tilecast.cli import main as cli
from tilecast.config import load_profile, load_tileset
from tilecast.engine.board import Board, square_name
from tilecast.engine.gcg import parse_gcg
from tilecast.engine.infer import CLASSES, notation
from tilecast.engine.play import formed_words
from tilecast.engine.replay import replay
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon
from tilecast.vision.reader import BoardReader
from tilecast.vision.render.script import turns_from_game
from tilecast.vision.render.video import render_game

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "gcg"
# Capital letters a face, worn print or a tilted view makes look alike.
LOOKALIKES = {"A": "RH", "B": "ER", "C": "GO", "D": "OB", "E": "FBR", "F": "EP", "G": "CO",
              "H": "NA", "I": "LT", "J": "IL", "K": "RX", "L": "IE", "M": "NW", "N": "MH",
              "O": "QDC", "P": "RF", "Q": "O", "R": "PB", "S": "Z", "T": "IY", "U": "VO",
              "V": "UY", "W": "MV", "X": "K", "Y": "VT", "Z": "S"}


def sources(n_gcg: int, n_self: int):
    """(name, engine game, render turns) for the chosen games."""
    rules, tileset = load_profile("wespa"), load_tileset("english")
    picked = 0
    for path in sorted(SHARED.rglob("*.gcg")) if n_gcg else []:
        try:
            result = replay(parse_gcg(path.read_bytes(), str(path)), rules, tileset)
        except ValueError:
            continue
        if result.discrepancies or result.game is None or len(result.game.turns) < 10:
            continue
        yield path.stem, result.game, turns_from_game(result.game)
        picked += 1
        if picked == n_gcg:
            break
    lexicon = load_lexicon("enable")
    for seed in range(n_self):
        game = self_play(lexicon, tileset, rules, 1000 + seed, phonies=0.1).game
        yield f"selfplay{1000 + seed}", game, turns_from_game(game)


def expected(game, turns) -> tuple[list[tuple], list[set]]:
    """What a perfect annotation records: plays (coord, word, score) and withdrawals, and the
    passes/exchanges in between, in order; and beside each move the squares of its words."""
    other = [t.kind for t in game.turns if t.kind in ("pass", "exchange")]
    scores = [t.score for t in game.turns if t.kind == "play"]
    board, out, squares = Board(), [], []
    for t in turns:
        if not t.placed:
            out.append((other.pop(0),))
            squares.append(set())
            continue
        coord, word = notation(board, t.placed)
        out.append(("play", str(coord), word, scores.pop(0)))
        squares.append({sq for w in formed_words(board, tuple(t.placed)) for sq in w}
                       | {(p.row, p.col) for p in t.placed})
        if t.withdrawn:
            out.append(("withdraw",))
            squares.append(squares[-1])
        else:
            board = board.with_tiles((p.row, p.col, p.tile) for p in t.placed)
    return out, squares


def seeded(name: str, turns, n: int) -> dict[tuple[int, int], tuple[str, str]]:
    """n tiles of the game's standing plays (no blanks), each with the look-alike letter
    the camera is to read it as, chosen by the game's name."""
    rng = random.Random(name)
    tiles = sorted({(p.row, p.col): p.tile.face for t in turns if t.placed and not t.withdrawn
                    for p in t.placed if not p.tile.blank}.items())
    return {sq: (face, rng.choice(LOOKALIKES[face]))
            for sq, face in rng.sample(tiles, min(n, len(tiles)))}


def misreading(squares: dict[tuple[int, int], tuple[str, str]], keep: float):
    """BoardReader.read patched so that each seeded square, whenever the camera reads it as
    its true letter, reads as the look-alike, the truth keeping `keep` of its share; left
    as it is when nothing is seeded."""
    if not squares:
        return contextlib.nullcontext()
    original = BoardReader.read
    where = [(r * 15 + c, CLASSES.index(true), CLASSES.index(wrong))
             for (r, c), (true, wrong) in squares.items()]

    def read(self, frame: np.ndarray):
        reading = original(self, frame)
        if reading is None:
            return None
        probs = reading.probs.copy()
        for i, true, wrong in where:
            if probs[i].argmax() == true:
                share = probs[i, true]
                probs[i, true] = share * keep
                probs[i, wrong] += share * (1.0 - keep)
        return replace(reading, probs=probs)

    return mock.patch.object(BoardReader, "read", read)


def events_file(truth: dict, turns, game, path: Path) -> None:
    """Passes and exchanges at the time their turn starts in the video."""
    starts: dict[int, float] = {}
    for frame in truth["frames"]:
        starts.setdefault(frame["turn"], frame["t"])
    kinds = iter(t for t in game.turns if t.kind in ("pass", "exchange"))
    lines = []
    for i, t in enumerate(turns):
        if not t.placed:
            turn = next(kinds)
            event = {"time": starts.get(i, 0.0), "type": turn.kind}
            if turn.kind == "exchange":
                event["count"] = turn.count or len(turn.tiles)
            lines.append(json.dumps(event))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def recorded(gcg: Path) -> list[tuple]:
    out = []
    for ev in parse_gcg(gcg.read_bytes()).events:
        if ev.kind == "play":
            out.append(("play", str(ev.coord), ev.word, ev.score))
        elif ev.kind in ("withdraw", "pass", "exchange"):
            out.append((ev.kind,))
    return out


def compare(want: list[tuple], got: list[tuple]) -> tuple[list[int], list[str]]:
    """The plays and withdrawals recorded exactly (indices into want), and the misses. The
    two lists are aligned as sequences, so one missed or extra move costs itself and not
    every move after it."""
    matcher = difflib.SequenceMatcher(None, want, got, autojunk=False)
    right = [
        i
        for tag, i0, i1, _, _ in matcher.get_opcodes()
        if tag == "equal"
        for i in range(i0, i1)
        if want[i][0] in ("play", "withdraw")
    ]
    misses = [
        f"move {i0 + 1}: wanted {want[i0:i1]}, recorded {got[j0:j1]}"
        for tag, i0, i1, j0, j1 in matcher.get_opcodes()
        if tag != "equal"
    ]
    return right, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gcg", type=int, default=30)
    parser.add_argument("--selfplay", type=int, default=30)
    parser.add_argument("--fps", type=float, default=5.0)
    parser.add_argument("--lexicon", default="",
                        help="annotate's --lexicon (default: annotate's own, ENABLE; 'none')")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/tilecast-accuracy"))
    parser.add_argument("--shard", default="0/1", help="I/N: only every Nth game, from the Ith")
    parser.add_argument("--rests", default="2,4",
                        help="shortest,longest pause after a turn in seconds (the gate needs 1); "
                             "--reuse does not re-render videos made with other rests")
    parser.add_argument("--rethinks", type=float, default=0.0,
                        help="share of plays first laid with two tiles swapped, then put right "
                             "after a rest (the player rethinks before the next turn)")
    parser.add_argument("--spins", type=float, default=0.0,
                        help="share of turns after which the board is turned on its turntable "
                             "(a quarter or half turn)")
    parser.add_argument("--misreads", type=int, default=0,
                        help="tiles per game read in every frame as a look-alike letter")
    parser.add_argument("--keep", type=float, default=0.005,
                        help="the share of its probability a seeded tile's true letter keeps")
    parser.add_argument("--only", default="",
                        help="comma-separated game names (as the report names them): just these")
    parser.add_argument("--reuse", action="store_true",
                        help="annotate videos already rendered in the workdir again (as they "
                             "were rendered, whatever --rests, --rethinks or --spins say now)")
    args = parser.parse_args()
    try:
        rests = tuple(float(x) for x in args.rests.split(","))
    except ValueError:
        rests = ()
    if len(rests) != 2 or not 0 <= rests[0] <= rests[1]:
        parser.error(f"--rests wants SHORTEST,LONGEST seconds, got {args.rests!r}")
    shard, shards = (int(x) for x in args.shard.split("/"))
    args.workdir.mkdir(parents=True, exist_ok=True)
    total = right = beyond = 0
    report = []
    for seed, (name, game, turns) in enumerate(sources(args.gcg, args.selfplay)):
        if seed % shards != shard or (args.only and name not in args.only.split(",")):
            continue
        video = args.workdir / f"{name}.mp4"
        start = time.perf_counter()
        truth_path = video.with_suffix(".truth.json")
        if not (args.reuse and video.exists() and truth_path.exists()):
            truth_path = render_game(turns, video, seed=seed, fps=args.fps, rests=rests,
                                     rethinks=args.rethinks, spins=args.spins)
        truth = json.loads(truth_path.read_text())
        events = args.workdir / f"{name}.events.jsonl"
        events_file(truth, turns, game, events)
        out = args.workdir / f"{name}.gcg"
        cmd = ["annotate", str(video), "-o", str(out), "--events", str(events), "--fresh",
               "--fps", str(args.fps)]
        if args.lexicon:
            cmd += ["--lexicon", args.lexicon]
        misread = seeded(name, turns, args.misreads)
        with misreading(misread, args.keep):
            cli(cmd)
        (want, words), got = expected(game, turns), recorded(out)
        plays = [i for i, m in enumerate(want) if m[0] in ("play", "withdraw")]
        ok, misses = compare(want, got)
        lost = [i for i in plays if i not in ok and not words[i] & set(misread)]
        total += len(plays)
        right += len(ok)
        beyond += len(lost)
        report.append({"game": name, "look": truth["look"], "moves": len(plays),
                       "right": len(ok), "misses": misses,
                       "seeded": {square_name(*sq): f"{a}>{b}" for sq, (a, b) in misread.items()},
                       "lost_untouched": [i + 1 for i in lost],
                       "seconds": round(time.perf_counter() - start, 1)})
        print(f"{name}: {len(ok)}/{len(plays)} plays exact {truth['look']}", flush=True)
        if misread:
            print(f"    seeded {report[-1]['seeded']}; moves lost that no seeded tile "
                  f"touches: {report[-1]['lost_untouched']}", flush=True)
        for miss in misses:
            print("   ", miss, flush=True)
    print(f"TOTAL {right}/{total} = {right / max(total, 1):.1%} plays exactly right")
    if args.misreads:
        print(f"moves lost that no seeded misread touches: {beyond}")
    (args.workdir / f"report-{shard}-of-{shards}.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
