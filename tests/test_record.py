from tilecast.engine.board import parse_coord
from tilecast.engine.game import (
    challenge_bonus,
    end_out,
    exchange,
    new_game,
    pass_turn,
    play,
    withdraw,
)
from tilecast.engine.gcg import format_gcg, parse_gcg
from tilecast.engine.record import game_record, players
from tilecast.engine.replay import replay
from tilecast.engine.tiles import TileSet


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
        ">Player1: DEO - +0 0",  # a pass keeps the rack: the next play's tiles were on it
        ">Player2: E -2 +0 0",  # nothing known: a stand-in tile, and a note saying so
        "#note Tilecast: rack unknown; E stands in for it so that other tools read the line",
        ">Player1: DEO 8G DOE +8 8",
        ">Player2: EO H7 O.E +3 3",
    ]
    assert replay(parse_gcg(text), wespa, english).discrepancies == ()


def test_a_pass_shows_the_rack_its_player_still_holds_at_the_end(wespa):
    tiny = TileSet.from_mapping("tiny", {"A": {"count": 4, "value": 1},
                                         "T": {"count": 4, "value": 2}})
    g = pass_turn(new_game(wespa, tiny))  # four tiles each, none in the bag
    g = play(g, parse_coord("8G"), "TAT")
    g = pass_turn(g)
    g = end_out(play(g, parse_coord("H7"), "A."))
    lines = format_gcg(game_record(g, players("A", "B"))).splitlines()[2:]
    # A's rack never changed: the out-play's rack line shows it, and so do both passes
    assert lines == [">A: AATT - +0 0", ">B: ATT 8G TAT +10 10", ">A: AATT - +0 0",
                     ">B: A H7 A. +2 12", ">B:  (AATT) +12 24"]


def test_a_known_rack_is_shown_as_it_is(english, wespa):
    g = play(new_game(wespa, english), parse_coord("8D"), "WINDY")
    record = game_record(g, players("A", "B"), racks=["DINNVWY"])
    assert record.events[0].rack == "DINNVWY"
