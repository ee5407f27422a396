"""Loading the data files the engine is configured with: tile sets and tournament profiles."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from tilecast.engine.rules import Rules
from tilecast.engine.tiles import TileSet

_DATA = resources.files("tilecast") / "data"


def _read_toml(kind: str, name_or_path: str | Path) -> tuple[str, dict]:
    """Read a shipped data file by name (e.g. 'english') or a user's file by path."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise FileNotFoundError(f"{kind} file not found: {path}")
        text, where = path.read_text(encoding="utf-8"), str(path)
    else:
        shipped = _DATA / f"{kind}s" / f"{name_or_path}.toml"
        if not shipped.is_file():
            known = sorted(p.name[:-5] for p in (_DATA / f"{kind}s").iterdir())
            raise ValueError(f"unknown {kind} {str(name_or_path)!r}; shipped: {', '.join(known)}")
        text, where = shipped.read_text(encoding="utf-8"), f"{kind} {name_or_path}"
    try:
        return where, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{where}: {exc}") from exc


def load_tileset(name_or_path: str | Path = "english") -> TileSet:
    where, data = _read_toml("tileset", name_or_path)
    if "tiles" not in data:
        raise ValueError(f"{where}: missing [tiles] table")
    return TileSet.from_mapping(data.get("name", str(name_or_path)), data["tiles"])


def load_profile(name_or_path: str | Path = "wespa") -> Rules:
    """A tournament rule profile: a shipped name ('wespa', 'event001') or a TOML file path."""
    where, data = _read_toml("profile", name_or_path)
    try:
        return Rules.from_mapping(data)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from exc
