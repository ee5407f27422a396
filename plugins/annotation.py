"""Built-in plugin `annotation`: the game's GCG record on disk, rewritten after every event.

Annotators and the TD open `<out_dir>/<board>.gcg` at any time and find the record so far. Each
write goes to a temporary file in the same folder that is flushed to disk and then renamed over
the record, so a reader (or a crash) never sees half a file. A record that can no longer be
written (the out-dir made read-only) stops the run (StopRun): it must not go on with the live
record stuck at an earlier move. A play after which the board holds
more of a letter than the set has (the camera read it clearly, so it was recorded as read) gets a
#note saying so: other GCG tools refuse such a play, and the note tells the reader why it stands.
"""

from __future__ import annotations

from pathlib import Path

from tilecast.engine.game import Game, Result, Turn
from tilecast.engine.record import gcg_text
from tilecast.events import SessionInfo
from tilecast.files import write_atomic
from tilecast.hookspecs import StopRun, hookimpl


def record_path(session: SessionInfo) -> Path:
    return Path(session.out_dir) / f"{session.board}.gcg"


def record_text(session: SessionInfo, game: Game) -> str:
    """The GCG text of `game` with the session's players and the board name as the game id."""
    return gcg_text(game, session.players, session.board, session.lexicon)


def write_record(session: SessionInfo, game: Game) -> Path:
    """Write the record; StopRun, naming the file and why, when it cannot be written."""
    path = record_path(session)
    try:
        write_atomic(path, record_text(session, game))
    except OSError as exc:
        raise StopRun(f"{path}: cannot write the live record: {exc.strerror or exc}") from exc
    return path


@hookimpl
def tilecast_session_start(session: SessionInfo, game: Game) -> None:
    write_record(session, game)


@hookimpl
def tilecast_move_recorded(session: SessionInfo, game: Game, turn: Turn) -> None:
    write_record(session, game)


@hookimpl
def tilecast_move_withdrawn(session: SessionInfo, game: Game, turn: Turn) -> None:
    write_record(session, game)


@hookimpl
def tilecast_record_changed(session: SessionInfo, game: Game, reason: str) -> None:
    write_record(session, game)


@hookimpl
def tilecast_game_ended(session: SessionInfo, game: Game, result: Result) -> None:
    write_record(session, game)


@hookimpl
def tilecast_session_end(session: SessionInfo, game: Game) -> None:
    write_record(session, game)
