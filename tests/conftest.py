"""Shared test fixtures and helpers: the shipped English set and profiles, the ../shared corpus,
and plugins that take every hook."""

from __future__ import annotations

import inspect
import types
from pathlib import Path

import pytest

from tilecast import hookspecs
from tilecast.config import load_profile, load_tileset
from tilecast.hookspecs import hookimpl

HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tilecast_"))

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
