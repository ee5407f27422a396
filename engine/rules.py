"""Tournament rule profiles: the choices WESPA rules leave to each event."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

CHALLENGE_MODES = ("free", "points", "double")
END_PROCEDURES = ("wespa", "standard")


@dataclass(frozen=True)
class Rules:
    """One event's settings. Defaults follow WESPA Rules 4.0 where they fix a value.

    challenge: 'free' (no penalty), 'points' (the challenged player gains `challenge_points` per
    word challenged) or 'double' (a failed challenge costs the challenger's turn).
    end_procedure: 'wespa' (going out earns twice the opponent's rack) or 'standard' (+x / -x).
    Time penalties: `time_penalty` points per minute or part thereof over `time_limit_min`, at most
    `time_penalty_cap` in all (None: no cap); `forfeit_after_min` minutes over loses the game.
    lexicon: the event's word list, by name or word-list path ('' when it names none); a
    recording uses it where it is supplied (see tilecast.lexicons.choose).
    """

    name: str = "wespa"
    challenge: str = "points"
    challenge_points: int = 5
    end_procedure: str = "wespa"
    scoreless_turns: int = 6
    exchange_min_bag: int = 7
    time_limit_min: int = 25
    time_penalty: int = 10
    time_penalty_cap: int | None = None
    forfeit_after_min: int | None = 10
    spread_cap: int | None = None
    lexicon: str = ""

    def __post_init__(self) -> None:
        if self.challenge not in CHALLENGE_MODES:
            raise ValueError(f"challenge must be one of {CHALLENGE_MODES}, got {self.challenge!r}")
        if self.end_procedure not in END_PROCEDURES:
            raise ValueError(
                f"end_procedure must be one of {END_PROCEDURES}, got {self.end_procedure!r}"
            )
        for name in ("challenge_points", "scoreless_turns", "time_limit_min", "time_penalty"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> Rules:
        """Build from a profile file's table; unknown keys are an error so typos are caught."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule settings: {', '.join(unknown)}")
        return cls(**data)

    def overtime_penalty(self, seconds_over: int) -> int:
        """Points lost for going `seconds_over` whole seconds past the limit (0 if not over)."""
        if seconds_over <= 0:
            return 0
        points = math.ceil(seconds_over / 60) * self.time_penalty
        return points if self.time_penalty_cap is None else min(points, self.time_penalty_cap)

    def forfeits_on_time(self, seconds_over: int) -> bool:
        return self.forfeit_after_min is not None and seconds_over >= self.forfeit_after_min * 60
