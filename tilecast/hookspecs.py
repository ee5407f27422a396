"""Every hook Tilecast fires. Plugins implement any of them with `@hookimpl`.

All hooks receive keyword arguments only, and only engine types (`tilecast.engine.*`) and the
records in `tilecast.events`. Hooks fire after the event is safely in the game journal, in the
order events happen. An exception in one plugin is logged and does not stop other plugins or the
session. Every hook is documented with an example in docs/plugins.md.
"""

from __future__ import annotations

from typing import Any

import pluggy

from tilecast.engine.board import Board
from tilecast.engine.game import Game, Result, Turn
from tilecast.events import Alert, SessionInfo

PROJECT = "tilecast"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class StopRun(Exception):
    """Raised by a plugin whose work the run cannot go on without (the built-in annotation
    plugin, when the live record can no longer be written): the plugin manager's guard lets
    it through, and the command stops with its message on one line and exit status 1. Anything
    else a plugin raises is logged and the session goes on."""


@hookspec
def tilecast_session_start(session: SessionInfo, game: Game) -> None:
    """A session opened (fresh or resumed from its journal); `game` is its current state."""


@hookspec
def tilecast_board_committed(
    session: SessionInfo, board: Board, rows: list[str], frame: int, time: float
) -> None:
    """The camera saw a still, unoccluded board and it was checked against the game.

    `rows` is what was read: 15 strings of 'A'-'Z', '?' for a blank face and '.' for empty.
    `board` is the recorded board after any move that reading caused. `frame` is the frame
    index in the source and `time` the seconds since the source started.
    """


@hookspec
def tilecast_move_recorded(session: SessionInfo, game: Game, turn: Turn) -> None:
    """A scored line joined the record: a play, pass, exchange, challenge bonus, end-of-game
    rack adjustment or time penalty. When one action adds several lines (a play that goes
    out and its rack bonus) this fires once per line, in order, each with the game after all."""


@hookspec
def tilecast_move_withdrawn(session: SessionInfo, game: Game, turn: Turn) -> None:
    """The last play was taken back (a withdrawn phony); `turn` is the withdrawal line."""


@hookspec
def tilecast_blank_needs_letter(
    session: SessionInfo, game: Game, turn_index: int, square: str, options: list[str]
) -> None:
    """A blank was played and the lexicon allows several letters (`options`, likeliest first,
    possibly empty); the operator should say which. `turn_index` indexes `game.turns`
    (0-based). The game goes on meanwhile with the first option, or with no options the
    likeliest letter (engine.spelling)."""


@hookspec
def tilecast_record_changed(session: SessionInfo, game: Game, reason: str) -> None:
    """The record was corrected (an inserted pass, a changed blank, a fixed misread...) and the
    scores recomputed from the start; `game` is the whole corrected game."""


@hookspec
def tilecast_clock(
    session: SessionInfo, game: Game, clocks: tuple[float | None, float | None]
) -> None:
    """The operator set the clocks: seconds left for each player (negative when over time,
    None where unknown)."""


@hookspec
def tilecast_alert(session: SessionInfo, alert: Alert) -> None:
    """Something for the TD: a discrepancy, a rule violation or a disturbed board."""


@hookspec
def tilecast_game_ended(session: SessionInfo, game: Game, result: Result) -> None:
    """The game is over and `result` holds the final scores and the (capped) spread."""


@hookspec
def tilecast_session_end(session: SessionInfo, game: Game) -> None:
    """The session is closing (source exhausted, Ctrl-C or shutdown); flush what you keep."""


@hookspec
def tilecast_server_routes(app: Any) -> None:
    """The server is starting: `app` is the Flask app, add blueprints or routes to it."""
