"""Replay positions: one a turn, a withdrawn phony's tiles taken off again, scores per turn."""

from __future__ import annotations

from tilecast.config import load_profile, load_tileset
from tilecast.engine.actions import tiles_placed
from tilecast.engine.board import parse_coord
from tilecast.engine.game import Game, challenge_bonus, exchange, new_game, play, withdraw
from tilecast.engine.positions import positions
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon


def test_every_turn_has_its_position_and_a_withdrawn_phony_leaves(wespa, english):
    g = play(new_game(wespa, english), parse_coord("8D"), "WINDY")
    g = challenge_bonus(g)
    g = play(g, parse_coord("7C"), "GaLX")
    g = exchange(withdraw(g), "AE")
    shown = positions(g)
    assert len(shown) == len(g.turns) + 1 == 6
    assert shown[0].rows == ("." * 15,) * 15 and shown[0].scores == (0, 0)
    assert shown[1].rows[7] == "...WINDY......." and shown[1].placed == ("D8", "E8", "F8", "G8",
                                                                         "H8")
    assert shown[2].scores == (37, 0) and shown[2].placed == ()  # the challenge bonus
    assert shown[3].rows[6] == "..GaLX........."
    assert shown[4].rows[6] == "." * 15 and shown[4].scores == (37, 0)  # the phony came off
    assert shown[5].rows == shown[4].rows


def test_the_last_position_is_the_finished_games_board():
    game: Game = self_play(load_lexicon(), load_tileset("english"), load_profile("wespa"),
                           seed=3).game
    shown = positions(game)
    assert list(shown[-1].rows) == game.board.rows()
    assert shown[-1].scores == game.scores
    assert len({p.rows for p in shown}) > 10  # the board changes along the way


def test_tiles_placed_names_the_squares_a_play_puts_tiles_on():
    assert tiles_placed({"type": "play", "coord": "8D", "word": "W.ND"}) == {"D8": 0, "F8": 2,
                                                                            "G8": 3}
    assert tiles_placed({"type": "play", "coord": "H7", "word": "aB"}) == {"H7": 0, "H8": 1}
    assert tiles_placed({"type": "pass"}) == {}
