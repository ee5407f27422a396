"""Finding plugins (entry-point group `tilecast`) and calling them so one cannot break another."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from importlib import metadata
from typing import Any

import pluggy

from tilecast import hookspecs

log = logging.getLogger(__name__)


def plugin_manager(extra: Iterable[object] = (), entry_points: bool = True) -> pluggy.PluginManager:
    """A manager with the built-in and installed plugins (all through the entry-point group),
    plus any plugin objects given (tests, embedding applications)."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    if entry_points:
        for ep in metadata.entry_points(group=hookspecs.PROJECT):
            try:  # a broken third-party plugin must not stop the session
                pm.register(ep.load(), name=ep.name)
            except Exception:
                log.exception("cannot load plugin %s (%s)", ep.name, ep.value)
    for plugin in extra:
        pm.register(plugin)
    return pm


def fire(pm: pluggy.PluginManager, hook: str, **kwargs: Any) -> None:
    """Call every implementation of `hook`; an exception is logged and the rest still run."""
    caller = getattr(pm.hook, hook)
    for impl in reversed(caller.get_hookimpls()):
        try:
            impl.function(**{k: kwargs[k] for k in impl.argnames})
        except Exception:
            log.exception("plugin %s failed in %s", impl.plugin_name, hook)


def describe(pm: pluggy.PluginManager) -> list[tuple[str, list[str]]]:
    """(plugin name, hooks it implements) for `tilecast plugins`."""
    rows = []
    for name, plugin in sorted(pm.list_name_plugin(), key=lambda item: item[0]):
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or [])
        rows.append((name, hooks))
    return rows
