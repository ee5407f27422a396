"""The `tilecast` command: one subcommand per module in tilecast/commands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

from tilecast.commands.errors import UsageError
from tilecast.hookspecs import StopRun
from tilecast.journal import JournalError, JournalWriteError

# Each module defines `register(subparsers)`, which adds its parser and sets `func`.
COMMANDS = [
    "gcg", "selfplay", "render", "record", "readboard", "enroll", "serve", "demo", "plugins",
]


class _Parser(argparse.ArgumentParser):
    """A malformed command line is a user mistake too: one line naming the option, status 2.
    Subcommand parsers are of the same class (argparse's default)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tilecast", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"tilecast.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(_joined_values(sys.argv[1:] if argv is None else argv))
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()
        return status
    except (JournalWriteError, StopRun) as exc:  # a failed run: what was recorded stands
        print(f"tilecast {args.command}: {exc}", file=sys.stderr)
        return 1
    except (UsageError, JournalError) as exc:
        # (a damaged journal is refused whole, by file and line: nothing recorded is lost)
        print(f"tilecast {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of our output went away (`tilecast read-board ... | head`): not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


VALUE_OPTIONS = ("--corners",)  # options whose value may start with a minus sign


def _joined_values(argv: list[str]) -> list[str]:
    """`--corners -5,10,...` as `--corners=-5,10,...`: argparse takes a value that starts with
    '-' and is not a plain number for another option."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in VALUE_OPTIONS and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and argv[i + 1][1:2].isdigit():
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


if __name__ == "__main__":
    sys.exit(main())
