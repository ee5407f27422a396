"""Names people give that end up in file names and in the record: checked once, here, for the
command line, the server's event file and the library alike."""

from __future__ import annotations

import re

# Board names become file names (<name>.gcg, <name>.journal.jsonl): no dots, no slashes.
BOARD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def board_name(text: str) -> str:
    """A board's name, or ValueError saying what a name may be."""
    if not BOARD_NAME.match(text):
        raise ValueError(f"board name {text!r}: use 1-64 letters, digits, '-' or '_', starting "
                         "with a letter or digit (it names files)")
    return text


def player_name(text: str) -> str:
    """A player's name as the record shows it: one line of printable text (a line break would
    start a forged line in the GCG), or ValueError."""
    if not text.strip() or len(text) > 100 or not text.isprintable():
        raise ValueError(f"player name {text!r}: must be 1-100 printable characters on one line")
    return text
