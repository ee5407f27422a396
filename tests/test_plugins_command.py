"""The `tilecast plugins` command (tilecast/commands/plugins.py): names and hooks listed."""

from __future__ import annotations

import argparse

from tilecast import pluginmanager
from tilecast.commands import plugins as plugins_command
from tilecast.pluginmanager import describe, plugin_manager


def test_the_plugins_command_leaves_out_a_switched_off_plugin(capsys):
    parser = argparse.ArgumentParser()
    plugins_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["plugins", "--disable-plugin", "console"])
    assert args.func(args) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()[:-1]]
    assert "console" not in names and "annotation" in names


def test_plugins_command_lists_names_and_hooks(monkeypatch, capsys):
    def manager(disabled=()):
        pm = plugin_manager(entry_points=False)
        for name, plugin in pluginmanager.built_ins():
            pm.register(plugin, name=name)
        return pm

    monkeypatch.setattr(plugins_command, "plugin_manager", manager)
    parser = argparse.ArgumentParser()
    plugins_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["plugins"])
    assert args.func(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "4 plugins"
    rows = {line.split()[0]: line.split(None, 1)[1] for line in out[:-1]}
    assert list(rows) == ["alerts", "annotation", "broadcast", "console"]
    for name, hooks in describe(manager()):
        assert rows[name] == ", ".join(hooks)
    assert "tilecast_blank_needs_letter" in rows["console"]
    assert "tilecast_blank_needs_letter" not in rows["annotation"]
