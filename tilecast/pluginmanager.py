"""The plugin manager: the built-in plugins (fresh instances per manager, so two apps in one
process keep their own state), those installed through the entry-point group `tilecast`, any
switched off by name, and a guard so one plugin cannot break another.

Hooks are called the pluggy way, `pm.hook.tilecast_<name>(...)`, so wrappers (`wrapper=True`,
`hookwrapper=True`), `tryfirst`/`trylast` and `pm.enable_tracing()` all work. pluggy itself stops
a call at the first exception; the manager below swaps each implementation's function, as it is
registered, for one that logs the plugin's exception and lets the call go on. The one exception
let through is `hookspecs.StopRun`, which a plugin raises on purpose to stop the run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Iterable
from importlib import metadata
from typing import Any

import pluggy

from tilecast import hookspecs
from tilecast.hookspecs import StopRun
from tilecast.plugins import alerts, annotation, broadcast, console

log = logging.getLogger(__name__)


class GuardedPluginManager(pluggy.PluginManager):
    """A pluggy manager whose every hook implementation logs its own exceptions."""

    def register(self, plugin: object, name: str | None = None) -> str | None:
        registered = super().register(plugin, name)
        for caller in self.get_hookcallers(plugin) or []:
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin:
                    # pluggy annotates `function` Final but offers no other per-plugin guard.
                    impl.function = _guard(impl, caller.name)  # type: ignore[misc]
        return registered


def _guard(impl: pluggy.HookImpl, hook: str) -> Callable[..., Any]:
    """`impl.function`, logging instead of raising (StopRun aside); a wrapper still yields
    exactly once."""
    function = impl.function

    def failed() -> None:
        log.exception("plugin %s failed in %s", impl.plugin_name, hook)

    def plain(*args: Any) -> Any:
        try:
            return function(*args)
        except StopRun:
            raise
        except Exception:
            failed()
            return None

    def wrapper(*args: Any) -> Generator[None, Any, Any]:
        inner = function(*args)
        try:
            next(inner)
        except StopRun:
            raise
        except Exception:  # failed before its yield: pass the call through untouched
            failed()
            return (yield)
        sent = yield
        try:
            inner.send(sent)
        except StopIteration as done:
            return done.value
        except StopRun:
            raise
        except Exception:
            failed()
            return sent
        inner.close()
        log.error("plugin %s yielded twice in %s", impl.plugin_name, hook)
        return sent

    return wrapper if impl.wrapper or impl.hookwrapper else plain


def built_ins() -> list[tuple[str, object]]:
    """The default plugins by name, as new instances: stateful ones must not be shared."""
    return [
        ("annotation", annotation),
        ("alerts", alerts.AlertLog()),
        ("broadcast", broadcast.Broadcast()),
        ("console", console),
    ]


def plugin_names() -> list[str]:
    """The names a plugin can be switched off by: the built-ins and the installed ones."""
    installed = [ep.name for ep in metadata.entry_points(group=hookspecs.PROJECT)]
    return sorted({name for name, _ in built_ins()} | set(installed))


def plugin_manager(
    extra: Iterable[object] = (), entry_points: bool = True, *, disabled: Iterable[str] = ()
) -> pluggy.PluginManager:
    """A manager with the built-in plugins and those installed through the entry-point group
    (both only with `entry_points`: without, just the plugin objects in `extra`, as tests and
    embedding applications want), plus `extra`. A name in `disabled` is switched off: no
    plugin of that name is registered, built-in or installed."""
    pm = GuardedPluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in disabled:
        pm.set_blocked(name)
    if entry_points:
        for name, plugin in built_ins():
            pm.register(plugin, name=name)
        for ep in metadata.entry_points(group=hookspecs.PROJECT):
            if pm.is_blocked(ep.name):
                continue
            try:  # a broken third-party plugin must not stop the session
                pm.register(ep.load(), name=ep.name)
            except Exception:
                log.exception("cannot load plugin %s (%s)", ep.name, ep.value)
    for plugin in extra:
        pm.register(plugin)
    return pm


def describe(pm: pluggy.PluginManager) -> list[tuple[str, list[str]]]:
    """(plugin name, hooks it implements) for `tilecast plugins`."""
    rows = []
    for name, plugin in sorted(pm.list_name_plugin(), key=lambda item: item[0]):
        if plugin is None:  # switched off
            continue
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or [])
        rows.append((name, hooks))
    return rows
