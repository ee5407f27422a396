"""`tilecast gcg check` over the 211 real records in ../shared/gcg, and on hostile input.

Every discrepancy it reports is pinned here with the mistake in the record behind it; every other
record must replay with none.
"""

import contextlib
import json
import tracemalloc
from pathlib import Path

import pytest

from tests.conftest import shared_dir
from tilecast.cli import main

# file: ([(line, kind), ...], the genuine mistake)
KNOWN = {
    "liwords/puzzles__testdata__r20_peter.gcg": (
        [(19, "score"), (20, "score")],
        "BRUnCH..Y scores 58 + YE 5 + 50 = 113; the record says 115 (and withdraws 115)",
    ),
    "macondo/gcgio__testdata__name_weird_encoding_with_header.gcg": (
        [(1, "malformed")],
        "declares ISO8859-6, an encoding GCG does not allow",
    ),
    "macondo/gcgio__testdata__polish_endgame.gcg": (
        [(None, "unsupported")],
        "Polish tile set",
    ),
    "magpie/challenge_bonus_rack_malformed.gcg": (
        [(24, "malformed")],
        "deliberately malformed rack",
    ),
    "magpie/challenge_bonus_without_play.gcg": (
        [(24, "total"), (24, "illegal")],
        "challenge bonus after a pass",
    ),
    "magpie/duplicate_nicknames.gcg": (
        [(3, "malformed")],
        "both players share a nickname",
    ),
    "magpie/empty.gcg": (
        [(None, "malformed")],
        "empty file",
    ),
    "magpie/encoding_wrong_place.gcg": (
        [(20, "malformed")],
        "encoding pragma not on the first line",
    ),
    "magpie/end_game_event_before_game_end.gcg": (
        [(18, "illegal")],
        "time penalty in the middle of the game",
    ),
    "magpie/end_penalty_rack_malformed.gcg": (
        [(15, "malformed")],
        "deliberately malformed rack",
    ),
    "magpie/end_points_rack_malformed.gcg": (
        [(45, "malformed")],
        "deliberately malformed rack",
    ),
    "magpie/end_rack_points_incorrect.gcg": (
        [(36, "score")],
        "out-play bonus should be twice the rack: 24, not 14",
    ),
    "magpie/event_after_last_rack.gcg": (
        [(None, "illegal")],
        "#rack1 given mid-game, then the game goes on",
    ),
    "magpie/exchange_malformed.gcg": (
        [(6, "malformed")],
        "deliberately malformed exchange",
    ),
    "magpie/exchange_not_in_rack.gcg": (
        [(6, "illegal")],
        "exchanges tiles not on the rack",
    ),
    "magpie/first_rack_not_in_bag.gcg": (
        [(13, "illegal")],
        "plays a third Z",
    ),
    "magpie/game_event_off_turn.gcg": (
        [(15, "total"), (15, "illegal"), (16, "total"), (16, "illegal"), (17, "total")],
        "a player moves twice in a row",
    ),
    "magpie/game_events_overflow.gcg": (
        [(19, "total"), (19, "illegal")],
        "a play over squares already filled",
    ),
    "magpie/invalid_challenge_bonus_player_index.gcg": (
        [(24, "total"), (24, "illegal")],
        "challenge bonus given to the wrong player",
    ),
    "magpie/invalid_phony_tiles_player_index.gcg": (
        [(22, "total"), (22, "illegal")],
        "phony withdrawn by the wrong player",
    ),
    "magpie/invalid_tile_placement.gcg": (
        [(27, "malformed")],
        "coordinate off the board",
    ),
    "magpie/last_rack1_not_in_bag.gcg": (
        [(None, "illegal")],
        "#rack1 holds tiles no longer in the bag",
    ),
    "magpie/last_rack2_not_in_bag.gcg": (
        [(None, "illegal")],
        "#rack2 holds tiles no longer in the bag",
    ),
    "magpie/last_rack_penalty_incorrect.gcg": (
        [(17, "score")],
        "rack deducted as -18, worth 16",
    ),
    "magpie/malformed_challenge_rack.gcg": (
        [(13, "malformed")],
        "deliberately malformed rack",
    ),
    "magpie/malformed_play.gcg": (
        [(11, "malformed")],
        "deliberately malformed word",
    ),
    "magpie/malformed_rack.gcg": (
        [(30, "malformed")],
        "deliberately malformed rack",
    ),
    "magpie/midgame_rack_not_in_bag.gcg": (
        [(35, "illegal")],
        "rack with three Zs",
    ),
    "magpie/move_before_player.gcg": (
        [(4, "malformed")],
        "#player2 declared after the first move",
    ),
    "magpie/move_event_after_game_end.gcg": (
        [(45, "illegal")],
        "a play after a player went out",
    ),
    "magpie/no_matching_token.gcg": (
        [(10, "malformed")],
        "a play without a coordinate",
    ),
    "magpie/pass_rack_malformed.gcg": (
        [(28, "malformed")],
        "deliberately malformed rack",
    ),
    "magpie/phony_tiles_returned_mismatch.gcg": (
        [(22, "illegal")],
        "withdrawn tiles differ from those played",
    ),
    "magpie/phony_tiles_returned_with_no_play.gcg": (
        [(35, "total"), (35, "illegal")],
        "withdrawal after a pass",
    ),
    "magpie/play_out_of_bounds.gcg": (
        [(18, "illegal")],
        "play through an empty square",
    ),
    "magpie/played_tile_not_in_rack.gcg": (
        [(9, "illegal"), (34, "illegal")],
        "plays a tile not on the rack, later a seventh R",
    ),
    "magpie/player_does_not_exist.gcg": (
        [(30, "malformed")],
        "move by an undeclared player",
    ),
    "magpie/player_number_redundant.gcg": (
        [(3, "malformed")],
        "#player1 declared twice",
    ),
    "magpie/six_pass_cumulative_scoring_error.gcg": (
        [(17, "total")],
        "total off by one after a rack deduction",
    ),
    "magpie/standard_cumulative_scoring_error.gcg": (
        [(15, "total"), (17, "total")],
        "two totals added up wrong",
    ),
    "magpie/time_penalty_before_rack_penalties.gcg": (
        [(15, "illegal")],
        "time penalty before the game ended",
    ),
    "magpie/time_penalty_before_rack_points.gcg": (
        [(45, "total"), (45, "illegal")],
        "time penalty before the out-play was settled",
    ),
    "magpie/time_penalty_between_rack_penalties.gcg": (
        [(16, "illegal")],
        "time penalty between the two rack deductions",
    ),
    "magpie/time_penalty_duplicate.gcg": (
        [(47, "illegal")],
        "two time penalties for one player",
    ),
    "magpie/time_penalty_first_event.gcg": (
        [(12, "total"), (12, "illegal")],
        "time penalty as the first move",
    ),
    "magpie/time_penalty_midgame.gcg": (
        [(15, "total"), (15, "illegal")],
        "time penalty mid-game",
    ),
    "magpie/unsupported_character_encoding.gcg": (
        [(1, "malformed")],
        "declares an encoding GCG does not allow",
    ),
    "quackle/quackleio__iotest__capp.gcg": (
        [(14, "total"), (14, "score")],
        "withdrawn phony written as +0 instead of -45",
    ),
    "quackle/test__positions__consonant_heaviness_tendency.gcg": (
        [(2, "malformed")],
        "both players named NoName",
    ),
    "quackle/test__positions__multiplayer-crash.gcg": (
        [(3, "malformed")],
        "three players",
    ),
    "scorable/cresta-yorra-2006.gcg": (
        [(47, "malformed")],
        "a line with a quote where the colon belongs",
    ),
    "scorable/near-end-game.gcg": (
        [(12, "total"), (24, "total")],
        "two totals 5 too high",
    ),
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    corpus = shared_dir("gcg")
    files = sorted(corpus.rglob("*.gcg"))
    assert len(files) == 211
    out = tmp_path_factory.mktemp("check") / "report.json"
    with out.open("w") as fh, contextlib.redirect_stdout(fh):
        status = main(["gcg", "check", "--json", *map(str, files)])
    return corpus, status, json.loads(out.read_text())


def test_every_discrepancy_is_a_known_mistake_and_others_are_clean(report):
    corpus, status, data = report
    found = {}
    for entry in data["files"]:
        name = str(Path(entry["file"]).relative_to(corpus))
        found[name] = [(d["line"], d["kind"]) for d in entry["discrepancies"]]
    assert {k: v for k, v in found.items() if v} == {k: v[0] for k, v in KNOWN.items()}
    assert status == 1
    assert data["files_with_discrepancies"] == len(KNOWN)


def test_clean_record_exits_zero(capsys):
    record = shared_dir("gcg") / "magpie" / "success.gcg"
    assert main(["gcg", "check", str(record)]) == 0
    assert "0 with discrepancies" in capsys.readouterr().out


def test_text_report_names_file_line_and_values(capsys):
    record = shared_dir("gcg") / "magpie" / "end_rack_points_incorrect.gcg"
    assert main(["gcg", "check", str(record)]) == 1
    out = capsys.readouterr().out
    assert f"{record}:36: Josh: score:" in out and "(recorded 14, computed 24)" in out


HOSTILE_HEAD = "#player1 Ann Ann\n#player2 Bob Bob\n"


def test_a_ten_megabyte_word_is_refused_in_little_memory_and_not_echoed(tmp_path, capsys):
    record = tmp_path / "word.gcg"
    record.write_text(HOSTILE_HEAD + ">Ann: ABCDEFG 8D " + "A" * 10_000_000 + " +10 10\n")
    tracemalloc.start()
    try:
        status = main(["gcg", "check", str(record)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 1
    assert peak < 100_000_000  # the file is 10 MB; replaying the word took over 1 GB
    assert capsys.readouterr().out.splitlines() == [
        f"{record}:3: malformed: line is 10000024 characters long (at most 8192)",
        "1 files checked, 1 with discrepancies",
    ]


def test_a_long_word_within_the_line_cap_is_quoted_as_an_excerpt(tmp_path, capsys):
    record = tmp_path / "word.gcg"
    record.write_text(HOSTILE_HEAD + ">Ann: ABCDEFG 8D " + "A" * 8000 + " +10 10\n")
    assert main(["gcg", "check", "--json", str(record)]) == 1
    (found,) = json.loads(capsys.readouterr().out)["files"][0]["discrepancies"]
    assert found["kind"] == "illegal"
    assert found["reason"].endswith("... (8033 characters)") and len(found["reason"]) < 250
