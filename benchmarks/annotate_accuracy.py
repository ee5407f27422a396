"""Issue 5 acceptance: render games, annotate the videos, compare every play with the truth.

For each game (records from ../shared/gcg that replay cleanly, and self-play games with a few
withdrawn phonies) this renders a video with the renderer's default variety, writes an events
file carrying only the passes and exchanges (at the moment each turn starts), runs the real
`annotate` pipeline, and compares the recorded plays (position, word with blanks, score) and
withdrawals with what was played. Prints the share of plays exactly right and every miss.

Run: .venv/bin/python benchmarks/annotate_accuracy.py [--gcg N] [--selfplay N] [--fps F]
     [--lexicon enable] [--workdir DIR] [--shard I/N]
(--shard 0/2 and --shard 1/2 in two processes split the games between two cores.)
"""

from __future__ import annotations

import argparse
import difflib
import json
import time
from pathlib import Path

from tilecast.cli import main as cli
from tilecast.config import load_profile, load_tileset
from tilecast.engine.gcg import parse_gcg
from tilecast.engine.infer import notation
from tilecast.engine.replay import replay
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon
from tilecast.vision.render.script import turns_from_game
from tilecast.vision.render.video import render_game

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "gcg"


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


def expected(game, turns) -> list[tuple]:
    """What a perfect annotation records: plays (coord, word, score) and withdrawals, and the
    passes/exchanges in between, in order."""
    other = [t.kind for t in game.turns if t.kind in ("pass", "exchange")]
    scores = [t.score for t in game.turns if t.kind == "play"]
    from tilecast.engine.board import Board

    board, out = Board(), []
    for t in turns:
        if not t.placed:
            out.append((other.pop(0),))
            continue
        coord, word = notation(board, t.placed)
        out.append(("play", str(coord), word, scores.pop(0)))
        if t.withdrawn:
            out.append(("withdraw",))
        else:
            board = board.with_tiles((p.row, p.col, p.tile) for p in t.placed)
    return out


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


def compare(want: list[tuple], got: list[tuple]) -> tuple[int, list[str]]:
    """Plays and withdrawals recorded exactly, and the misses. The two lists are aligned as
    sequences, so one missed or extra move costs itself and not every move after it."""
    matcher = difflib.SequenceMatcher(None, want, got, autojunk=False)
    right = sum(
        1
        for tag, i0, i1, _, _ in matcher.get_opcodes()
        if tag == "equal"
        for m in want[i0:i1]
        if m[0] in ("play", "withdraw")
    )
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
    total = right = 0
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
        cli(cmd)
        want, got = expected(game, turns), recorded(out)
        plays = [m for m in want if m[0] in ("play", "withdraw")]
        ok, misses = compare(want, got)
        total += len(plays)
        right += ok
        report.append({"game": name, "look": truth["look"], "moves": len(plays), "right": ok,
                       "misses": misses, "seconds": round(time.perf_counter() - start, 1)})
        print(f"{name}: {ok}/{len(plays)} plays exact {truth['look']}", flush=True)
        for miss in misses:
            print("   ", miss, flush=True)
    print(f"TOTAL {right}/{total} = {right / max(total, 1):.1%} plays exactly right")
    (args.workdir / f"report-{shard}-of-{shards}.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
