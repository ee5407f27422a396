"""The user mistakes a command reports as one line naming the input, with exit status 2 and no
traceback (`tilecast.cli.main` prints them); anything else escaping a command is a bug and keeps
its traceback. A malformed option value is argparse's own error, printed the same way."""

from __future__ import annotations

import tempfile
from pathlib import Path


class UsageError(Exception):
    """A mistake in what the user gave; str() names the input and says what is wrong."""


class ConfigError(UsageError):
    """A rule profile, tile set or word list that cannot be loaded."""


class OutputError(UsageError):
    """An output path that is a folder or where no file can be written."""


class OptionError(UsageError):
    """An option's value that does not fit the input it is used on (corners off the frame)."""


def check_writable(option: str, path: Path) -> None:
    """An OutputError unless a file can be written at `path`: found before a run, not after."""
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder, not a file")
    if path.parent.exists() and not path.parent.is_dir():
        raise OutputError(f"{option} {path}: {path.parent} is not a folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write there: {reason(exc)}") from None


def check_folder(option: str, path: Path) -> None:
    """An OutputError unless files can be made in the folder `path`, or in the nearest folder
    above it that exists (the run makes the rest): an out-dir nothing can be written in is
    found before the run, not as a traceback. Nothing is made here."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {path}: is not a folder")
    there = next(p for p in (path.absolute(), *path.absolute().parents) if p.exists())
    if not there.is_dir():
        raise OutputError(f"{option} {path}: {there} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=there):
            pass
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write there: {reason(exc)}") from None


def reason(exc: Exception) -> str:
    """An exception's message without the errno and path decoration the caller already gives."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
