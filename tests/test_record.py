from tilecast.engine.board import parse_coord
from tilecast.engine.game import challenge_bonus, exchange, new_game, pass_turn, play, withdraw
from tilecast.engine.gcg import format_gcg, parse_gcg
from tilecast.engine.record import game_record, players
from tilecast.engine.replay import replay


def test_every_turn_kind_round_trips_through_gcg_and_checks_clean(english, wespa):
    g = new_game(wespa, english)
    g = play(g, parse_coord("8D"), "WINDY")
    g = challenge_bonus(g)
    g = play(g, parse_coord("7C"), "GALX")
    g = withdraw(g)
    g = exchange(g, 3)
    g = pass_turn(g)
    people = players("Ann Smith", "Bob: Jones")
    text = format_gcg(game_record(g, people, racks=["DINNVWY", "", "AEGLXRT"]))
    assert "#player1 AnnSmith Ann Smith" in text
    record = parse_gcg(text)
    assert [e.kind for e in record.events] == [
        "play",
        "challenge_bonus",
        "play",
        "withdraw",
        "exchange",
        "pass",
    ]
    assert record.events[4].exchange_count == 3
    result = replay(record, wespa, english)
    assert result.discrepancies == ()
    assert result.game.scores == g.scores


def test_same_names_get_distinct_nicknames():
    a, b = players("Sam", "Sam")
    assert a.nickname != b.nickname
