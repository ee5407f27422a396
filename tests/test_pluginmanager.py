"""How hooks reach plugins: through pluggy, in pluggy's order, each plugin guarded."""

from __future__ import annotations

import logging
from importlib.metadata import EntryPoint

import numpy as np
import pytest

from tests.conftest import (
    HOOKS,
    hook_args,
    listener_of_every_hook,
    spec_args,
    wrapper_of_every_hook,
)
from tilecast import hookspecs, pluginmanager
from tilecast.engine.game import new_game
from tilecast.engine.infer import CLASSES
from tilecast.engine.lexicon import Lexicon
from tilecast.events import Alert, SessionInfo
from tilecast.hookspecs import StopRun, hookimpl
from tilecast.observation import Observation
from tilecast.pluginmanager import describe, plugin_manager
from tilecast.plugins import alerts, annotation, broadcast, console
from tilecast.recorder import Recorder
from tilecast.session import Session

BUILT_INS = ["alerts", "annotation", "broadcast", "console"]
SESSION = SessionInfo("table1", ("Ann", "Bob"), "wespa", "out")
ALERT = Alert("board-disturbed", "a tile moved")


class Named:
    """Appends its name to a shared list when an alert reaches it."""

    def __init__(self, name: str, calls: list[str]) -> None:
        self.name, self.calls = name, calls

    @hookimpl
    def tilecast_alert(self, session, alert):
        self.calls.append(self.name)


class First(Named):
    @hookimpl(tryfirst=True)
    def tilecast_alert(self, session, alert):
        self.calls.append(self.name)


class Last(Named):
    @hookimpl(trylast=True)
    def tilecast_alert(self, session, alert):
        self.calls.append(self.name)


def alert(pm) -> list:
    return pm.hook.tilecast_alert(session=SESSION, alert=ALERT)


def test_plugins_are_called_last_registered_first_and_tryfirst_trylast_move_them():
    calls: list[str] = []
    pm = plugin_manager(
        extra=[Last("last", calls), Named("a", calls), First("first", calls), Named("b", calls)],
        entry_points=False,
    )
    alert(pm)
    assert calls == ["first", "b", "a", "last"]


class Wraps:
    """A new-style wrapper that fails where told to, and otherwise notes what it wrapped."""

    def __init__(self, calls: list[str], fail: str = "") -> None:
        self.calls, self.fail = calls, fail

    @hookimpl(wrapper=True)
    def tilecast_alert(self, session, alert):
        if self.fail == "before":
            raise RuntimeError("before")
        self.calls.append("enter")
        result = yield
        self.calls.append("leave")
        if self.fail == "after":
            raise RuntimeError("after")
        return result


class Boom:
    @hookimpl
    def tilecast_alert(self, session, alert):
        raise RuntimeError("boom")


@pytest.mark.parametrize("fail", ["before", "after"])
def test_a_failing_wrapper_is_logged_and_the_call_goes_on(fail, caplog):
    calls: list[str] = []
    pm = plugin_manager(extra=[Named("a", calls)], entry_points=False)
    pm.register(Wraps(calls, fail), name="wraps")  # registered later, as the server does
    with caplog.at_level(logging.ERROR, logger="tilecast.pluginmanager"):
        assert alert(pm) == []
    assert calls == (["a"] if fail == "before" else ["enter", "a", "leave"])
    assert [r.getMessage() for r in caplog.records] == ["plugin wraps failed in tilecast_alert"]
    assert caplog.records[0].exc_info[1].args == (fail,)


def test_a_wrapper_sees_the_others_results_even_when_one_raises(caplog):
    calls: list[str] = []
    pm = plugin_manager(
        extra=[Named("a", calls), Boom(), Named("b", calls), Wraps(calls)], entry_points=False
    )
    with caplog.at_level(logging.ERROR, logger="tilecast.pluginmanager"):
        assert alert(pm) == []  # plain implementations return None, which pluggy leaves out
    assert calls == ["enter", "b", "a", "leave"]
    assert [r.exc_info[1].args for r in caplog.records] == [("boom",)]


def test_hook_tracing_sees_the_sessions_calls(tmp_path, wespa, english):
    pm = plugin_manager(extra=[Named("a", [])], entry_points=False)
    lines: list[str] = []
    pm.trace.root.setwriter(lines.append)
    pm.enable_tracing()
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    session = Session(info, Recorder(wespa, english, Lexicon(["WINDY"])), pm)
    session.submit({"type": "alert", "kind": "phony", "message": "x", "severity": "info"})
    called = [line.split()[0] for line in lines if line.split()[1:2] == ["[hook]"]]
    assert called == ["tilecast_session_start", "tilecast_alert"]

def test_a_wrapper_plugin_hears_every_hook_the_session_fires(tmp_path, wespa, english):
    seen: list[str] = []
    pm = plugin_manager(extra=[wrapper_of_every_hook(seen)], entry_points=False)
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    session = Session(info, Recorder(wespa, english, Lexicon(["WINDY"])), pm)
    session.submit({"type": "play", "coord": "8D", "word": "WINDY"})
    session.submit({"type": "alert", "kind": "phony", "message": "x", "severity": "info"})
    probs = np.zeros((225, len(CLASSES)))
    read = [CLASSES.index(ch) for row in session.game.board.rows() for ch in row]
    probs[np.arange(225), read] = 1
    session.camera(Observation(probs, frame=3, time=1.0))
    session.close()
    assert seen == [
        "tilecast_session_start",
        "tilecast_move_recorded",
        "tilecast_alert",
        "tilecast_board_committed",
        "tilecast_session_end",
    ]


class Stops:
    """Stops the run, in a plain implementation or in a wrapper before or after its yield."""

    def __init__(self, where: str) -> None:
        self.where = where

    @hookimpl(wrapper=True)
    def tilecast_alert(self, session, alert):
        if self.where == "before":
            raise StopRun("before")
        result = yield
        if self.where == "after":
            raise StopRun("after")
        return result

    @hookimpl
    def tilecast_session_end(self, session, game):
        raise StopRun("plain")


@pytest.mark.parametrize("where", ["before", "after", "plain"])
def test_a_plugin_that_stops_the_run_is_not_swallowed_by_the_guard(where, wespa, english):
    pm = plugin_manager(extra=[Stops(where)], entry_points=False)
    with pytest.raises(StopRun, match=where):
        if where == "plain":
            pm.hook.tilecast_session_end(session=SESSION, game=new_game(wespa, english))
        else:
            alert(pm)


ORDER: list[str] = []
INSTALLED = Named("installed", ORDER)  # loaded through its entry point below


def test_extra_plugins_hear_first_then_installed_ones_then_the_built_ins(monkeypatch):
    """The order documented in docs/plugins.md (registered last, called first): a plugin
    handed in (a test, the server's routes) can wrap or see before the installed ones, and
    those before the built-ins."""
    ORDER.clear()
    found = [EntryPoint("installed", f"{__name__}:INSTALLED", hookspecs.PROJECT)]
    monkeypatch.setattr(pluginmanager.metadata, "entry_points", lambda group: found)
    monkeypatch.setattr(pluginmanager, "built_ins", lambda: [("built-in", Named("built-in",
                                                                                  ORDER))])
    alert(plugin_manager(extra=[Named("extra", ORDER)]))
    assert ORDER == ["extra", "installed", "built-in"]


def test_a_plugin_hears_of_an_entry_only_once_it_is_in_the_journal(tmp_path, wespa, english):
    """Hooks fire after the journal holds the entry: a plugin that reads it finds it there."""
    journal = tmp_path / "b1.journal.jsonl"
    seen: list[int] = []

    class ReadsTheJournal:
        @hookimpl
        def tilecast_move_recorded(self, session, game, turn):
            seen.append(len(journal.read_text().splitlines()))

    pm = plugin_manager(extra=[ReadsTheJournal()], entry_points=False)
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    session = Session(info, Recorder(wespa, english, Lexicon(["WINDY", "WIND"])), pm)
    session.submit({"type": "play", "coord": "8D", "word": "WINDY"})
    session.submit({"type": "pass"})
    assert seen == [1, 2]


# --- every hook, every built-in -------------------------------------------------------


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_reaches_plugins_with_its_arguments(hook, session, wespa, english):
    calls: list[tuple[str, dict]] = []
    args = hook_args(hook, session, wespa, english)
    assert list(args) == spec_args(hook)
    getattr(plugin_manager(extra=[listener_of_every_hook(calls)], entry_points=False).hook,
            hook)(**args)
    assert len(calls) == 1
    name, got = calls[0]
    assert name == hook
    assert list(got) == spec_args(hook)
    assert all(got[k] is args[k] for k in args)


@pytest.mark.parametrize("hook", HOOKS)
def test_built_in_plugins_take_every_hook_without_failing(hook, session, wespa, english, caplog):
    pm = plugin_manager(
        extra=[annotation, alerts.AlertLog(), broadcast.Broadcast(), console], entry_points=False
    )
    with caplog.at_level(logging.ERROR, logger="tilecast.pluginmanager"):
        getattr(pm.hook, hook)(**hook_args(hook, session, wespa, english))
    assert not caplog.records


@pytest.mark.parametrize("hook", HOOKS)
def test_a_wrapper_plugin_receives_every_hook_beside_the_others(hook, session, wespa, english):
    calls, seen = [], []
    pm = plugin_manager(extra=[listener_of_every_hook(calls), wrapper_of_every_hook(seen)],
                        entry_points=False)
    getattr(pm.hook, hook)(**hook_args(hook, session, wespa, english))
    assert seen == [hook] and [name for name, _ in calls] == [hook]


class BoomOnMove:
    @hookimpl
    def tilecast_move_recorded(self, session, game, turn):
        raise RuntimeError("boom")


def test_an_exception_in_one_plugin_does_not_stop_the_others(session, wespa, english, caplog):
    before, after = [], []
    pm = plugin_manager(extra=[listener_of_every_hook(before), BoomOnMove(),
                               listener_of_every_hook(after), annotation], entry_points=False)
    args = hook_args("tilecast_move_recorded", session, wespa, english)
    with caplog.at_level(logging.ERROR, logger="tilecast.pluginmanager"):
        pm.hook.tilecast_move_recorded(**args)
    assert len(before) == len(after) == 1
    assert annotation.record_path(session).exists()
    assert [r.exc_info[1].args for r in caplog.records] == [("boom",)]


# --- registration -------------------------------------------------------------------------


def test_every_manager_has_its_own_built_ins():
    first, second = plugin_manager(), plugin_manager()
    for name in BUILT_INS:
        assert first.get_plugin(name) is not None, name
    for name in ("alerts", "broadcast"):  # the stateful ones are never shared
        assert first.get_plugin(name) is not second.get_plugin(name)


def test_a_plugin_is_switched_off_by_name(tmp_path, wespa, english):
    pm = plugin_manager(disabled=["annotation", "console"])
    assert pm.get_plugin("annotation") is None and pm.get_plugin("console") is None
    assert pm.get_plugin("alerts") is not None
    info = SessionInfo("t1", ("Ann", "Bob"), "wespa", str(tmp_path))
    pm.hook.tilecast_session_start(session=info, game=new_game(wespa, english))
    assert not (tmp_path / "t1.gcg").exists()


def test_installed_plugins_come_through_the_entry_point_group(monkeypatch):
    found = [EntryPoint("loud", "tilecast.plugins.console", hookspecs.PROJECT),
             EntryPoint("off", "no.such.module", hookspecs.PROJECT)]
    monkeypatch.setattr(pluginmanager.metadata, "entry_points", lambda group: found)
    monkeypatch.setattr(pluginmanager, "built_ins", lambda: [])
    pm = plugin_manager(disabled=["off"])  # a switched-off plugin is not even imported
    assert pm.get_plugin("loud") is console
    assert [name for name, _ in describe(pm)] == ["loud"]
