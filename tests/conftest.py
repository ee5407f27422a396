"""Shared test fixtures and helpers: the shipped English set and profiles, the ../shared corpus,
plugins that take every hook, a session with real arguments for every hook, a hand-set clock,
the drawn boards of the locate tests, the server's test app, and the boards and camera
readings the recorder, interpretation and session tests build."""

from __future__ import annotations

import inspect
import types
from pathlib import Path

import pytest

from tilecast import hookspecs
from tilecast.config import load_profile, load_tileset
from tilecast.engine.board import Board, parse_coord
from tilecast.engine.game import (
    Game,
    challenge_bonus,
    end_scoreless,
    exchange,
    new_game,
    pass_turn,
    play,
    result,
    withdraw,
)
from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.play import placements_for
from tilecast.events import Alert, SessionInfo
from tilecast.hookspecs import hookimpl
from tilecast.recorder import Recorder

HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tilecast_"))

LEX = Lexicon(["WINDY", "GALE", "AWE", "WE", "AW", "GAL", "AD", "CAT"])
# A scripted camera reading's corners (vision.reader.Reading.fix): squares 40 pixels wide.
FIX = ((100.0, 100.0), (700.0, 100.0), (700.0, 700.0), (100.0, 700.0))
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def english():
    return load_tileset("english")


@pytest.fixture(scope="session")
def wespa():
    return load_profile("wespa")


def shared_dir(*parts: str) -> Path:
    """A folder of ../shared, or skip: a user's clone has no shared material."""
    path = SHARED.joinpath(*parts)
    if not path.is_dir():
        pytest.skip(f"{path} not present (shared test material lives beside the repo)")
    return path


@pytest.fixture(scope="session")
def enrolled(tmp_path_factory) -> str:
    """A venue's tile set as `tilecast enroll` saves it (random embeddings of the model's
    width): enough to see that a reader carries it."""
    import numpy as np

    from tilecast.vision.classify import Prototypes, TileClassifier

    width = TileClassifier.load().session.get_outputs()[2].shape[-1]
    vectors = np.random.default_rng(0).normal(size=(4, width)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    path = tmp_path_factory.mktemp("venue") / "venue.npz"
    Prototypes.from_embeddings(vectors, ["A", "B", "C", "."], 0.3).save(path)
    return str(path)


def wrapper_of_every_hook(seen: list[str]) -> object:
    """A plugin with a `wrapper=True` implementation of every hook, noting each call."""

    def wrapping(hook: str):
        @hookimpl(wrapper=True, specname=hook)
        def wrap():
            seen.append(hook)
            return (yield)

        return wrap

    return types.SimpleNamespace(**{f"wrap_{hook}": wrapping(hook) for hook in HOOKS})


def listener_of_every_hook(calls: list[tuple[str, dict]]) -> object:
    """A plugin implementing every hook with the spec's argument names (read from the specs,
    so it cannot drift from them), noting each call and what it received."""

    def listening(hook: str):
        spec = getattr(hookspecs, hook)
        names = list(inspect.signature(spec).parameters)

        def listen(*args):  # pluggy passes the arguments the spec names, in its order
            calls.append((hook, dict(zip(names, args, strict=True))))

        listen.__wrapped__ = spec  # what pluggy reads the argument names from
        return hookimpl(specname=hook)(listen)

    return types.SimpleNamespace(**{f"on_{hook}": listening(hook) for hook in HOOKS})
def probs_of(board, over=None):
    """A sharp reading of `board`, with `over` overriding squares: {(r, c): {class: p}}."""
    import numpy as np

    p = np.zeros((225, len(CLASSES)))
    for i in range(225):
        tile = board.at(*divmod(i, 15))
        p[i, EMPTY_CLASS if tile is None else CLASSES.index("?" if tile.blank else tile.letter)] = 1
    for (r, c), reading in (over or {}).items():
        p[r * 15 + c] = [reading.get(ch, 0.0) for ch in CLASSES]
    return p


def put(board, coord, word):
    """The board with `word` played at `coord`."""
    placed = placements_for(board, parse_coord(coord), word)
    return board.with_tiles((q.row, q.col, q.tile) for q in placed)


def recorder(english, wespa, lexicon=LEX):
    """A recorder for a fresh game under `wespa` with the English set."""
    return Recorder(wespa, english, lexicon)


def camera(rec, probs, time=1.0):
    """A committed reading as the session feeds it: its moves, then the board as read, with the
    memory of alerts the interpretation gave."""
    entries, memory = rec.interpret(probs.tolist(), time)
    notes = []
    for entry in entries:
        notes += rec.apply(entry)
    top = probs.argmax(axis=1)
    rows = ["".join(CLASSES[k] for k in top[r * 15:(r + 1) * 15]) for r in range(15)]
    rec.apply({"type": "board", "rows": rows, "alerted": memory.as_json(), "time": time})
    return notes


# --- plugins: a session, a few games and real arguments for every hook ---------------------


def spec_args(hook: str) -> list[str]:
    """The argument names a hook's spec declares."""
    return list(inspect.signature(getattr(hookspecs, hook)).parameters)


@pytest.fixture
def session(tmp_path: Path) -> SessionInfo:
    """The session the plugin tests fire hooks for: table1, its out-dir under tmp_path."""
    return SessionInfo("table1", ("Ann Smith", "Bob"), "wespa", str(tmp_path / "out"))


def opening(wespa, english) -> Game:
    """Ann plays WINDY (challenged in vain), Bob's phony GaLX is withdrawn, Ann exchanges."""
    g = new_game(wespa, english)
    g = play(g, parse_coord("8D"), "WINDY")
    g = challenge_bonus(g)
    g = play(g, parse_coord("7C"), "GaLX")
    g = withdraw(g)
    return exchange(g, "AE")


def scoreless_end(game: Game) -> Game:
    while game.phase == "playing":
        game = pass_turn(game)
    return end_scoreless(game, ("QU", "ZOO"))


def camera_rows(board: Board) -> list[str]:
    """What the camera reads of a board: blanks show as '?'."""
    return ["".join("?" if ch.islower() else ch for ch in row) for row in board.rows()]


def hook_args(hook: str, session: SessionInfo, wespa, english) -> dict:
    """Real arguments for every hook, built with the engine."""
    import flask

    g = new_game(wespa, english)
    played = play(g, parse_coord("8D"), "WINDY")
    with_blank = play(g, parse_coord("8H"), "Ox")
    over = scoreless_end(played)
    return {
        "tilecast_session_start": dict(session=session, game=g),
        "tilecast_board_committed": dict(
            session=session, board=played.board, rows=camera_rows(played.board), frame=7, time=0.25
        ),
        "tilecast_clock": dict(session=session, game=played, clocks=(612.0, None)),
        "tilecast_move_recorded": dict(session=session, game=played, turn=played.turns[-1]),
        "tilecast_move_withdrawn": dict(
            session=session, game=withdraw(played), turn=withdraw(played).turns[-1]
        ),
        "tilecast_blank_needs_letter": dict(
            session=session, game=with_blank, turn_index=0, square="I8", options=["X", "Y"]
        ),
        "tilecast_record_changed": dict(session=session, game=played, reason="inserted a pass"),
        "tilecast_alert": dict(session=session, alert=Alert("board-disturbed", "a tile moved")),
        "tilecast_game_ended": dict(session=session, game=over, result=result(over)),
        "tilecast_session_end": dict(session=session, game=over),
        "tilecast_server_routes": dict(app=flask.Flask("test")),
    }[hook]


class Clock:
    """A clock a test sets by hand (`clock.t += 60`), for delays and heartbeats."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


# --- locate: the drawn board --------------------------------------------------------------

PX = 40  # pixels per cell of the drawn board, before warping
PREMIUM_BGR = {
    "TW": (40, 40, 200),
    "DW": (150, 150, 240),
    "TL": (170, 90, 30),
    "DL": (230, 200, 150),
}


def max_error_cells(found, truth) -> float:
    """The worst corner's distance from the truth, in cells of the true board."""
    import numpy as np

    from tilecast.vision.rectify import cell_size_px

    return float(np.linalg.norm(found - truth, axis=1).max() / cell_size_px(truth))


# --- server: the test app and its tokens --------------------------------------------------

OPERATOR = "operator-secret-1"
TD = "td-secret-22"
AS_OPERATOR = {"Authorization": f"Bearer {OPERATOR}"}
AS_TD = {"Authorization": f"Bearer {TD}"}


def make_app(out: Path, boards=None, clock=None, make_reader=None, **settings):
    """A server app with its own built-ins (the broadcast on `clock` when given), boards t1
    (Ann v Bob) and t2 unless `boards` says otherwise, and a fast heartbeat."""
    from tilecast.pluginmanager import plugin_manager
    from tilecast.plugins import annotation
    from tilecast.plugins.alerts import AlertLog
    from tilecast.plugins.broadcast import Broadcast
    from tilecast.server.app import create_app
    from tilecast.server.config import BoardSpec, ServerConfig

    pm = plugin_manager(entry_points=False)
    pm.register(Broadcast(now=clock) if clock else Broadcast(), name="broadcast")
    pm.register(AlertLog(), name="alerts")
    pm.register(annotation, name="annotation")
    boards = boards or (BoardSpec("t1", players=("Ann", "Bob")), BoardSpec("t2"))
    config = ServerConfig(boards, out, OPERATOR, TD, **{"heartbeat_s": 0.2, **settings})
    return create_app(config, pm, make_reader)
