"""What the server needs from the plugins it is built on, as two small interfaces.

The server finds them in its plugin manager by name and talks only to these, never to plugin
modules, so a built-in can be switched off and replaced by any plugin of the same name that
fits the interface. Each app's plugin manager holds its own instances.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, TypeVar, runtime_checkable

import pluggy

from tilecast.engine.game import Game
from tilecast.events import SessionInfo

LIVE_STATE = "broadcast"  # plugin names the server looks the services up by
ALERTS_LOG = "alerts"


@runtime_checkable
class LiveState(Protocol):
    """The public state of each board, released after the board's broadcast delay."""

    def snapshot(self, board: str) -> dict[str, Any]:
        """The latest released state; KeyError when there is none yet."""
        ...

    def state(
        self,
        session: SessionInfo,
        game: Game,
        clocks: tuple[float | None, float | None] | None = None,
    ) -> dict[str, Any]:
        """The same state for `game` now, without delay (for the operator and the TD)."""
        ...

    def delay(self, board: str) -> float: ...

    def set_delay(self, board: str, seconds: float) -> None: ...

    def stream(self, board: str, after: int | None = None, keepalive: float = 15.0
               ) -> Iterator[str]:
        """Server-sent events for one viewer, from the snapshot or after event `after`."""
        ...

    def stream_all(self, boards: list[str], keepalive: float = 15.0) -> Iterator[str]:
        """Server-sent events of several boards on one stream, each board's snapshot first."""
        ...

    def replay(self, board: str) -> dict[str, Any]:
        """Every position of the released game with its moves; KeyError when none is."""
        ...

    def gcg(self, board: str) -> str:
        """The released game's GCG text; KeyError when none is released yet."""
        ...


@runtime_checkable
class AlertsLog(Protocol):
    """Every alert of each board, logged, and those the TD has not acknowledged yet."""

    def open_alerts(self, board: str | None = None) -> list[dict[str, Any]]: ...

    def acknowledge(self, board: str, alert_id: int) -> bool: ...

    def logged(self, session: SessionInfo) -> list[dict[str, Any]]:
        """Every alert the board's log holds, open or not, oldest first."""
        ...


class ServiceError(ValueError):
    """A service the server needs is missing from the plugin manager (switched off) or is not
    what its interface asks for."""


S = TypeVar("S")


def service(pm: pluggy.PluginManager, name: str, kind: type[S]) -> S:
    """The plugin registered as `name`, checked against the interface `kind`."""
    plugin = pm.get_plugin(name)
    if plugin is None:
        raise ServiceError(f"the server needs the {name!r} plugin ({kind.__name__}), "
                           "which is switched off or not registered")
    if not isinstance(plugin, kind):
        raise ServiceError(f"plugin {name!r} is not a {kind.__name__}")
    return plugin
