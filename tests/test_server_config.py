"""Server configuration: --board arguments, event files, tokens, and `tilecast serve` wiring."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tilecast.commands import serve
from tilecast.server.config import BoardSpec, ConfigError, ServerConfig, board_arg, load_event

EVENT = """
out_dir = "event-out"
profile = "event001"
delay = 15

[boards.table1]
source = "rtsp://camera1/stream"
players = ["Ann Smith", "Bob Jones"]

[boards.table2]
players = ["Cy", "Di"]
profile = "wespa"
delay = 0
"""


def test_board_arguments():
    defaults = {"profile": "wespa", "lexicon": "", "delay": 5.0}
    assert board_arg("t1=0", defaults) == BoardSpec("t1", "0", delay=5.0)
    assert board_arg("t2", defaults).source == ""
    assert board_arg("t3=", defaults).source == ""
    assert board_arg("t4=rtsp://cam/a=b", defaults).source == "rtsp://cam/a=b"
    with pytest.raises(ConfigError):
        board_arg("../x=0", defaults)


def test_event_file(tmp_path):
    path = tmp_path / "event.toml"
    path.write_text(EVENT)
    settings, boards = load_event(path)
    assert settings == {"out_dir": "event-out"}
    assert boards == [
        BoardSpec("table1", "rtsp://camera1/stream", ("Ann Smith", "Bob Jones"), "event001",
                  delay=15),
        BoardSpec("table2", "", ("Cy", "Di"), "wespa", delay=0),
    ]


@pytest.mark.parametrize(
    "text,message",
    [
        ("[boards", "event.toml"),
        ("profile = 'wespa'", "no [boards.NAME] tables"),
        ("colour = 'red'\n[boards.t1]", "unknown setting colour"),
        ("[boards.t1]\ncamera = 0", "unknown setting camera"),
        ("[boards.t1]\nplayers = ['Solo']", "players must be two names"),
        ("[boards.t1]\ndelay = -3", "delay must be seconds >= 0"),
        ("[boards.'a/b']", "board name"),
        ("boards = 3", "no [boards.NAME] tables"),
    ],
)
def test_bad_event_files_name_the_problem(tmp_path, text, message):
    path = tmp_path / "event.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace(".", r"\.")):
        load_event(path)


def test_tokens_must_be_long_and_different():
    boards = (BoardSpec("t1"),)
    with pytest.raises(ConfigError, match="at least 8"):
        ServerConfig(boards, Path("out"), "short", "long-enough-td")
    with pytest.raises(ConfigError, match="must differ"):
        ServerConfig(boards, Path("out"), "same-token", "same-token")
    with pytest.raises(ConfigError, match="named twice"):
        ServerConfig(boards * 2, Path("out"), "operator-tok", "td-token-x")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["serve", *argv])


def test_serve_builds_its_config_from_arguments_event_file_and_environment(tmp_path):
    path = tmp_path / "event.toml"
    path.write_text(EVENT)
    args = parse(["--event", str(path), "--board", "extra=2", "--delay", "7", "--port", "9000"])
    env = {"TILECAST_OPERATOR_TOKEN": "from-env-operator"}
    config, generated = serve.build_config(args, env)
    assert [b.name for b in config.boards] == ["table1", "table2", "extra"]
    assert config.boards[2] == BoardSpec("extra", "2", delay=7.0)
    assert config.out_dir == Path("event-out")
    assert config.operator_token == "from-env-operator"
    assert generated == ["td"] and len(config.td_token) >= 32
    assert args.host == "127.0.0.1" and args.port == 9000
    again, _ = serve.build_config(args, env)
    assert again.td_token != config.td_token  # a new one each start unless set


def test_serve_needs_a_board():
    with pytest.raises(ConfigError, match="at least one --board"):
        serve.build_config(parse([]), {})
