"""The small records that hooks pass to plugins besides engine types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SessionInfo:
    """Which board a session watches and who plays on it."""

    board: str
    players: tuple[str, str]
    profile: str
    out_dir: str
    source: str = ""
    lexicon: str = ""


@dataclass(frozen=True)
class Alert:
    """Something the TD should look at.

    kind names the check ('score-discrepancy', 'board-disturbed', 'too-many-of-letter',
    'exchange-bag', 'illegal-play', 'time-forfeit', 'slip-discrepancy', 'phony', ...);
    severity is 'info', 'warning' or 'violation'; `turn` indexes the game's turns (0-based)
    when the alert concerns one.
    """

    kind: str
    message: str
    severity: str = "warning"
    turn: int | None = None
    time: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)
