"""The game state machine under each WESPA option, from shared/rules (000, 001, 002, 004)."""

from dataclasses import replace

import pytest

from tilecast.engine.board import parse_coord
from tilecast.engine.game import (
    OUT,
    OVER,
    PLAYING,
    SCORELESS,
    GameError,
    challenge_bonus,
    deduct_rack,
    end_out,
    end_scoreless,
    exchange,
    new_game,
    pass_turn,
    play,
    result,
    time_penalty,
    unseen,
    withdraw,
)
from tilecast.engine.rules import Rules
from tilecast.engine.tiles import TileSet

# A tiny set makes end games reachable: 12 tiles, 6 on each rack, an empty bag from the start.
TINY = TileSet.from_mapping(
    "tiny",
    {
        "A": {"count": 5, "value": 1},
        "T": {"count": 4, "value": 1},
        "Q": {"count": 1, "value": 10},
        "?": {"count": 2, "value": 0},
    },
)


def at(coord):
    return parse_coord(coord)


def rule(exc_info):
    return exc_info.value.rule


def test_new_game_draws_seven_each(english, wespa):
    g = new_game(wespa, english, first=1)
    assert (g.rack_sizes, g.bag, g.to_move, g.phase) == ((7, 7), 86, 1, PLAYING)


def test_play_scores_draws_and_alternates(english, wespa):
    g = play(new_game(wespa, english), at("8D"), "WINDY")
    assert g.scores == (32, 0) and g.to_move == 1
    assert g.bag == 81 and g.rack_sizes == (7, 7)
    g = play(g, at("7C"), "GALE")
    assert g.scores == (32, 16) and g.turns[-1].total == 16


def test_rack_is_checked_when_known(english, wespa):
    g = new_game(wespa, english)
    with pytest.raises(GameError) as info:
        play(g, at("8D"), "WINDY", rack="WINDSOR")
    assert rule(info) == "not-in-rack"
    assert play(g, at("8D"), "WiNDY", rack="WNDY?AB").scores == (30, 0)


def test_exchange_needs_seven_in_the_bag(english, wespa):
    g = new_game(wespa, english)
    assert exchange(g, "ABC").turns[-1].score == 0
    with pytest.raises(GameError) as info:
        exchange(replace(g, bag=6), 2)
    assert rule(info) == "exchange-bag"
    assert exchange(replace(g, bag=7), 7).to_move == 1


def test_withdrawn_phony_is_taken_back_and_scores_zero(english, wespa):
    g = play(new_game(wespa, english), at("8D"), "WINDY")
    g = play(g, at("7C"), "GALX")
    g = withdraw(g)
    assert g.scores == (32, 0)
    assert g.turns[-1].kind == "withdraw" and g.turns[-1].score == -g.turns[-2].score
    assert g.board.at(6, 2) is None and g.bag == 81
    assert g.to_move == 0 and g.scoreless == 1
    with pytest.raises(GameError):
        withdraw(g)


def test_free_challenge_gives_no_bonus(english):
    g = play(new_game(Rules(challenge="free"), english), at("8D"), "WINDY")
    with pytest.raises(GameError) as info:
        challenge_bonus(g)
    assert rule(info) == "challenge-mode"


def test_points_challenge_pays_per_word_challenged(english):
    rules = Rules(challenge="points", challenge_points=5)
    g = play(new_game(rules, english), at("8H"), "AT")
    g = play(g, at("7H"), "OX")  # forms OX, OA, XT
    assert challenge_bonus(g, words=3).scores[1] == 36 + 15
    with pytest.raises(GameError):
        challenge_bonus(g, words=4)


def test_double_challenge_loses_the_challengers_turn(english):
    g = play(new_game(Rules(challenge="double"), english), at("8D"), "WINDY")
    g = pass_turn(g)  # the failed challenger loses the turn
    assert g.to_move == 0 and g.scoreless == 1 and g.scores == (32, 0)


def test_six_scoreless_turns_end_the_game_with_own_racks_deducted(english, wespa):
    g = play(new_game(wespa, english), at("8D"), "WINDY")
    for _ in range(5):
        g = pass_turn(g)
        assert g.phase == PLAYING
    g = exchange(g, 3)
    assert g.phase == SCORELESS
    with pytest.raises(GameError):
        pass_turn(g)
    g = end_scoreless(g, ("QI", "AEZ"))
    assert g.phase == OVER and g.scores == (32 - 11, 0 - 12)
    assert result(g).winner == 0


def test_withdrawn_phonies_count_towards_six_zeros(english, wespa):
    g = play(new_game(wespa, english), at("8D"), "WINDY")
    for _ in range(3):
        g = withdraw(play(g, at("7C"), "GAL"))
        g = pass_turn(g)
    assert g.phase == SCORELESS


def test_scoreless_racks_one_line_at_a_time(english, wespa):
    g = replace(new_game(wespa, english), phase=SCORELESS)
    g = deduct_rack(g, 1, "Q")
    assert g.phase == SCORELESS
    with pytest.raises(GameError):
        deduct_rack(g, 1, "Q")
    assert deduct_rack(g, 0, "").phase == OVER


def out_game(procedure):
    g = new_game(Rules(end_procedure=procedure), TINY)
    assert g.bag == 0 and g.rack_sizes == (6, 6)
    g = play(g, at("8H"), "TAT")
    g = play(g, at("H7"), "a.")
    return play(g, at("9I"), "TAA")  # the first player has now played all six: out


def test_playing_out_waits_for_the_play_to_stand(english):
    g = out_game("wespa")
    assert g.phase == OUT and g.rack_sizes == (0, 5)
    back = withdraw(g)
    assert back.phase == PLAYING and back.rack_sizes == (3, 5) and back.to_move == 1


def test_wespa_procedure_doubles_the_opponents_rack():
    g = end_out(out_game("wespa"))
    assert sorted(unseen(g).elements()) == sorted("AATQ?")  # the opponent's rack
    assert g.phase == OVER
    assert g.turns[-1].kind == "out" and g.turns[-1].score == 2 * 13
    assert g.turns[-1].player == 0


def test_standard_procedure_moves_the_rack_value_across():
    g = out_game("standard")
    before = g.scores
    g = end_out(g)
    assert g.scores == (before[0] + 13, before[1] - 13)


def test_time_penalty_per_minute_or_part_with_cap_and_forfeit(english):
    rules = Rules(time_penalty=10, time_penalty_cap=50, forfeit_after_min=10)
    assert rules.overtime_penalty(0) == 0
    assert rules.overtime_penalty(1) == 10  # -00:01 is a whole minute's penalty
    assert rules.overtime_penalty(60) == 10
    assert rules.overtime_penalty(61) == 20
    assert rules.overtime_penalty(9 * 60) == 50  # capped
    g = replace(new_game(rules, english), phase=OVER, scores=(400, 380))
    g = time_penalty(g, 0, 130)
    assert g.scores == (370, 380) and result(g).winner == 1
    with pytest.raises(GameError):
        time_penalty(new_game(rules, english), 0, 30)  # only at the end, unless a forfeit
    lost = time_penalty(replace(new_game(rules, english), scores=(300, 100)), 0, 600)
    assert lost.phase == OVER and result(lost).winner == 1 and result(lost).forfeited == 0


def test_spread_cap_limits_the_recorded_margin(english):
    g = replace(new_game(Rules(spread_cap=300), english), phase=OVER, scores=(650, 200))
    assert result(g).spread == 300 and result(g).winner == 0
    tie = replace(g, scores=(300, 300))
    assert result(tie).winner is None and result(tie).spread == 0


def test_unseen_tiles_from_either_view(english, wespa):
    g = play(new_game(wespa, english), at("8D"), "WINDY")
    seen = unseen(g, rack="QUA?")
    assert seen["W"] == 1 and seen["Q"] == 0 and seen["?"] == 1
    assert sum(seen.values()) == 100 - 5 - 4
    with pytest.raises(GameError) as info:
        unseen(g, rack="WW")
    assert rule(info) == "rack-not-in-bag"
