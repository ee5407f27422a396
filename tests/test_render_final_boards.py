"""Issue 3 acceptance: rendered games end on exactly the engine's final board."""

import pytest

from tests.conftest import shared_dir
from tilecast.config import load_profile, load_tileset
from tilecast.engine.gcg import parse_gcg
from tilecast.engine.replay import replay
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon
from tilecast.vision.render.script import turns_from_game
from tilecast.vision.render.video import render_frames

GAMES = 20


def final_truth(game, seed):
    *_, (_, record) = render_frames(turns_from_game(game), seed, fps=0.5, size=(160, 90))
    return record["board"]


def test_self_play_games_render_to_the_engines_final_board(english, wespa):
    lexicon = load_lexicon("enable")
    for seed in range(GAMES):
        game = self_play(lexicon, english, wespa, 500 + seed).game
        assert final_truth(game, seed) == game.board.rows(), seed


def test_recorded_games_render_to_the_engines_final_board():
    rules, tileset = load_profile("wespa"), load_tileset("english")
    done = 0
    for path in sorted(shared_dir("gcg").rglob("*.gcg")):
        try:
            result = replay(parse_gcg(path.read_bytes(), str(path)), rules, tileset)
        except ValueError:
            continue
        if result.discrepancies or result.game is None or not result.game.turns:
            continue
        assert final_truth(result.game, done) == result.game.board.rows(), path.name
        done += 1
        if done == GAMES:
            break
    if done < GAMES:
        pytest.fail(f"only {done} clean records to render")
