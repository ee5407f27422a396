"""`tilecast gcg check`: replay game records and report every score the rules disagree with."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

from tilecast.config import load_profile, load_tileset
from tilecast.engine.gcg import GcgError, excerpt, parse_gcg
from tilecast.engine.replay import Discrepancy, replay

QUOTED = 200  # characters of a name or reason the report repeats; real ones are far shorter


def register(sub: argparse._SubParsersAction) -> None:
    gcg = sub.add_parser("gcg", help="work with GCG game records")
    gcg_sub = gcg.add_subparsers(dest="gcg_command", required=True)
    check = gcg_sub.add_parser(
        "check",
        help="replay records with the rules engine and report score discrepancies",
        description="Exit status 1 when any record has a discrepancy or cannot be read.",
    )
    check.add_argument("files", nargs="+", type=Path, metavar="FILE")
    check.add_argument("--json", action="store_true", help="one JSON object for all files")
    check.add_argument("--profile", default="wespa", help="rule profile name or TOML path")
    check.add_argument("--tileset", default="english", help="tile set name or TOML path")
    check.set_defaults(func=run_check)


def check_file(path: Path, rules, tileset) -> tuple[list[Discrepancy], int]:
    """Discrepancies of one file and the number of events replayed."""
    try:
        record = parse_gcg(path.read_bytes(), source=str(path))
    except OSError as exc:
        return [Discrepancy(None, "", "unreadable", exc.strerror or str(exc))], 0
    except GcgError as exc:
        return [Discrepancy(exc.line, "", "malformed", exc.reason)], 0
    result = replay(record, rules, tileset)
    found = [
        replace(d, player=excerpt(d.player, QUOTED), reason=excerpt(d.reason, QUOTED))
        for d in result.discrepancies
    ]
    return found, result.events


def _line(path: Path, d: Discrepancy) -> str:
    where = f"{path}:{d.line}" if d.line else str(path)
    who = f" {d.player}:" if d.player else ""
    values = ""
    if d.recorded is not None:
        values = f" (recorded {d.recorded}, computed {d.computed})"
    return f"{where}:{who} {d.kind}: {d.reason}{values}"


def run_check(args: argparse.Namespace) -> int:
    try:
        rules, tileset = load_profile(args.profile), load_tileset(args.tileset)
    except (OSError, ValueError) as exc:
        print(f"tilecast gcg check: {exc}", file=sys.stderr)
        return 2
    report, bad = [], 0
    for path in args.files:
        found, events = check_file(path, rules, tileset)
        bad += bool(found)
        report.append(
            {"file": str(path), "events": events, "discrepancies": [asdict(d) for d in found]}
        )
        if not args.json:
            for d in found:
                print(_line(path, d))
    if args.json:
        json.dump({"files": report, "files_with_discrepancies": bad}, sys.stdout, indent=1)
        print()
    else:
        print(f"{len(args.files)} files checked, {bad} with discrepancies")
    return 1 if bad else 0
