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
