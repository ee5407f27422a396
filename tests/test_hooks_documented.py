"""docs/plugins.md documents every hook with its arguments, and its example plugin works."""

from __future__ import annotations

import inspect
import re
import types
from pathlib import Path

import pytest

from tilecast import hookspecs
from tilecast.engine.board import parse_coord
from tilecast.engine.game import new_game, play, withdraw
from tilecast.events import SessionInfo
from tilecast.pluginmanager import plugin_manager

DOC = Path(__file__).resolve().parents[1] / "docs" / "plugins.md"
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tilecast_"))


def test_there_are_hooks_to_document():
    assert "tilecast_move_recorded" in HOOKS and len(HOOKS) >= 10


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_section_with_its_arguments(hook):
    args = ", ".join(inspect.signature(getattr(hookspecs, hook)).parameters)
    headings = re.findall(r"^### (tilecast_\w+\(.*\))$", DOC.read_text(encoding="utf-8"), re.M)
    assert f"{hook}({args})" in headings


def test_no_section_documents_a_hook_that_does_not_exist():
    text = DOC.read_text(encoding="utf-8")
    documented = re.findall(r"^### (tilecast_\w+)\(", text, re.M)
    assert sorted(documented) == HOOKS


def example_plugin() -> types.ModuleType:
    """The module of the third-party example, as the docs print it."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    source = next(b for b in blocks if b.startswith('"""tilecast_bingos'))
    module = types.ModuleType("tilecast_bingos")
    exec(compile(source, str(DOC), "exec"), module.__dict__)
    return module


def test_the_example_plugin_works(tmp_path, wespa, english, capsys):
    pm = plugin_manager(extra=[example_plugin()], entry_points=False)
    session = SessionInfo("t9", ("Ann", "Bob"), "wespa", str(tmp_path))
    g = play(new_game(wespa, english), parse_coord("8D"), "WINDY")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    assert capsys.readouterr().out == ""  # five tiles: no bingo
    g = play(new_game(wespa, english), parse_coord("8D"), "JACKETs")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    bingo = g.turns[-1].score
    g = withdraw(g)
    pm.hook.tilecast_move_withdrawn(session=session, game=g, turn=g.turns[-1])
    assert capsys.readouterr().out.splitlines() == [
        f"BINGO on t9: Ann plays JACKETs for {bingo}",
        "on t9: JACKETs is withdrawn",
    ]
