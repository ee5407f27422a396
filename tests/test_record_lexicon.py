"""The lexicon `annotate` and `run` record with: `--lexicon`, or the rule profile's where it is
supplied, or ENABLE; `--lexicon none` turns it off; the GCG's #lexicon says which."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import pytest

from tilecast.cli import main
from tilecast.commands.record import board_spec
from tilecast.lexicons import DEFAULT, Choice, choose
from tilecast.opening import open_board
from tilecast.pluginmanager import plugin_manager

STILL = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "stills" / "00.jpg"


def test_choose_follows_the_flag_then_the_profile_then_enable(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("CAT\nDOG\n")
    assert choose(None) == Choice(DEFAULT, DEFAULT)
    assert choose("none", str(words)) == Choice(None, "")
    assert choose(str(words), "CSW24") == Choice(str(words), str(words))
    assert choose(None, "ENABLE") == Choice(DEFAULT, DEFAULT)
    assert choose(None, str(words)) == Choice(str(words), str(words))
    missing = choose(None, "CSW24")
    assert (missing.load, missing.name) == (DEFAULT, DEFAULT)
    assert "'CSW24' is not supplied" in missing.passed_over


def profile_naming(tmp_path: Path, lexicon: str) -> str:
    path = tmp_path / "event.toml"
    path.write_text(f'name = "event"\nlexicon = "{lexicon}"\n')
    return str(path)


def args_for(tmp_path: Path, **given) -> argparse.Namespace:
    values = dict(board="b1", player1="A", player2="B", profile="wespa", lexicon=None,
                  corners=None, enrolled=None, fps=6.0, still=1.0)
    values.update(given)
    return argparse.Namespace(**values)


@pytest.mark.parametrize(
    ("given", "words", "pragma"),
    [
        ({}, 172820, "enable"),  # the wespa profile names none: ENABLE
        ({"lexicon": "none"}, None, ""),
        ({"profile": "event001"}, 172820, "enable"),  # names CSW24, not supplied here
        ({"profile": "OWN"}, 2, "WORDS"),  # names a word list that exists
    ],
    ids=["default", "none", "profile-not-supplied", "profile-supplied"],
)
def test_a_recording_uses_the_chosen_lexicon(tmp_path, capsys, given, words, pragma):
    path = tmp_path / "words.txt"
    path.write_text("CAT\nDOG\n")
    if given.get("profile") == "OWN":
        given = {"profile": profile_naming(tmp_path, str(path))}
        pragma = str(path)
    spec = board_spec(args_for(tmp_path, **given), "video", tmp_path / "out")
    session = open_board(spec, plugin_manager(entry_points=False)).session
    lexicon = session.recorder.lexicon
    assert (None if lexicon is None else len(lexicon)) == words
    assert session.info.lexicon == pragma
    err = capsys.readouterr().err
    assert ("CSW24" in err) == (given.get("profile") == "event001")
    session.close()


@pytest.mark.parametrize("flag", [[], ["--lexicon", "none"]], ids=["default", "none"])
def test_the_gcg_names_the_lexicon_it_was_recorded_with(tmp_path, flag):
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(STILL, frames / "0000.jpg")
    out = tmp_path / "g.gcg"
    assert main(["annotate", str(frames), "-o", str(out), *flag]) == 0
    pragmas = [x for x in out.read_text().splitlines() if x.startswith("#lexicon")]
    assert pragmas == ([] if flag else ["#lexicon enable"])
