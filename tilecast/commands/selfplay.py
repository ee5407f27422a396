"""`tilecast selfplay`: two computer players play a whole game; write it as GCG with racks."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tilecast.commands.errors import reason
from tilecast.config import load_profile, load_tileset
from tilecast.engine.game import result
from tilecast.engine.gcg import format_gcg
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import DEFAULT, load_lexicon


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "selfplay",
        help="play a complete computer-vs-computer game and write its GCG record",
        description="The same seed always gives the same game.",
    )
    parser.add_argument("--seed", type=int, default=0, help="shuffles the bag (default 0)")
    parser.add_argument(
        "--lexicon", default=DEFAULT, help=f"word list file, or {DEFAULT!r} (the default)"
    )
    parser.add_argument("--profile", default="wespa", help="rule profile name or TOML path")
    parser.add_argument("--tileset", default="english", help="tile set name or TOML path")
    parser.add_argument(
        "-o", "--output", type=Path, help="GCG file to write (default: standard output)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        lexicon = load_lexicon(args.lexicon)
        rules, tileset = load_profile(args.profile), load_tileset(args.tileset)
    except (OSError, ValueError) as exc:
        print(f"tilecast selfplay: {exc}", file=sys.stderr)
        return 2
    name = "ENABLE" if args.lexicon == DEFAULT else Path(args.lexicon).stem
    start = time.perf_counter()
    game = self_play(lexicon, tileset, rules, args.seed, name)
    seconds = time.perf_counter() - start
    text = format_gcg(game.record)
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:  # (a device such as /dev/stdout is fine, so no check beforehand)
            args.output.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"tilecast selfplay: -o {args.output}: cannot write there: {reason(exc)}",
                  file=sys.stderr)
            return 2
    final = result(game.game)
    print(
        f"seed {args.seed}: {final.scores[0]}-{final.scores[1]}, "
        f"{len(game.record.events)} GCG lines, played in {seconds:.2f} s",
        file=sys.stderr,
    )
    return 0
