"""Shared test fixtures and helpers: the shipped English set and profiles, the ../shared corpus,
plugins that take every hook, and the boards and camera readings the recorder, interpretation
and session tests build."""

from __future__ import annotations

import inspect
import types
from pathlib import Path

import pytest

from tilecast import hookspecs
from tilecast.config import load_profile, load_tileset
from tilecast.engine.board import parse_coord
from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.play import placements_for
from tilecast.hookspecs import hookimpl
from tilecast.recorder import Recorder

HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tilecast_"))

LEX = Lexicon(["WINDY", "GALE", "AWE", "WE", "AW", "GAL", "AD", "CAT"])
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


def camera(rec, probs):
    """A committed reading as the session feeds it: its moves, then the board as read, with the
    memory of alerts the interpretation gave."""
    entries, memory = rec.interpret(probs.tolist(), 1.0)
    notes = []
    for entry in entries:
        notes += rec.apply(entry)
    top = probs.argmax(axis=1)
    rows = ["".join(CLASSES[k] for k in top[r * 15:(r + 1) * 15]) for r in range(15)]
    rec.apply({"type": "board", "rows": rows, "alerted": memory.as_json()})
    return notes
