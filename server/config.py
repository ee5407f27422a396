"""What a server runs: its boards (from `--board NAME=SOURCE` or an event file), where files go,
and the tokens that guard every write."""

from __future__ import annotations

import math
import secrets
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tilecast.hall.broker import Broker
from tilecast.names import board_name, player_name
from tilecast.opening import Spec


class ConfigError(ValueError):
    """A board argument or event file that cannot be served."""


@dataclass(frozen=True)
class BoardSpec:
    """One board: `source` is a camera index, stream URL, video file or folder of frames, or
    empty for a board fed by operator input only; `tileset` a venue's enrolled tile set (.npz
    from `tilecast enroll`), empty for the model's own."""

    name: str
    source: str = ""
    players: tuple[str, str] = ("Player 1", "Player 2")
    profile: str = "wespa"
    lexicon: str = ""
    delay: float = 0.0
    tileset: str = ""

    def __post_init__(self) -> None:
        try:
            board_name(self.name)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if not (isinstance(self.delay, int | float) and math.isfinite(self.delay)
                and self.delay >= 0):
            raise ConfigError(f"board {self.name}: delay must be seconds >= 0")
        if len(self.players) != 2 or not all(isinstance(p, str) and p for p in self.players):
            raise ConfigError(f"board {self.name}: players must be two names")
        for name in self.players:
            try:
                player_name(name)
            except ValueError as exc:
                raise ConfigError(f"board {self.name}: {exc}") from None


@dataclass(frozen=True)
class ServerConfig:
    boards: tuple[BoardSpec, ...]
    out_dir: Path
    operator_token: str = field(repr=False)
    td_token: str = field(repr=False)
    max_streams: int = 256  # live streams (SSE and camera previews) served at once
    heartbeat_s: float = 15.0  # a comment line on a quiet stream, so dead clients are noticed
    max_body: int = 64 * 1024  # bytes in a request body
    fps: float = Spec.fps  # camera frames read per second
    still_s: float = Spec.still_s  # seconds a board must rest before it is read
    broker: Broker | None = None  # a hall: the boards come from their edges through it

    def __post_init__(self) -> None:
        names = [b.name for b in self.boards]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"board named twice: {', '.join(twice)}")
        for role, token in (("operator", self.operator_token), ("td", self.td_token)):
            if len(token) < 8:
                raise ConfigError(f"the {role} token must be at least 8 characters")
        if self.operator_token == self.td_token:
            raise ConfigError("the operator and TD tokens must differ")


def board_arg(text: str, defaults: dict[str, Any]) -> BoardSpec:
    """`NAME=SOURCE`, or `NAME` (or `NAME=`) for a board fed by operator input only."""
    name, _, source = text.partition("=")
    return BoardSpec(name=name.strip(), source=source.strip(), **defaults)


def load_event(path: Path) -> tuple[dict[str, Any], list[BoardSpec]]:
    """An event file: top-level defaults (`out_dir`, `profile`, `lexicon`, `delay`, `tileset`)
    and one `[boards.NAME]` table per board (`source`, `players`, and any default overridden).
    Returns the top-level settings and the boards."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    known = {"out_dir", "profile", "lexicon", "delay", "tileset", "boards", "name", "nats"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown setting {', '.join(unknown)}")
    defaults = {k: data[k] for k in ("profile", "lexicon", "delay", "tileset") if k in data}
    tables = data.get("boards", {})
    if not isinstance(tables, dict) or not tables:
        raise ConfigError(f"{path}: no [boards.NAME] tables")
    boards = []
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: boards.{name} must be a table")
        allowed = {"source", "players", "profile", "lexicon", "delay", "tileset"}
        extra = sorted(set(table) - allowed)
        if extra:
            raise ConfigError(f"{path}: boards.{name}: unknown setting {', '.join(extra)}")
        values = {**defaults, **table}
        if "players" in values:
            values["players"] = tuple(values["players"])
        try:
            boards.append(BoardSpec(name=name, **values))
        except (TypeError, ConfigError) as exc:
            raise ConfigError(f"{path}: {exc}") from exc
    settings = {k: data[k] for k in ("out_dir", "name") if k in data}
    if "nats" in data:
        settings["nats"] = _nats_table(path, data["nats"])
    return settings, boards


NATS_KEYS = {"url", "stream", "user", "password", "token", "creds", "nkeys_seed", "tls_ca",
             "tls_cert", "tls_key", "tls_hostname", "request_s"}


def _nats_table(path: Path, table: Any) -> dict[str, Any]:
    """The `[nats]` table: the broker's URL, the stream's name, credentials and TLS files."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: nats must be a table")
    extra = sorted(set(table) - NATS_KEYS)
    if extra:
        raise ConfigError(f"{path}: nats: unknown setting {', '.join(extra)}")
    for key, value in table.items():
        number = key == "request_s"
        if (number and not (isinstance(value, int | float) and not isinstance(value, bool)
                            and 0 < value <= 60)) or (not number and not isinstance(value, str)):
            raise ConfigError(f"{path}: nats.{key} must be "
                              f"{'seconds, 0 < S <= 60' if number else 'a string'}")
    return table


def broker(settings: dict[str, Any], url: str = "", event: str = "") -> Broker | None:
    """The broker an event's settings (load_event) name, `url` and `event` overriding its
    `[nats] url` and `name`; None when no URL is given anywhere (single-process mode)."""
    table = dict(settings.get("nats", {}))
    table["url"] = url or table.get("url", "")
    if not table["url"]:
        return None
    name = event or settings.get("name", "")
    if not name:
        raise ConfigError("a hall needs the event's name: `name = ...` in the event file")
    try:
        return Broker(event=name, **table)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def token(env: dict[str, str], name: str) -> tuple[str, bool]:
    """The token in environment variable `name`, or a new random one; True when generated."""
    given = env.get(name, "")
    return (given, False) if given else (secrets.token_urlsafe(24), True)
