"""Write docs/annotate-accuracy.md from the reports of benchmarks/annotate_accuracy.py.

    .venv/bin/python benchmarks/accuracy_report.py /tmp/tilecast-accuracy/report-*.json \
        --commit abc1234 -o docs/annotate-accuracy.md

Every miss is listed under its game, worst games first, with the game's look and the miss's
kind guessed from its shape (the kinds are a first sort, not a diagnosis), and marked where
the true play makes a word the benchmark's lexicon (ENABLE) lacks: a CSW word of a real record
or a self-play phony, whose blanks no lexicon check can name and whose misread letters none can
mend.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from collections import Counter
from datetime import date
from pathlib import Path

from annotate_accuracy import sources

from tilecast.engine.board import Board
from tilecast.engine.play import formed_words
from tilecast.lexicons import load_lexicon

MISS = re.compile(r"move (\d+): wanted (.*), recorded (.*)$")


def kind(want: list[tuple], got: list[tuple]) -> str:
    """What a miss looks like: one play read with other letters, nothing recorded, ..."""
    if not got:
        return "not recorded"
    if not want:
        return "extra move recorded"
    if len(want) == len(got) == 1 and want[0][0] == got[0][0] == "play" \
            and want[0][1] == got[0][1] and len(want[0][2]) == len(got[0][2]):
        diff = [(a, b) for a, b in zip(want[0][2], got[0][2], strict=True) if a != b]
        if not diff:
            return "score differs"
        if all(a.islower() and b.islower() for a, b in diff):
            return "blank's letter"
        return "letter misread"
    return "misplaced / run together"


def moves(items: list[tuple]) -> int:
    return sum(1 for m in items if m[0] in ("play", "withdraw"))


def describe(move: tuple) -> str:
    return "withdraw" if move[0] == "withdraw" else " ".join(str(x) for x in move)


def look_line(look: dict) -> str:
    parts = [f"{look['board']} board, {look['tiles']} tiles, tilt {look['tilt']:.1f}",
             f"lens k1 {look['k1']:.3g}", f"JPEG {look['jpeg'] or 'none'}",
             f"sway {look['shake']:.1f} px"]
    if look.get("mirrored"):
        parts.append("mirrored feed")
    return ", ".join(parts)


def off_lexicon(games: set[str]) -> dict[str, dict[int, list[str]]]:
    """Per game, its expected moves (numbered as annotate_accuracy.expected lists them, from 1)
    that are plays forming words ENABLE lacks, and those words."""
    lexicon = load_lexicon("enable")
    own = max((int(g.removeprefix("selfplay")) - 999 for g in games
               if g.startswith("selfplay")), default=0)
    out: dict[str, dict[int, list[str]]] = {}
    for name, _, turns in sources(10**6, own):  # every record that replays, then self-play
        if name not in games:
            continue
        board, number, off = Board(), 0, {}
        for t in turns:
            number += 1
            if not t.placed:
                continue
            after = board.with_tiles((p.row, p.col, p.tile) for p in t.placed)
            words = ["".join(after.at(r, c).letter for r, c in squares)
                     for squares in formed_words(board, t.placed)]
            lacking = [w for w in words if w not in lexicon]
            if lacking:
                off[number] = lacking
            if t.withdrawn:
                number += 1
            else:
                board = after
        out[name] = off
    return out


def render(reports: list[dict], commit: str) -> str:
    kinds: Counter[str] = Counter()
    unlisted: Counter[str] = Counter()
    off = off_lexicon({r["game"] for r in reports})
    games = []
    for r in sorted(reports, key=lambda r: (r["right"] - r["moves"], r["game"])):
        lines = []
        for miss in r["misses"]:
            number, want, got = MISS.match(miss).groups()  # type: ignore[union-attr]
            want, got = ast.literal_eval(want), ast.literal_eval(got)
            k = kind(want, got)
            kinds[k] += max(moves(want), 1)
            lacking = off.get(r["game"], {})
            outside = [lacking[i] for i, m in enumerate(want, int(number))
                       if m[0] == "play" and i in lacking]
            unlisted[k] += len(outside)
            wanted = "; ".join(describe(m) for m in want) or "nothing"
            recorded = "; ".join(describe(m) for m in got) or "nothing"
            mark = f" [ENABLE lacks {', '.join(w for ws in outside for w in ws)}]" \
                if outside else ""
            lines.append(f"- move {number} ({k}): wanted {wanted}; recorded {recorded}{mark}")
        if lines:
            games.append(f"### {r['game'].split('__')[-1]}: {r['right']} of {r['moves']}\n\n"
                         f"Look: {look_line(r['look'])}.\n\n" + "\n".join(lines))
    gcg = [r for r in reports if not r["game"].startswith("selfplay")]
    own = [r for r in reports if r["game"].startswith("selfplay")]

    def tally(rs: list[dict]) -> tuple[int, int]:
        return sum(r["right"] for r in rs), sum(r["moves"] for r in rs)

    right, total = tally(reports)
    clean = sum(r["right"] == r["moves"] for r in reports)
    head = f"""# Recording accuracy on rendered games: every miss

Generated by `benchmarks/accuracy_report.py` from the reports of
`benchmarks/annotate_accuracy.py --gcg {len(gcg)} --selfplay {len(own)} --lexicon enable`, run on
{date.today().isoformat()} at commit `{commit}`. Summary and causes: `docs/benchmarks.md`.

{right} of {total} plays and withdrawals exact ({100 * right / max(total, 1):.1f}%): the
{len(gcg)} records from `../shared/gcg` {tally(gcg)[0]} of {tally(gcg)[1]}, the {len(own)}
self-play games {tally(own)[0]} of {tally(own)[1]}. {clean} games were recorded without a miss.
A miss is a run of moves where the record and the truth differ after aligning the two
sequences; its kind is guessed from its shape.

Kinds (moves): {", ".join(f"{k} {n}" for k, n in kinds.most_common())}.
Of those, plays that form a word ENABLE lacks (marked below): {", ".join(
        f"{k} {unlisted[k]}" for k, _ in kinds.most_common())}.
"""
    return head + "\n" + "\n\n".join(games) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("reports", nargs="+", type=Path)
    ap.add_argument("--commit", required=True, help="the commit the reports were made at")
    ap.add_argument("-o", "--out", type=Path, default=Path("docs/annotate-accuracy.md"))
    args = ap.parse_args()
    reports = [r for path in args.reports for r in json.loads(path.read_text())]
    args.out.write_text(render(reports, args.commit), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
