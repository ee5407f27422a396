"""Shared test fixtures: the shipped English set and profiles, and the ../shared corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecast.config import load_profile, load_tileset

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
