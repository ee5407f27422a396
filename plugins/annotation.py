"""Built-in plugin `annotation`: the game's GCG record on disk, rewritten after every event.

Annotators and the TD open `<out_dir>/<board>.gcg` at any time and find the record so far. Each
write goes to a temporary file in the same folder that is flushed to disk and then renamed over
the record, so a reader (or a crash) never sees half a file. A play after which the board holds
more of a letter than the set has (the camera read it clearly, so it was recorded as read) gets a
#note saying so: other GCG tools refuse such a play, and the note tells the reader why it stands.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from pathlib import Path

from tilecast.engine.game import Game, Result, Turn
from tilecast.engine.gcg import format_gcg
from tilecast.engine.record import game_record, players
from tilecast.events import SessionInfo
from tilecast.hookspecs import hookimpl


def record_path(session: SessionInfo) -> Path:
    return Path(session.out_dir) / f"{session.board}.gcg"


def count_notes(game: Game) -> list[str]:
    """Per turn, a note for each play that takes a letter past the set's count ('' if none)."""
    on_board: Counter[str] = Counter()
    standing: list[Turn] = []  # plays on the board, for a withdrawal to take the last one off
    notes = []
    for turn in game.turns:
        note = ""
        if turn.kind == "play":
            standing.append(turn)
            faces = [p.tile.face for p in turn.placed]
            on_board.update(faces)
            over = [f for f in sorted(set(faces)) if on_board[f] > game.tileset.counts.get(f, 0)]
            if over:
                held = ", ".join(f"{on_board[f]} {'blanks' if f == '?' else f}" for f in over)
                note = (f"Tilecast: the board now holds {held}, more than the {game.tileset.name} "
                        "set has; recorded as the camera read it (this play or an earlier one "
                        "is misread)")
        elif turn.kind == "withdraw" and standing:
            on_board.subtract(p.tile.face for p in standing.pop().placed)
        notes.append(note)
    return notes


def record_text(session: SessionInfo, game: Game) -> str:
    """The GCG text of `game` with the session's players and the board name as the game id."""
    pragmas = [("description", "Tilecast")]
    if session.lexicon:
        pragmas.append(("lexicon", session.lexicon))
    pragmas.append(("id", f"tilecast {session.board}"))
    record = game_record(game, players(*session.players), pragmas=tuple(pragmas),
                         notes=count_notes(game))
    return format_gcg(record)


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) so that it holds either the old or the new text."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable where the OS allows it
        dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def write_record(session: SessionInfo, game: Game) -> Path:
    path = record_path(session)
    write_atomic(path, record_text(session, game))
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
