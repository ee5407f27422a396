"""Arguments that several commands take, parsed and checked in one place."""

from __future__ import annotations

import argparse
import math
import zipfile

import numpy as np

CORNERS_HELP = ("X1,Y1,...,X4,Y4: the playing area's four outer corners in pixels, in any order "
                "(which one is square 1A is read from the tiles); skips finding the board")


def add_plugin_options(p: argparse.ArgumentParser) -> None:
    """--disable-plugin NAME (repeatable): switch off a built-in or installed plugin by name."""
    p.add_argument("--disable-plugin", dest="disabled_plugins", action="append", default=[],
                   type=plugin_name, metavar="NAME",
                   help="switch off the plugin of this name (see tilecast plugins); repeatable")


def plugin_name(text: str) -> str:
    """argparse type of --disable-plugin: the name of a plugin there is (a misspelt one would
    leave the plugin on without a word)."""
    from tilecast.pluginmanager import plugin_names

    names = plugin_names()
    if text not in names:
        raise argparse.ArgumentTypeError(f"no plugin named {text!r} (there are: "
                                         f"{', '.join(names)})")
    return text


def corners_arg(text: str) -> np.ndarray:
    """argparse type of --corners: four corners, checked and put in the vision order."""
    from tilecast.vision.rectify import corners_from_points

    try:
        values = [float(v) for v in text.split(",")]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not numbers: {text!r}") from exc
    if len(values) != 8:
        raise argparse.ArgumentTypeError(f"needs 8 numbers (4 x,y pairs), got {len(values)}")
    try:
        return corners_from_points(np.array(values).reshape(4, 2))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def positive(text: str) -> float:
    """argparse type of a rate or a duration (--fps, --still): a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text}")
    return value


def positive_int(text: str) -> int:
    """argparse type of a count (--max-streams): a whole number above 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def port(text: str) -> int:
    """argparse type of a TCP port to listen on (--port): a whole number from 1 to 65535."""
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 1 to 65535, got {text}")
    return value


def enrolled_arg(text: str) -> str:
    """argparse type of an enrolled --tileset: the path, once it reads as one (.npz from
    `tilecast enroll`), so a wrong one is said at once and not as a traceback mid-run."""
    from tilecast.commands.errors import reason
    from tilecast.vision.classify import Prototypes

    try:
        Prototypes.load(text)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {reason(exc)}") from None
    except (ValueError, KeyError, zipfile.BadZipFile):
        raise argparse.ArgumentTypeError(f"{text}: not a tile set from tilecast enroll") from None
    return text


def board_arg(text: str) -> str:
    """argparse type of --board: a name that can name files (tilecast.names)."""
    from tilecast.names import board_name

    try:
        return board_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def player_arg(text: str) -> str:
    """argparse type of --player1/--player2: one line of printable text (tilecast.names)."""
    from tilecast.names import player_name

    try:
        return player_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
