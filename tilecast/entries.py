"""Journal entries as typed values, checked in one place: what the operator posts to the server,
what an events file holds and what the journal reads back all go through `parse_entry`, so a
malformed entry is an InputError naming its field, never a KeyError deep in the recorder.

Whether an entry is allowed now (whose turn it is, which tiles are left, what a play scores) is
for the recorder to say; this only keeps malformed input out of the journal. Numbers must be
finite: a NaN time would hold back every later event, and NaN is not JSON.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

MAX_SECONDS = 24 * 3600
# Where an entry comes from; ACTION: an action a correction puts in the recorder's list.
OPERATOR, EVENTS, JOURNAL, ACTION = "operator", "events", "journal", "action"
ANYWHERE = frozenset({OPERATOR, EVENTS, JOURNAL, ACTION})
TIMED = frozenset({EVENTS, JOURNAL})  # entries that say when they happened
RECORDED = frozenset({JOURNAL})  # written by Tilecast itself, never typed in


class InputError(ValueError):
    """An operator, events-file or journal entry that is malformed or not allowed now."""


Check = Callable[[Any, str], Any]


def _integer(low: int, high: int) -> Check:
    def check(value: Any, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"{name} must be a whole number from {low} to {high}")
        return value

    return check


def _number(low: float, high: float) -> Check:
    def check(value: Any, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value) or not low <= value <= high:
            raise InputError(f"{name} must be a finite number from {low} to {high}")
        return value

    return check


def _text(pattern: str, what: str) -> Check:
    rule = re.compile(pattern)

    def check(value: Any, name: str) -> str:
        if not isinstance(value, str) or not rule.fullmatch(value):
            raise InputError(f"{name} must be {what}")
        return value

    return check


def _boolean(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{name} must be true or false")
    return value


def _list(item: Check, low: int, high: int, what: str) -> Check:
    def check(value: Any, name: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise InputError(f"{name} must be {what}")
        return tuple(item(v, f"{name}[{i}]") for i, v in enumerate(value))

    return check


def _pair(item: Check) -> Check:
    return _list(item, 2, 2, "a list of two values, one per player")


def _object(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{name} must be a JSON object")
    return value


def _action(value: Any, name: str) -> dict[str, Any]:
    """What a correction puts in the recorder's action list, checked like an entry."""
    return _parse(value, ACTIONS, "action", ACTION).as_json()


def _exchanged(value: Any, name: str) -> str | int:
    """An exchange action's tiles: which ones, or only how many."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _integer(1, 7)(value, name)
    return TILES(value, name)


PLAYER = _integer(0, 1)
INDEX = _integer(0, 10_000)
SECONDS = _number(-MAX_SECONDS * 100, MAX_SECONDS * 100)  # into the source
COORD = _text(r"[0-9]{1,2}[A-Oa-o]|[A-Oa-o][0-9]{1,2}", "a coordinate such as 8D or D8")
WORD = _text(r"[A-Za-z.]{1,15}", "1-15 letters (lower case for blanks, '.' to play through)")
RACK = _text(r"[A-Z?]{0,7}", "0-7 tiles in capitals, '?' for a blank")
TILES = _text(r"[A-Z?]{1,7}", "1-7 tiles in capitals, '?' for a blank")
SCORE = _integer(-10_000, 10_000)
REASON = _text(r"[^\x00-\x1f]{0,200}", "at most 200 characters on one line")
LINE = _text(r"[^\x00-\x1f]{0,2000}", "one line of text")
NAME = _text(r"[a-z][a-z-]{0,39}", "a lower-case name such as 'camera'")
SQUARE = _list(_integer(0, 14), 2, 2, "a [row, column] pair")
SQUARES = _list(SQUARE, 0, 225, "a list of [row, column] pairs")
BLANK_OPTIONS = _list(_list(_text(r"[A-Za-z]", "a letter"), 1, 2, "letters"), 0, 26 * 26,
                      "a list of the blanks' possible letters")


REQUIRED = MISSING  # a field's default when the entry must give it


def _spec(check: Check, origins: frozenset[str] = ANYWHERE, default: Any = None) -> Any:
    """A field: its check, and where it may come from; REQUIRED when it has no default."""
    meta = {"check": check, "origins": origins}
    return field(metadata=meta) if default is REQUIRED else field(default=default, metadata=meta)


@dataclass(frozen=True, kw_only=True)
class Entry:
    """What any entry may carry besides its own fields."""

    TYPE: ClassVar[str] = ""
    ORIGINS: ClassVar[frozenset[str]] = ANYWHERE

    time: float | None = _spec(SECONDS, TIMED)  # seconds into the source
    source: str | None = _spec(NAME, RECORDED)  # 'operator', 'camera', 'recorder', ...
    seq: int | None = _spec(_integer(0, 10**9), RECORDED)  # place in the journal
    events_line: int | None = _spec(_integer(1, 10**9), RECORDED)

    def check(self) -> None:
        """Rules across fields; InputError when one is broken."""

    def as_json(self) -> dict[str, Any]:
        """The entry as the recorder and the journal take it: the fields given, as JSON."""
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = _to_json(value)
        return out


def _to_json(value: Any) -> Any:
    return [_to_json(v) for v in value] if isinstance(value, tuple) else value


@dataclass(frozen=True, kw_only=True)
class Play(Entry):
    TYPE = "play"
    coord: str = _spec(COORD, default=REQUIRED)
    word: str = _spec(WORD, default=REQUIRED)
    # record it though the board would hold more of a letter than the set has (an earlier play
    # is misread and not yet corrected), as the camera's clear readings are
    uncounted: bool | None = _spec(_boolean)
    # record it though it joins no tile of the record (a play the camera did not see joins it)
    unconnected: bool | None = _spec(_boolean)
    probability: float | None = _spec(_number(0.0, 1.0), RECORDED)
    blank_options: tuple[tuple[str, ...], ...] | None = _spec(BLANK_OPTIONS, RECORDED)


@dataclass(frozen=True, kw_only=True)
class Pass(Entry):
    TYPE = "pass"


@dataclass(frozen=True, kw_only=True)
class Exchange(Entry):
    TYPE = "exchange"
    tiles: str | None = _spec(TILES)
    count: int | None = _spec(_integer(1, 7))

    def check(self) -> None:
        if (self.tiles is None) == (self.count is None):
            raise InputError("entry exchange: give either tiles or count")


@dataclass(frozen=True, kw_only=True)
class Withdraw(Entry):
    """A phony taken back, as the camera sees it (an operator posts an invalid challenge)."""

    TYPE = "withdraw"
    ORIGINS = frozenset({EVENTS, JOURNAL, ACTION})


@dataclass(frozen=True, kw_only=True)
class ExchangeAction(Entry):
    TYPE = "exchange"
    tiles: str | int = _spec(_exchanged, default=REQUIRED)


@dataclass(frozen=True, kw_only=True)
class Challenge(Entry):
    TYPE = "challenge"
    valid: bool = _spec(_boolean, default=REQUIRED)
    words: int | None = _spec(_integer(1, 15))


@dataclass(frozen=True, kw_only=True)
class ChallengeAction(Entry):
    """A challenge bonus in the action list (the entry's `valid` is decided by then)."""

    TYPE = "challenge"
    words: int | None = _spec(_integer(1, 15))


@dataclass(frozen=True, kw_only=True)
class End(Entry):
    TYPE = "end"
    racks: tuple[str, str] | None = _spec(_pair(RACK))


@dataclass(frozen=True, kw_only=True)
class Time(Entry):
    TYPE = "time"
    player: int = _spec(PLAYER, default=REQUIRED)
    seconds_over: int = _spec(_integer(0, MAX_SECONDS), default=REQUIRED)


@dataclass(frozen=True, kw_only=True)
class Announce(Entry):
    TYPE = "announce"
    score: int = _spec(SCORE, default=REQUIRED)


@dataclass(frozen=True, kw_only=True)
class Slip(Entry):
    TYPE = "slip"
    scores: tuple[int, int] = _spec(_pair(SCORE), default=REQUIRED)


@dataclass(frozen=True, kw_only=True)
class Correct(Entry):
    TYPE = "correct"
    op: str = _spec(_text(r"insert|replace|delete", "insert, replace or delete"),
                    default=REQUIRED)
    index: int = _spec(INDEX, default=REQUIRED)
    action: dict[str, Any] | None = _spec(_action)
    reason: str | None = _spec(REASON)
    blank_options: tuple[tuple[str, ...], ...] | None = _spec(BLANK_OPTIONS, RECORDED)

    def check(self) -> None:
        if self.op == "delete" and self.action is not None:
            raise InputError("entry correct: a delete takes no action")
        if self.op != "delete" and self.action is None:
            raise InputError(f"entry correct: {self.op} needs an action")


@dataclass(frozen=True, kw_only=True)
class Blank(Entry):
    TYPE = "blank"
    index: int = _spec(INDEX, default=REQUIRED)
    letters: str = _spec(_text(r"[A-Za-z]{1,2}", "1-2 letters"), default=REQUIRED)


@dataclass(frozen=True, kw_only=True)
class Clock(Entry):
    TYPE = "clock"
    player: int = _spec(PLAYER, default=REQUIRED)
    seconds_left: int = _spec(_integer(-MAX_SECONDS, MAX_SECONDS), default=REQUIRED)


@dataclass(frozen=True, kw_only=True)
class Board(Entry):
    """What the camera read at a still moment (see Session.camera)."""

    TYPE = "board"
    ORIGINS = RECORDED
    frame: int = _spec(_integer(0, 10**9), default=REQUIRED)
    rows: tuple[str, ...] | None = _spec(
        _list(_text(r"[A-Z?.]{15}", "15 squares"), 15, 15, "15 rows of 15 squares"))
    alerted: tuple[tuple[Any, ...], ...] | None = _spec(
        _list(SQUARES, 3, 3, "three lists of squares"))
    view: int | None = _spec(_integer(0, 1000))


@dataclass(frozen=True, kw_only=True)
class Alert(Entry):
    """Something the TD was told (tilecast.events.Alert), journaled so it is told once."""

    TYPE = "alert"
    ORIGINS = RECORDED
    kind: str = _spec(NAME, default=REQUIRED)
    message: str = _spec(LINE, default=REQUIRED)
    severity: str = _spec(_text(r"info|warning|violation", "info, warning or violation"),
                          default=REQUIRED)
    turn: int | None = _spec(INDEX)
    data: dict[str, Any] | None = _spec(_object)


ENTRIES: dict[str, type[Entry]] = {
    cls.TYPE: cls
    for cls in (Play, Pass, Exchange, Withdraw, Challenge, End, Time, Announce, Slip, Correct,
                Blank, Clock, Board, Alert)
}
# What a correction may put in the action list: the recorder's action types and fields.
ACTIONS: dict[str, type[Entry]] = {
    cls.TYPE: cls for cls in (Play, Pass, ExchangeAction, Withdraw, ChallengeAction, End, Time)
}


def parse_entry(body: Any, origin: str = JOURNAL) -> Entry:
    """The typed entry of a JSON object from `origin` (OPERATOR, EVENTS or JOURNAL); raises
    InputError naming the field that is missing, unknown or of the wrong shape."""
    return _parse(body, ENTRIES, "entry", origin)


def _parse(body: Any, kinds: dict[str, type[Entry]], what: str, origin: str) -> Entry:
    if not isinstance(body, dict):
        raise InputError(f"{what} must be a JSON object")
    allowed = {k: cls for k, cls in kinds.items() if origin in cls.ORIGINS}
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in allowed:
        raise InputError(f"{what} type must be one of {', '.join(sorted(allowed))}")
    cls = allowed[kind]
    own = {f.name: f for f in fields(cls) if origin in f.metadata["origins"]}
    unknown = sorted(set(body) - set(own) - {"type"})
    if unknown:
        raise InputError(f"{what} {kind}: unknown field {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for name, f in own.items():
        if name in body:
            values[name] = f.metadata["check"](body[name], name)
        elif f.default is MISSING:
            raise InputError(f"{what} {kind}: {name} is required")
    entry = cls(**values)
    entry.check()
    return entry
