"""`tilecast render`: scripts in, footage and crops out."""

import argparse
import json

import numpy as np

from tilecast.commands import render
from tilecast.engine.board import Board
from tilecast.vision.render.script import (
    boards_after,
    gcg_script,
    turns_from_json,
    turns_to_json,
)

GCG = b"""#character-encoding UTF-8
#player1 a Alice
#player2 b Bob
>a: AEHLLOS 8D HELLO +18 18
>b: ADEIRTW -  +0 0
>a: ?AEILST E7 A.s +3 21
>a: ?AEILST --  -3 18
"""


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    render.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return args.func(args)


def test_json_script_round_trip():
    turns = turns_from_json([{"player": 1, "tiles": [[7, 7, "A"], [7, 8, "b"]]},
                             {"player": 0, "withdrawn": True, "tiles": [[8, 7, "C"]]}, {}])
    assert turns_from_json(turns_to_json(turns)) == turns
    assert boards_after(turns)[-1].rows()[7] == ".......Ab......"
    assert not turns[2].placed


def test_gcg_script_marks_withdrawn_phony_and_pass():
    turns = gcg_script(GCG, "t.gcg")
    assert [len(t.placed) for t in turns] == [5, 0, 2]
    assert turns[2].placed[1].tile.blank
    assert [t.player for t in turns] == [0, 1, 0]
    assert turns[2].withdrawn
    assert boards_after(turns)[-1] == Board().with_tiles((p.row, p.col, p.tile)
                                                         for p in turns[0].placed)


def test_render_game_and_cells_commands(tmp_path):
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"player": 0, "tiles": [[7, 6, "H"], [7, 7, "I"]]}]))
    assert run("render", "game", str(script), str(tmp_path / "v.mp4"), "--fps", "2",
               "--size", "320x180") == 0
    truth = json.loads((tmp_path / "v.truth.json").read_text())
    assert truth["frames"][-1]["board"][7] == "......HI......."
    assert run("render", "cells", "12", str(tmp_path / "c.npz"), "--size", "32") == 0
    data = np.load(tmp_path / "c.npz")
    assert data["images"].shape == (12, 32, 32, 3) and len(data["classes"]) == 12
