"""The alerts the record calls for by itself (tilecast.checks) are decided in the core,
journaled, and reach the alert log through `tilecast_alert` once, also across restarts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilecast.checks import letters_over
from tilecast.engine.board import Board
from tilecast.engine.rules import Rules
from tilecast.engine.tiles import TileSet
from tilecast.events import SessionInfo
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins.alerts import AlertLog
from tilecast.recorder import Recorder
from tilecast.session import Session

# 12 tiles: two racks of six and nothing in the bag, so a game ends in three plays
TINY = TileSet.from_mapping("tiny", {"A": {"count": 5, "value": 1}, "T": {"count": 4, "value": 1},
                                     "Q": {"count": 1, "value": 10}, "?": {"count": 2, "value": 0}})
EMPTY = ["." * 15] * 15


@pytest.fixture
def info(tmp_path: Path) -> SessionInfo:
    return SessionInfo("table1", ("Ann Smith", "Bob"), "wespa", str(tmp_path / "out"))


def opened(info: SessionInfo, rules: Rules, tileset: TileSet) -> tuple[Session, AlertLog]:
    """A session (fresh, or resumed from the journal in its out-dir) and its alert log."""
    log = AlertLog()
    return Session(info, Recorder(rules, tileset), plugin_manager([log], False)), log


def logged(info: SessionInfo, kind: str) -> list[dict]:
    path = Path(info.out_dir) / f"{info.board}.alerts.jsonl"
    return [e for e in map(json.loads, path.read_text().splitlines()) if e["kind"] == kind]


def journaled(session: Session, kind: str) -> list[dict]:
    return [e for e in session.journal.entries if e.get("kind") == kind]


def rows_with(**squares: str) -> list[str]:
    """Empty rows with letters at squares named like H8 (row 8, column H)."""
    rows = [list(r) for r in EMPTY]
    for name, ch in squares.items():
        rows[int(name[1:]) - 1][ord(name[0]) - ord("A")] = ch
    return ["".join(r) for r in rows]


def test_a_time_forfeit_is_alerted_once_also_after_restarts(info, wespa, english):
    session, log = opened(info, wespa, english)
    session.submit({"type": "time", "player": 0, "seconds_over": 600})
    found = journaled(session, "time-forfeit")
    assert len(found) == 1 and found[0]["severity"] == "violation"
    assert found[0]["data"]["player"] == 0 and "Ann Smith" in found[0]["message"]
    session.close()
    for _ in range(2):  # restarted twice: the journal says it was told
        again, _ = opened(info, wespa, english)
        again.close()
    assert len(logged(info, "time-forfeit")) == 1


def test_an_overtime_penalty_without_forfeit_raises_no_alert(info, wespa, english):
    session, log = opened(info, wespa, english)
    for _ in range(6):
        session.submit({"type": "pass"})
    session.submit({"type": "end", "racks": ["QU", "ZOO"]})
    session.submit({"type": "time", "player": 1, "seconds_over": 90})
    assert session.game.turns[-1].kind == "time"
    assert [a["kind"] for a in log.open_alerts()] == ["scoreless-end"]


def test_six_scoreless_turns_ask_once_for_both_racks(info, wespa, english):
    session, log = opened(info, wespa, english)
    for _ in range(6):
        session.submit({"type": "pass"})
    assert session.game.phase == "scoreless"
    session.submit({"type": "board", "frame": 3, "time": 9.0, "rows": EMPTY})
    found = journaled(session, "scoreless-end")
    assert len(found) == 1 and "racks" in found[0]["message"]
    session.submit({"type": "end", "racks": ["QU", "ZOO"]})
    assert session.game.phase == "over"
    assert len(journaled(session, "scoreless-end")) == 1


def test_a_board_read_with_more_of_a_letter_than_the_set_is_alerted_each_time_it_goes_over(
        info, wespa, english):
    session, log = opened(info, wespa, english)
    two_z = rows_with(H8="Z", H9="Z")

    def read(rows: list[str], frame: int) -> None:
        session.submit({"type": "board", "frame": frame, "time": 2.0, "rows": rows})

    read(two_z, 10)
    read(two_z, 11)  # still too many: not a new alert
    read(EMPTY, 12)
    read(two_z, 13)  # too many again
    found = [a for a in log.open_alerts() if a["kind"] == "too-many-of-letter"]
    assert [a["data"] for a in found] == [{"letter": "Z", "count": 2, "limit": 1, "frame": 10},
                                          {"letter": "Z", "count": 2, "limit": 1, "frame": 13}]
    assert found[0]["time"] == 2.0
    session.close()
    resumed, log = opened(info, wespa, english)
    read = lambda rows, frame: resumed.submit(  # noqa: E731
        {"type": "board", "frame": frame, "time": 2.0, "rows": rows})
    read(two_z, 14)  # the resumed session knows Z is over and was told
    assert log.open_alerts() == []


def test_an_out_play_after_an_uncounted_play_puts_the_rack_bonus_in_doubt(info):
    session, log = opened(info, Rules(), TINY)
    session.submit({"type": "play", "coord": "8H", "word": "TAT"})
    session.submit({"type": "play", "coord": "H7", "word": "a."})
    # the camera read a fifth T (one of them is really something else): recorded as read
    session.submit({"type": "play", "coord": "9I", "word": "TTT", "uncounted": True})
    game = session.game
    assert game.phase == "over" and game.turns[-1].kind == "out"
    found = journaled(session, "rack-in-doubt")
    assert len(found) == 1 and found[0]["severity"] == "warning"
    assert found[0]["turn"] == len(game.turns) - 1
    assert found[0]["data"] == {"rack": game.turns[-1].tiles, "extra": 1,
                                "letters": {"T": [5, 4]}}
    assert [a["data"].get("letter") for a in log.open_alerts()] == ["T", None]


def test_letters_the_recorder_alerted_as_too_many_are_not_alerted_again(info):
    session, log = opened(info, Rules(), TINY)
    session.submit({"type": "play", "coord": "8H", "word": "TAT"})
    session.submit({"type": "alert", "kind": "too-many-of-letter", "message": "9I TTT: ...",
                    "severity": "warning", "turn": 1, "time": 1.0, "data": {"letters": ["T"]}})
    session.submit({"type": "board", "frame": 4, "time": 2.0,
                    "rows": rows_with(H8="T", I8="A", J8="T", I9="T", J9="T", K9="T")})
    assert [a["message"] for a in log.open_alerts()] == ["9I TTT: ..."]
    session.submit({"type": "board", "frame": 5, "time": 2.0,
                    "rows": rows_with(H8="T", I8="A", J8="T", A1="?", B1="?", C1="?")})
    assert [a["data"].get("letter") for a in log.open_alerts()] == [None, "?"]


def test_an_out_play_on_a_board_the_set_can_hold_raises_no_rack_alert(info):
    session, log = opened(info, Rules(), TINY)
    for coord, word in (("8H", "TAT"), ("H7", "a."), ("9I", "TAA")):
        session.submit({"type": "play", "coord": coord, "word": word})
    assert session.game.turns[-1].kind == "out"
    assert log.open_alerts() == []


def test_letters_over_counts_faces_against_the_set(english):
    rows = ["." * 15] * 15
    rows[0] = "ZZqqQe........."  # two Z (the set has one), three blanks (it has two), one Q
    faces = Board.from_rows(rows).faces()
    assert letters_over(faces, english) == {"?": (3, 2), "Z": (2, 1)}


def test_a_recorded_blank_the_camera_reads_as_a_letter_counts_as_a_blank(info):
    """The record holds a blank on I8 (the lexicon or the operator named it); the camera
    takes it for a T. Four Ts and the blank are no fifth T: nothing to alert. A fifth T read
    on a square the record has no blank on is."""
    session, log = opened(info, Rules(), TINY)
    session.submit({"type": "play", "coord": "8H", "word": "TtTT"})
    session.submit({"type": "play", "coord": "H9", "word": "T"})
    session.submit({"type": "board", "frame": 4, "time": 2.0,
                    "rows": rows_with(H8="T", I8="T", J8="T", K8="T", H9="T")})
    assert log.open_alerts() == []
    session.submit({"type": "board", "frame": 5, "time": 3.0,
                    "rows": rows_with(H8="T", I8="T", J8="T", K8="T", H9="T", A1="T")})
    assert [a["data"].get("letter") for a in log.open_alerts()] == ["T"]
