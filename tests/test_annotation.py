"""The annotation plugin (plugins/annotation.py): the live GCG record after every move."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from tests.conftest import (
    opening,
    scoreless_end,
)
from tilecast.engine.board import parse_coord
from tilecast.engine.game import (
    end_out,
    exchange,
    new_game,
    pass_turn,
    play,
    result,
    time_penalty,
    withdraw,
)
from tilecast.engine.gcg import parse_gcg
from tilecast.engine.record import count_notes
from tilecast.engine.replay import replay
from tilecast.engine.rules import Rules
from tilecast.engine.selfplay import self_play
from tilecast.engine.tiles import TileSet
from tilecast.events import SessionInfo
from tilecast.hookspecs import StopRun
from tilecast.lexicons import load_lexicon
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins import annotation


@pytest.fixture(scope="module")
def selfplay_game(wespa, english):
    return self_play(load_lexicon(), english, wespa, seed=3).game


def test_annotation_writes_a_gcg_after_every_move_that_replays_clean(
    session, wespa, english, selfplay_game
):
    pm = plugin_manager(extra=[annotation], entry_points=False)
    path = annotation.record_path(session)
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    assert parse_gcg(path.read_bytes()).events == ()
    for turn in selfplay_game.turns:
        if turn.kind == "play":
            g = play(g, turn.coord, turn.word)
        elif turn.kind == "exchange":
            g = exchange(g, turn.tiles or turn.count)
        elif turn.kind == "pass":
            g = pass_turn(g)
        elif turn.kind == "out":
            g = end_out(g)
        elif turn.kind == "rack":
            continue  # end_out or end_scoreless already added it
        assert g.turns[-1] == turn
        pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
        live = parse_gcg(path.read_bytes())
        assert len(live.events) == len(g.turns)
        assert live.events[-1].total == turn.total
    assert g.phase == "over" and g.scores == selfplay_game.scores
    pm.hook.tilecast_game_ended(session=session, game=g, result=result(g))
    pm.hook.tilecast_session_end(session=session, game=g)
    record = parse_gcg(path.read_bytes(), source=str(path))
    assert record.description == "Tilecast"
    assert record.game_id == "tilecast table1"
    assert [p.name for p in record.players] == ["Ann Smith", "Bob"]
    checked = replay(record, wespa, english)
    assert checked.discrepancies == ()
    assert checked.game.scores == g.scores
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary files left


def test_annotation_record_of_withdrawals_exchanges_and_a_time_forfeit_checks_clean(
    session, wespa, english
):
    pm = plugin_manager(extra=[annotation], entry_points=False)
    g = opening(wespa, english)
    pm.hook.tilecast_move_withdrawn(session=session, game=g, turn=g.turns[-1])
    g = time_penalty(scoreless_end(g), 1, 660)  # 11 minutes over: 110 points and the game
    pm.hook.tilecast_game_ended(session=session, game=g, result=result(g))
    record = parse_gcg(annotation.record_path(session).read_bytes())
    kinds = [e.kind for e in record.events]
    assert kinds[:5] == ["play", "challenge_bonus", "play", "withdraw", "exchange"]
    assert kinds[-3:] == ["end_rack", "end_rack", "time"]
    assert record.events[-1].score == -110
    assert replay(record, wespa, english).discrepancies == ()


# 12 tiles: two racks of six and nothing in the bag, so a game ends in three plays
TINY = TileSet.from_mapping("tiny", {"A": {"count": 5, "value": 1}, "T": {"count": 4, "value": 1},
                                     "Q": {"count": 1, "value": 10}, "?": {"count": 2, "value": 0}})


def test_annotation_notes_a_play_recorded_past_the_sets_letter_counts(session):
    g = play(new_game(Rules(), TINY), parse_coord("8H"), "TAT")
    g = withdraw(play(g, parse_coord("9H"), "TT"))  # a phony taken back: its Ts leave
    g = play(g, parse_coord("9I"), "TT")  # four T on the board: all the set has
    assert count_notes(g) == [""] * 4
    g = play(g, parse_coord("10J"), "T", counted=False)  # a fifth, read clearly
    events = parse_gcg(annotation.record_text(session, g).encode()).events
    assert [bool(e.note) for e in events] == [False] * 4 + [True]
    assert "the board now holds 5 T, more than the tiny set has" in events[-1].note


def test_annotation_keeps_the_old_record_when_a_write_fails(session, wespa, english, monkeypatch):
    g = opening(wespa, english)
    path = annotation.write_record(session, g)
    before = path.read_bytes()

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(StopRun, match="cannot write the live record: disk full"):
        annotation.write_record(session, pass_turn(g))
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_annotation_writes_the_lexicon_when_the_session_knows_it(tmp_path, wespa, english):
    @dataclass(frozen=True)
    class WithLexicon(SessionInfo):
        lexicon: str = ""

    info = WithLexicon("t2", ("A", "B"), "wespa", str(tmp_path), lexicon="CSW24")
    assert parse_gcg(annotation.record_text(info, new_game(wespa, english))).lexicon == "CSW24"
    plain = SessionInfo("t2", ("A", "B"), "wespa", str(tmp_path))
    assert parse_gcg(annotation.record_text(plain, new_game(wespa, english))).lexicon is None
