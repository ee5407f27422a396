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


def test_a_turn_without_a_known_rack_shows_what_it_reveals_of_it(english, wespa):
    g = new_game(wespa, english)
    g = play(g, parse_coord("8G"), "FIRm")
    g = withdraw(g)
    g = exchange(g, "QU")
    g = pass_turn(g)
    g = exchange(g, 2)
    g = play(g, parse_coord("8G"), "DOE")
    g = play(g, parse_coord("H7"), "O.E")
    text = format_gcg(game_record(g, players("Player 1", "Player 2")))
    assert text.splitlines()[2:] == [
        ">Player1: ?FIR 8G FIRm +12 12",
        ">Player1: ?FIR -- -12 0",
        ">Player2: QU -QU +0 0",
        ">Player1:  - +0 0",
        ">Player2:  -2 +0 0",
        ">Player1: DEO 8G DOE +8 8",
        ">Player2: EO H7 O.E +3 3",
    ]
    assert replay(parse_gcg(text), wespa, english).discrepancies == ()


def test_a_known_rack_is_shown_as_it_is(english, wespa):
    g = play(new_game(wespa, english), parse_coord("8D"), "WINDY")
    record = game_record(g, players("A", "B"), racks=["DINNVWY"])
    assert record.events[0].rack == "DINNVWY"
