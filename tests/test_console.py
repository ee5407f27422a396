"""The console plugin (plugins/console.py): one terminal line per event."""

from __future__ import annotations

from tests.conftest import (
    HOOKS,
    hook_args,
    opening,
    scoreless_end,
)
from tilecast.engine.game import (
    time_penalty,
)
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins import console


def test_console_prints_one_line_per_event(session, wespa, english, capsys):
    pm = plugin_manager(extra=[console], entry_points=False)
    printed = []
    for hook in HOOKS:
        getattr(pm.hook, hook)(**hook_args(hook, session, wespa, english))
        out = capsys.readouterr().out
        printed.append((hook, out))
    for hook, out in printed:
        if hook == "tilecast_server_routes":
            assert out == ""
        else:
            assert out.count("\n") == 1 and out.startswith("[table1] "), (hook, out)
    lines = dict(printed)
    assert lines["tilecast_move_recorded"] == "[table1] Ann Smith 8D WINDY +32 = 32\n"
    assert lines["tilecast_move_withdrawn"] == "[table1] Ann Smith withdraws -32 = 0\n"
    assert lines["tilecast_alert"].startswith("[table1] !! warning board-disturbed")
    assert "5 tiles" in lines["tilecast_board_committed"]
    assert "I8" in lines["tilecast_blank_needs_letter"]
    assert lines["tilecast_clock"] == "[table1] clocks Ann Smith 10:12, Bob ?\n"


def test_console_move_lines_for_every_turn_kind(session, wespa, english):
    g = time_penalty(scoreless_end(opening(wespa, english)), 0, 61)
    lines = [console.move_line(session, t) for t in g.turns]
    assert lines[1] == "Ann Smith challenge bonus +5 = 37"
    assert lines[3] == "Bob withdraws -28 = 0"
    assert lines[4] == "Ann Smith exchanges AE +0 = 37"
    assert lines[5] == "Bob passes +0 = 0"
    assert lines[-3] == "Ann Smith rack (QU) -11 = 26"
    assert lines[-2] == "Bob rack (ZOO) -12 = -12"
    assert lines[-1] == "Ann Smith time penalty -20 = 6"
