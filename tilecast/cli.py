"""The `tilecast` command: one subcommand per module in tilecast/commands."""

from __future__ import annotations

import argparse
import importlib
import sys

# Each module defines `register(subparsers)`, which adds its parser and sets `func`.
COMMANDS = [
    "gcg", "selfplay", "render", "record", "readboard", "enroll", "serve", "demo", "plugins",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tilecast", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"tilecast.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
