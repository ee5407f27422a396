"""Built-in plugin `console`: one line on standard output for every event, for the operator.

Lines start with the board name in brackets so several boards can share a terminal; alerts
start with '!!' so they stand out.
"""

from __future__ import annotations

from tilecast.engine.board import format_coord
from tilecast.engine.game import Game, Result, Turn
from tilecast.events import Alert, SessionInfo
from tilecast.hookspecs import hookimpl


def move_line(session: SessionInfo, turn: Turn) -> str:
    """'Ann 8D WINDY +30 = 30', 'Bob exchanges 3 +0 = 12', 'Ann withdraws -30 = 0'..."""
    name = session.players[turn.player]
    if turn.kind == "play":
        assert turn.coord is not None
        what = f"{format_coord(turn.coord)} {turn.word}"
    elif turn.kind == "exchange":
        what = f"exchanges {turn.tiles or turn.count}"
    elif turn.kind in ("out", "rack"):
        what = f"{turn.kind} ({turn.tiles})"
    else:
        what = {
            "pass": "passes",
            "withdraw": "withdraws",
            "challenge": "challenge bonus",
            "time": "time penalty",
        }[turn.kind]
    return f"{name} {what} {turn.score:+d} = {turn.total}"


def scores_line(session: SessionInfo, game: Game) -> str:
    (a, b), (sa, sb) = session.players, game.scores
    return f"{a} {sa} - {sb} {b}"


def say(session: SessionInfo, text: str) -> None:
    print(f"[{session.board}] {text}", flush=True)


@hookimpl
def tilecast_session_start(session: SessionInfo, game: Game) -> None:
    resumed = f", resumed at turn {len(game.turns)}" if game.turns else ""
    say(session, f"session started: {scores_line(session, game)} ({session.profile}{resumed})")


@hookimpl
def tilecast_board_committed(
    session: SessionInfo, rows: list[str], frame: int, time: float
) -> None:
    tiles = sum(ch != "." for row in rows for ch in row)
    say(session, f"board read at {time:.1f}s (frame {frame}): {tiles} tiles")


@hookimpl
def tilecast_move_recorded(session: SessionInfo, game: Game, turn: Turn) -> None:
    say(session, move_line(session, turn))


@hookimpl
def tilecast_move_withdrawn(session: SessionInfo, game: Game, turn: Turn) -> None:
    say(session, move_line(session, turn))


@hookimpl
def tilecast_blank_needs_letter(
    session: SessionInfo, game: Game, turn_index: int, square: str, options: list[str]
) -> None:
    offered = ", ".join(options) if options else "none in the lexicon"
    say(session, f"blank on {square} (turn {turn_index + 1}) needs its letter: {offered}")


@hookimpl
def tilecast_clock(
    session: SessionInfo, game: Game, clocks: tuple[float | None, float | None]
) -> None:
    shown = [
        "?" if c is None else f"{'-' if c < 0 else ''}{int(abs(c)) // 60}:{int(abs(c)) % 60:02d}"
        for c in clocks
    ]
    say(session, f"clocks {session.players[0]} {shown[0]}, {session.players[1]} {shown[1]}")


@hookimpl
def tilecast_record_changed(session: SessionInfo, game: Game, reason: str) -> None:
    say(session, f"record corrected ({reason}): {scores_line(session, game)}")


@hookimpl
def tilecast_alert(session: SessionInfo, alert: Alert) -> None:
    turn = f" (turn {alert.turn + 1})" if alert.turn is not None else ""
    say(session, f"!! {alert.severity} {alert.kind}{turn}: {alert.message}")


@hookimpl
def tilecast_game_ended(session: SessionInfo, game: Game, result: Result) -> None:
    if result.winner is None:
        outcome = "a draw"
    else:
        outcome = f"{session.players[result.winner]} wins by {result.spread}"
        if result.forfeited is not None:
            outcome += f" ({session.players[result.forfeited]} lost on time)"
    say(session, f"game over: {scores_line(session, game)}, {outcome}")


@hookimpl
def tilecast_session_end(session: SessionInfo, game: Game) -> None:
    say(session, f"session ended: {scores_line(session, game)}")
