"""The shape of what an operator may submit: each journal entry type, its fields and their JSON
types. Whether an entry is allowed now (whose turn it is, which tiles are left, what a play
scores) is for the recorder to say; this only keeps malformed input out of the journal."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

MAX_SECONDS = 24 * 3600


class EntryError(ValueError):
    """A request body that is not a well-formed entry; the message says which field."""


Check = Callable[[Any, str], Any]


def _integer(low: int, high: int) -> Check:
    def check(value: Any, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise EntryError(f"{name} must be a whole number from {low} to {high}")
        return value

    return check


def _text(pattern: str, what: str) -> Check:
    rule = re.compile(pattern)

    def check(value: Any, name: str) -> str:
        if not isinstance(value, str) or not rule.fullmatch(value):
            raise EntryError(f"{name} must be {what}")
        return value

    return check


def _boolean(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise EntryError(f"{name} must be true or false")
    return value


def _pair(item: Check) -> Check:
    def check(value: Any, name: str) -> list[Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise EntryError(f"{name} must be a list of two values, one per player")
        return [item(v, f"{name}[{i}]") for i, v in enumerate(value)]

    return check


PLAYER = _integer(0, 1)
COORD = _text(r"[0-9]{1,2}[A-Oa-o]|[A-Oa-o][0-9]{1,2}", "a coordinate such as 8D or D8")
WORD = _text(r"[A-Za-z.]{1,15}", "1-15 letters (lower case for blanks, '.' to play through)")
RACK = _text(r"[A-Z?]{0,7}", "0-7 tiles in capitals, '?' for a blank")
TILES = _text(r"[A-Z?]{1,7}", "1-7 tiles in capitals, '?' for a blank")
SCORE = _integer(-10_000, 10_000)
REASON = _text(r"[^\x00-\x1f]{0,200}", "at most 200 characters on one line")

# type -> (required fields, optional fields); the same fields the recorder reads.
ENTRIES: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    # uncounted: record it though the board would hold more of a letter than the set has (an
    # earlier play is misread and not yet corrected), as the camera's clear readings are
    "play": ({"coord": COORD, "word": WORD}, {"uncounted": _boolean}),
    "pass": ({}, {}),
    "exchange": ({}, {"tiles": TILES, "count": _integer(1, 7)}),
    "challenge": ({"valid": _boolean}, {"words": _integer(1, 15)}),
    "end": ({}, {"racks": _pair(RACK)}),
    "time": ({"player": PLAYER, "seconds_over": _integer(0, MAX_SECONDS)}, {}),
    "announce": ({"score": SCORE}, {}),
    "slip": ({"scores": _pair(SCORE)}, {}),
    "correct": (
        {"op": _text(r"insert|replace|delete", "insert, replace or delete"),
         "index": _integer(0, 10_000)},
        {"action": None, "reason": REASON},  # action: checked by `action` below
    ),
    "blank": ({"index": _integer(0, 10_000), "letters": _text(r"[A-Za-z]{1,2}", "1-2 letters")},
              {}),
    "clock": ({"player": PLAYER, "seconds_left": _integer(-MAX_SECONDS, MAX_SECONDS)}, {}),
}

def _exchanged(value: Any, name: str) -> str | int:
    """An exchange action's tiles: which ones, or only how many."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _integer(1, 7)(value, name)
    return TILES(value, name)


# What a correction may put in the action list (the recorder's action types and fields).
ACTIONS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "play": ENTRIES["play"],
    "pass": ({}, {}),
    "exchange": ({"tiles": _exchanged}, {}),
    "withdraw": ({}, {}),
    "challenge": ({}, {"words": _integer(1, 15)}),
    "time": ENTRIES["time"],
    "end": ENTRIES["end"],
}


def _fields(
    body: Any, kinds: dict[str, tuple[dict[str, Check], dict[str, Check]]], what: str
) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise EntryError(f"{what} must be a JSON object")
    kind = body.get("type")
    if kind not in kinds:
        raise EntryError(f"{what} type must be one of {', '.join(sorted(kinds))}")
    required, optional = kinds[kind]
    unknown = sorted(set(body) - set(required) - set(optional) - {"type"})
    if unknown:
        raise EntryError(f"{what} {kind}: unknown field {', '.join(unknown)}")
    clean: dict[str, Any] = {"type": kind}
    for name, check in required.items():
        if name not in body:
            raise EntryError(f"{what} {kind}: {name} is required")
        clean[name] = check(body[name], name)
    for name, check in optional.items():
        if name in body and check is not None:
            clean[name] = check(body[name], name)
    return clean


def action(body: Any) -> dict[str, Any]:
    """A well-formed action for a correction to insert or replace."""
    return _fields(body, ACTIONS, "action")


def entry(body: Any) -> dict[str, Any]:
    """A well-formed operator entry, marked as from the operator, ready for Session.submit;
    raises EntryError naming what is wrong."""
    clean = _fields(body, ENTRIES, "entry")
    kind = clean["type"]
    if kind == "exchange" and ("tiles" in clean) == ("count" in clean):
        raise EntryError("entry exchange: give either tiles or count")
    if kind == "correct":
        if clean["op"] == "delete":
            if "action" in body:
                raise EntryError("entry correct: a delete takes no action")
        elif "action" not in body:
            raise EntryError(f"entry correct: {clean['op']} needs an action")
        else:
            clean["action"] = action(body["action"])
    return {**clean, "source": "operator"}
