"""The built-in plugins (annotation, alerts, broadcast, console) and how hooks reach plugins."""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from flask import Flask

from tests.test_pluginmanager import wrapper_of_every_hook
from tilecast import hookspecs, pluginmanager
from tilecast.commands import plugins as plugins_command
from tilecast.engine.board import Board, parse_coord
from tilecast.engine.game import (
    Game,
    challenge_bonus,
    end_out,
    end_scoreless,
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
from tilecast.events import Alert, SessionInfo
from tilecast.hookspecs import hookimpl
from tilecast.lexicons import load_lexicon
from tilecast.pluginmanager import describe, plugin_manager
from tilecast.plugins import alerts, annotation, broadcast, console

HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tilecast_"))
BUILT_INS = ["alerts", "annotation", "broadcast", "console"]


def spec_args(hook: str) -> list[str]:
    return list(inspect.signature(getattr(hookspecs, hook)).parameters)


@pytest.fixture
def session(tmp_path: Path) -> SessionInfo:
    return SessionInfo("table1", ("Ann Smith", "Bob"), "wespa", str(tmp_path / "out"))


def opening(wespa, english) -> Game:
    """Ann plays WINDY (challenged in vain), Bob's phony GaLX is withdrawn, Ann exchanges."""
    g = new_game(wespa, english)
    g = play(g, parse_coord("8D"), "WINDY")
    g = challenge_bonus(g)
    g = play(g, parse_coord("7C"), "GaLX")
    g = withdraw(g)
    return exchange(g, "AE")


def scoreless_end(game: Game) -> Game:
    while game.phase == "playing":
        game = pass_turn(game)
    return end_scoreless(game, ("QU", "ZOO"))


def camera_rows(board: Board) -> list[str]:
    """What the camera reads of a board: blanks show as '?'."""
    return ["".join("?" if ch.islower() else ch for ch in row) for row in board.rows()]


def hook_args(hook: str, session: SessionInfo, wespa, english) -> dict:
    """Real arguments for every hook, built with the engine."""
    g = new_game(wespa, english)
    played = play(g, parse_coord("8D"), "WINDY")
    with_blank = play(g, parse_coord("8H"), "Ox")
    over = scoreless_end(played)
    return {
        "tilecast_session_start": dict(session=session, game=g),
        "tilecast_board_committed": dict(
            session=session, board=played.board, rows=camera_rows(played.board), frame=7, time=0.25
        ),
        "tilecast_clock": dict(session=session, game=played, clocks=(612.0, None)),
        "tilecast_move_recorded": dict(session=session, game=played, turn=played.turns[-1]),
        "tilecast_move_withdrawn": dict(
            session=session, game=withdraw(played), turn=withdraw(played).turns[-1]
        ),
        "tilecast_blank_needs_letter": dict(
            session=session, game=with_blank, turn_index=0, square="I8", options=["X", "Y"]
        ),
        "tilecast_record_changed": dict(session=session, game=played, reason="inserted a pass"),
        "tilecast_alert": dict(session=session, alert=Alert("board-disturbed", "a tile moved")),
        "tilecast_game_ended": dict(session=session, game=over, result=result(over)),
        "tilecast_session_end": dict(session=session, game=over),
        "tilecast_server_routes": dict(app=Flask("test")),
    }[hook]


class Recorder:
    """Implements every hook and keeps what each call received."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def _got(self, hook: str, **kwargs) -> None:
        self.calls.append((hook, kwargs))

    @hookimpl
    def tilecast_session_start(self, session, game):
        self._got("tilecast_session_start", session=session, game=game)

    @hookimpl
    def tilecast_board_committed(self, session, board, rows, frame, time):
        self._got(
            "tilecast_board_committed",
            session=session,
            board=board,
            rows=rows,
            frame=frame,
            time=time,
        )

    @hookimpl
    def tilecast_clock(self, session, game, clocks):
        self._got("tilecast_clock", session=session, game=game, clocks=clocks)

    @hookimpl
    def tilecast_move_recorded(self, session, game, turn):
        self._got("tilecast_move_recorded", session=session, game=game, turn=turn)

    @hookimpl
    def tilecast_move_withdrawn(self, session, game, turn):
        self._got("tilecast_move_withdrawn", session=session, game=game, turn=turn)

    @hookimpl
    def tilecast_blank_needs_letter(self, session, game, turn_index, square, options):
        self._got(
            "tilecast_blank_needs_letter",
            session=session,
            game=game,
            turn_index=turn_index,
            square=square,
            options=options,
        )

    @hookimpl
    def tilecast_record_changed(self, session, game, reason):
        self._got("tilecast_record_changed", session=session, game=game, reason=reason)

    @hookimpl
    def tilecast_alert(self, session, alert):
        self._got("tilecast_alert", session=session, alert=alert)

    @hookimpl
    def tilecast_game_ended(self, session, game, result):
        self._got("tilecast_game_ended", session=session, game=game, result=result)

    @hookimpl
    def tilecast_session_end(self, session, game):
        self._got("tilecast_session_end", session=session, game=game)

    @hookimpl
    def tilecast_server_routes(self, app):
        self._got("tilecast_server_routes", app=app)


def test_recorder_implements_every_hook_with_the_spec_argument_names():
    for hook in HOOKS:
        assert list(inspect.signature(getattr(Recorder, hook)).parameters)[1:] == spec_args(hook)


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_reaches_plugins_with_its_arguments(hook, session, wespa, english):
    recorder = Recorder()
    args = hook_args(hook, session, wespa, english)
    assert list(args) == spec_args(hook)
    getattr(plugin_manager(extra=[recorder], entry_points=False).hook, hook)(**args)
    assert len(recorder.calls) == 1
    name, got = recorder.calls[0]
    assert name == hook
    assert list(got) == spec_args(hook)
    assert all(got[k] is args[k] for k in args)


@pytest.mark.parametrize("hook", HOOKS)
def test_built_in_plugins_take_every_hook_without_failing(hook, session, wespa, english, caplog):
    pm = plugin_manager(
        extra=[annotation, alerts.AlertLog(), broadcast.Broadcast(), console], entry_points=False
    )
    with caplog.at_level(logging.ERROR, logger="tilecast.pluginmanager"):
        getattr(pm.hook, hook)(**hook_args(hook, session, wespa, english))
    assert not caplog.records


@pytest.mark.parametrize("hook", HOOKS)
def test_a_wrapper_plugin_receives_every_hook_beside_the_others(hook, session, wespa, english):
    recorder, seen = Recorder(), []
    pm = plugin_manager(extra=[recorder, wrapper_of_every_hook(seen)], entry_points=False)
    getattr(pm.hook, hook)(**hook_args(hook, session, wespa, english))
    assert seen == [hook] and [name for name, _ in recorder.calls] == [hook]


class Boom:
    @hookimpl
    def tilecast_move_recorded(self, session, game, turn):
        raise RuntimeError("boom")


def test_an_exception_in_one_plugin_does_not_stop_the_others(session, wespa, english, caplog):
    before, after = Recorder(), Recorder()
    pm = plugin_manager(extra=[before, Boom(), after, annotation], entry_points=False)
    args = hook_args("tilecast_move_recorded", session, wespa, english)
    with caplog.at_level(logging.ERROR, logger="tilecast.pluginmanager"):
        pm.hook.tilecast_move_recorded(**args)
    assert len(before.calls) == len(after.calls) == 1
    assert annotation.record_path(session).exists()
    assert [r.exc_info[1].args for r in caplog.records] == [("boom",)]


# --- annotation ---------------------------------------------------------------------------


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
    with pytest.raises(OSError):
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


# --- alerts -------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_alerts_are_logged_one_json_line_each_and_kept_open(session):
    log = alerts.AlertLog()
    pm = plugin_manager(extra=[log], entry_points=False)
    pm.hook.tilecast_alert(session=session, alert=Alert("score-discrepancy", "sheet says 30"))
    pm.hook.tilecast_alert(
        session=session,
        alert=Alert("board-disturbed", "H8 moved", "info", 4, 61.5, {"squares": ["H8"]}),
    )
    lines = read_jsonl(alerts.log_path(session))
    assert log.open_alerts() == lines
    logged = [line.pop("logged") for line in lines]  # when, by the wall clock, for the TD
    assert all(isinstance(t, float) and t > 1.7e9 for t in logged)
    assert lines == [
        {
            "id": 1,
            "board": "table1",
            "kind": "score-discrepancy",
            "severity": "warning",
            "message": "sheet says 30",
            "turn": None,
            "time": 0.0,
            "data": {},
        },
        {
            "id": 2,
            "board": "table1",
            "kind": "board-disturbed",
            "severity": "info",
            "message": "H8 moved",
            "turn": 4,
            "time": 61.5,
            "data": {"squares": ["H8"]},
        },
    ]
    assert log.acknowledge("table1", 1) is True
    assert log.acknowledge("table1", 1) is False
    assert log.acknowledge("other", 2) is False
    assert [a["id"] for a in log.open_alerts("table1")] == [2]
    assert log.open_alerts("other") == []
    assert len(read_jsonl(alerts.log_path(session))) == 2  # acknowledging writes nothing


def test_alert_log_is_append_only_and_ids_go_on_after_reopening(session):
    first = alerts.AlertLog()
    first.record(session, Alert("a", "one"))
    first.record(session, Alert("b", "two"))
    path = alerts.log_path(session)
    before = path.read_bytes()
    with path.open("ab") as f:  # a line cut short by a crash
        f.write(b'{"id": 3, "board": "tab')
    second = alerts.AlertLog()  # a new process resuming the session
    second.record(session, Alert("c", "three"))
    after = path.read_bytes()
    assert after.startswith(before)
    lines = after.decode().splitlines()
    assert len(lines) == 4
    assert json.loads(lines[-1])["id"] == 3 and json.loads(lines[-1])["kind"] == "c"
    assert second.open_alerts() == [json.loads(lines[-1])]


# --- broadcast ----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def moves(pm, session: SessionInfo, game: Game, since: int = 0) -> None:
    """Fire one hook per turn from `since` on, each with the final game (enough where only the
    events' order and numbers matter)."""
    for turn in game.turns[since:]:
        hook = "tilecast_move_withdrawn" if turn.kind == "withdraw" else "tilecast_move_recorded"
        getattr(pm.hook, hook)(session=session, game=game, turn=turn)


def test_snapshot_holds_the_public_state_of_a_board(session, wespa, english):
    b = broadcast.Broadcast()
    pm = plugin_manager(extra=[b], entry_points=False)
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    g = play(g, parse_coord("8D"), "WINDY")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    g = play(g, parse_coord("E7"), "bI")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    snap = b.snapshot("table1")
    assert json.loads(json.dumps(snap)) == snap
    assert snap["seq"] == 3
    assert snap["rows"][6] == "....b.........."
    assert snap["rows"][7] == "...WINDY......."
    assert snap["blanks"] == [{"square": "E7", "letter": "B"}]
    assert snap["last_play"] == ["E7"]
    assert snap["players"] == ["Ann Smith", "Bob"]
    assert snap["scores"] == list(g.scores)
    assert snap["to_move"] == 0
    assert [m["move"] for m in snap["moves"]] == ["8D WINDY", "E7 bI"]
    assert snap["moves"][1]["words"] == ["BI"]
    assert snap["moves"][1]["name"] == "Bob"
    assert len(snap["unseen"]) == english.size - 6
    assert snap["unseen"].count("?") == 1 and snap["unseen"].count("D") == 3
    assert snap["bag"] == english.size - 14 - 6
    assert snap["clocks"] is None
    assert snap["phase"] == "playing"
    assert snap["result"] is None
    assert b.boards() == ["table1"]
    g = scoreless_end(g)
    pm.hook.tilecast_game_ended(session=session, game=g, result=result(g))
    snap = b.snapshot("table1")
    assert snap["phase"] == "over"
    assert snap["result"] == {
        "scores": list(g.scores),
        "winner": result(g).winner,
        "spread": result(g).spread,
        "forfeited": None,
    }
    assert snap["last_play"] == []


def test_move_texts_follow_gcg(wespa, english, session):
    g = opening(wespa, english)
    g = time_penalty(scoreless_end(g), 1, 30)
    texts = [broadcast.move_entry(t, session)["move"] for t in g.turns]
    assert texts[:5] == ["8D WINDY", "(challenge)", "7C GaLX", "--", "-AE"]
    assert set(texts[5:-3]) == {"-"}  # passes up to the scoreless-turn limit
    assert texts[-3:] == ["(QU)", "(ZOO)", "(time)"]
    assert broadcast.move_text(exchange(new_game(wespa, english), 3).turns[-1]) == "-3"


def test_events_are_numbered_and_logged(session, wespa, english):
    b = broadcast.Broadcast()
    pm = plugin_manager(extra=[b], entry_points=False)
    g = opening(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=new_game(wespa, english))
    moves(pm, session, g)
    pm.hook.tilecast_record_changed(session=session, game=g, reason="fixed a misread")
    events = b.events("table1")
    assert [e["seq"] for e in events] == list(range(1, 8))
    assert [e["type"] for e in events] == ["session-start"] + ["move"] * 3 + [
        "withdrawn",
        "move",
        "record-changed",
    ]
    assert events[4]["move"]["move"] == "--"
    assert events[-1]["reason"] == "fixed a misread"
    assert [e["seq"] for e in b.events("table1", after=5)] == [6, 7]
    assert b.events("nowhere") == []


def test_broadcast_delay_holds_events_back(session, wespa, english):
    clock = Clock()
    b = broadcast.Broadcast(now=clock)
    pm = plugin_manager(extra=[b], entry_points=False)
    b.set_delay("table1", 30)
    sub = b.subscribe("table1")
    assert sub.snapshot is None
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    clock.t += 10
    g = play(g, parse_coord("8D"), "WINDY")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    assert sub.get(timeout=0) is None
    with pytest.raises(KeyError):
        b.snapshot("table1")
    assert b.boards() == []
    clock.t += 20  # the session start is due, the move not yet
    first = sub.get(timeout=0)
    assert first["type"] == "session-start"
    assert sub.get(timeout=0) is None
    assert b.snapshot("table1")["moves"] == []
    assert b.boards() == ["table1"]
    clock.t += 10
    assert sub.get(timeout=0)["move"]["move"] == "8D WINDY"
    assert b.snapshot("table1")["scores"][0] == g.scores[0]


def test_a_shorter_delay_never_lets_events_overtake(session, wespa, english):
    clock = Clock()
    b = broadcast.Broadcast(now=clock)
    pm = plugin_manager(extra=[b], entry_points=False)
    sub = b.subscribe("table1")
    b.set_delay("table1", 60)
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    b.set_delay("table1", 0)
    g = play(g, parse_coord("8D"), "WINDY")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    assert sub.get(timeout=0) is None
    clock.t += 60
    assert [sub.get(timeout=0)["seq"], sub.get(timeout=0)["seq"]] == [1, 2]


def test_a_slow_subscriber_is_dropped_and_the_others_go_on(session, wespa, english):
    b = broadcast.Broadcast(now=Clock())
    pm = plugin_manager(extra=[b], entry_points=False)
    slow, fast = b.subscribe("table1", maxsize=2), b.subscribe("table1", maxsize=10)
    g = opening(wespa, english)
    moves(pm, session, g, since=2)  # three events
    assert slow.dropped and slow.closed
    with pytest.raises(broadcast.SubscriptionClosed):
        slow.get(timeout=0)
    assert [fast.get(timeout=0)["seq"] for _ in range(3)] == [1, 2, 3]
    pm.hook.tilecast_record_changed(session=session, game=g, reason="x")
    assert fast.get(timeout=0)["seq"] == 4
    fast.close()
    with pytest.raises(broadcast.SubscriptionClosed):
        fast.get(timeout=0)


def test_subscribing_after_a_sequence_number_returns_what_was_missed(session, wespa, english):
    b = broadcast.Broadcast()
    pm = plugin_manager(extra=[b], entry_points=False)
    moves(pm, session, opening(wespa, english))
    assert [e["seq"] for e in b.subscribe("table1", after=2).missed] == [3, 4, 5]
    assert b.subscribe("table1", after=5).missed == []
    assert b.subscribe("table1", after=9).missed is None  # numbers from another run
    assert b.subscribe("table1").missed is None
    assert b.subscribe("table1").snapshot["seq"] == 5


def test_a_waiting_subscriber_wakes_when_a_delayed_event_is_due(session, wespa, english):
    b = broadcast.Broadcast()
    pm = plugin_manager(extra=[b], entry_points=False)
    b.set_delay("table1", 0.3)
    sub = b.subscribe("table1")
    got = []
    waiter = threading.Thread(target=lambda: got.append((sub.get(timeout=10), time.monotonic())))
    waiter.start()
    time.sleep(0.05)  # the waiter is blocked with nothing pending
    sent = time.monotonic()
    pm.hook.tilecast_session_start(session=session, game=new_game(wespa, english))
    waiter.join(timeout=10)
    event, at = got[0]
    assert event["type"] == "session-start"
    assert 0.25 <= at - sent < 3


def test_set_delay_rejects_nonsense():
    b = broadcast.Broadcast()
    for bad in (-1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            b.set_delay("t", bad)
    b.set_delay("t", 2.5)
    assert b.delay("t") == 2.5 and b.delay("unknown") == 0.0


def test_the_stream_sends_the_snapshot_or_the_missed_events(session, wespa, english):
    b = broadcast.Broadcast()
    pm = plugin_manager(extra=[b], entry_points=False)
    assert b.boards() == []
    moves(pm, session, opening(wespa, english))
    assert b.boards() == ["table1"]

    def first_message(after: int | None) -> str:
        stream = b.stream("table1", after)
        text = next(stream)
        stream.close()
        return text

    text = first_message(None)
    assert text.startswith("id: 5\nevent: snapshot\ndata: ")
    assert json.loads(text.split("data: ", 1)[1]) == b.snapshot("table1")
    assert first_message(3).startswith("id: 4\nevent: withdrawn\n")
    assert b._feeds["table1"].subscribers == []  # closed streams unsubscribe


# --- console ------------------------------------------------------------------------------


def test_console_prints_one_line_per_event(session, wespa, english, capsys):
    pm = plugin_manager(extra=[console], entry_points=False)
    printed = []
    for hook in HOOKS:
        getattr(pm.hook, hook)(**hook_args(hook, session, wespa, english))
        out = capsys.readouterr().out
        printed.append((hook, out))
    for hook, out in printed:
        if hook == "tilecast_server_routes":
            assert out == ""
        else:
            assert out.count("\n") == 1 and out.startswith("[table1] "), (hook, out)
    lines = dict(printed)
    assert lines["tilecast_move_recorded"] == "[table1] Ann Smith 8D WINDY +32 = 32\n"
    assert lines["tilecast_move_withdrawn"] == "[table1] Ann Smith withdraws -32 = 0\n"
    assert lines["tilecast_alert"].startswith("[table1] !! warning board-disturbed")
    assert "5 tiles" in lines["tilecast_board_committed"]
    assert "I8" in lines["tilecast_blank_needs_letter"]
    assert lines["tilecast_clock"] == "[table1] clocks Ann Smith 10:12, Bob ?\n"


def test_console_move_lines_for_every_turn_kind(session, wespa, english):
    g = time_penalty(scoreless_end(opening(wespa, english)), 0, 61)
    lines = [console.move_line(session, t) for t in g.turns]
    assert lines[1] == "Ann Smith challenge bonus +5 = 37"
    assert lines[3] == "Bob withdraws -28 = 0"
    assert lines[4] == "Ann Smith exchanges AE +0 = 37"
    assert lines[5] == "Bob passes +0 = 0"
    assert lines[-3] == "Ann Smith rack (QU) -11 = 26"
    assert lines[-2] == "Bob rack (ZOO) -12 = -12"
    assert lines[-1] == "Ann Smith time penalty -20 = 6"


# --- registration -------------------------------------------------------------------------


def test_every_manager_has_its_own_built_ins():
    first, second = plugin_manager(), plugin_manager()
    for name in BUILT_INS:
        assert first.get_plugin(name) is not None, name
    for name in ("alerts", "broadcast"):  # the stateful ones are never shared
        assert first.get_plugin(name) is not second.get_plugin(name)


def test_a_plugin_is_switched_off_by_name(tmp_path, wespa, english):
    pm = plugin_manager(disabled=["annotation", "console"])
    assert pm.get_plugin("annotation") is None and pm.get_plugin("console") is None
    assert pm.get_plugin("alerts") is not None
    info = SessionInfo("t1", ("Ann", "Bob"), "wespa", str(tmp_path))
    pm.hook.tilecast_session_start(session=info, game=new_game(wespa, english))
    assert not (tmp_path / "t1.gcg").exists()


def test_installed_plugins_come_through_the_entry_point_group(monkeypatch):
    found = [EntryPoint("loud", "tilecast.plugins.console", hookspecs.PROJECT),
             EntryPoint("off", "no.such.module", hookspecs.PROJECT)]
    monkeypatch.setattr(pluginmanager.metadata, "entry_points", lambda group: found)
    monkeypatch.setattr(pluginmanager, "built_ins", lambda: [])
    pm = plugin_manager(disabled=["off"])  # a switched-off plugin is not even imported
    assert pm.get_plugin("loud") is console
    assert [name for name, _ in describe(pm)] == ["loud"]


def test_the_plugins_command_leaves_out_a_switched_off_plugin(capsys):
    parser = argparse.ArgumentParser()
    plugins_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["plugins", "--disable-plugin", "console"])
    assert args.func(args) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()[:-1]]
    assert "console" not in names and "annotation" in names


def test_plugins_command_lists_names_and_hooks(monkeypatch, capsys):
    def manager(disabled=()):
        pm = plugin_manager(entry_points=False)
        for name, plugin in pluginmanager.built_ins():
            pm.register(plugin, name=name)
        return pm

    monkeypatch.setattr(plugins_command, "plugin_manager", manager)
    parser = argparse.ArgumentParser()
    plugins_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["plugins"])
    assert args.func(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "4 plugins"
    rows = {line.split()[0]: line.split(None, 1)[1] for line in out[:-1]}
    assert list(rows) == ["alerts", "annotation", "broadcast", "console"]
    for name, hooks in describe(manager()):
        assert rows[name] == ", ".join(hooks)
    assert "tilecast_blank_needs_letter" in rows["console"]
    assert "tilecast_blank_needs_letter" not in rows["annotation"]


def test_moves_are_said_in_words_for_viewers(wespa, english, session):
    g = play(opening(wespa, english), parse_coord("E7"), "A.E")  # down through WINDY's I
    g = time_penalty(scoreless_end(g), 1, 30)
    state = broadcast.public_state(session, g)
    said = [m["said"] for m in state["moves"]]
    assert said[:6] == ["8D WINDY", "challenge bonus", "7C GaLX", "phony withdrawn",
                        "exchanged AE", "E7 AIE"]
    assert set(said[6:-3]) == {"passed"}
    assert said[-3:] == ["rack QU left", "rack ZOO left", "time penalty"]
    assert [m.get("withdrawn", False) for m in state["moves"][:4]] == [False, False, True, False]
    assert broadcast.move_said(exchange(new_game(wespa, english), 3).turns[-1]) == \
        "exchanged 3 tiles"


def test_the_went_out_line_is_said_in_words(wespa, english):
    game = self_play(load_lexicon(), english, wespa, seed=3).game  # ends in a play-out
    out = game.turns[-1]
    assert out.kind == "out"
    assert broadcast.move_said(out) == f"went out: opponent's rack {out.tiles} counted"


def test_the_clock_runs_for_the_player_to_move_from_the_last_entry(session, wespa, english):
    """The state says how much each side had at a wall time and whose side runs; a move stops
    the mover's side where it stood and starts the other; a delay moves that time on."""
    clock, wall = Clock(), Clock()
    b = broadcast.Broadcast(now=clock, wall=wall)
    pm = plugin_manager(extra=[b], entry_points=False)
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    assert b.snapshot("table1")["clock"] is None  # no clock entered: nothing runs
    pm.hook.tilecast_clock(session=session, game=g, clocks=(600.0, None))
    wall.t += 5
    pm.hook.tilecast_clock(session=session, game=g, clocks=(600.0, 590.0))
    state = b.snapshot("table1")["clock"]
    assert state == {"left": [595.0, 590.0], "running": 0, "at": wall.t}
    wall.t += 20
    g = play(g, parse_coord("8D"), "WINDY")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    assert b.snapshot("table1")["clock"] == {"left": [575.0, 590.0], "running": 1, "at": wall.t}
    assert b.state(session, g)["clock"]["running"] == 1  # the undelayed view alike
    b.set_delay("table1", 30)
    wall.t += 600  # Bob runs into overtime
    g = pass_turn(g)
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    clock.t += 30
    assert b.snapshot("table1")["clock"] == {"left": [575.0, -10.0], "running": 0,
                                             "at": wall.t + 30}


def test_replay_and_gcg_show_only_what_the_delay_released(session, wespa, english):
    clock = Clock()
    b = broadcast.Broadcast(now=clock)
    pm = plugin_manager(extra=[b], entry_points=False)
    with pytest.raises(KeyError):
        b.replay("table1")
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    b.set_delay("table1", 60)
    g = play(g, parse_coord("8D"), "WINDY")
    pm.hook.tilecast_move_recorded(session=session, game=g, turn=g.turns[-1])
    assert len(b.replay("table1")["positions"]) == 1  # only the start is out
    assert "WINDY" not in b.gcg("table1")
    clock.t += 60
    shown = b.replay("table1")
    assert [p["scores"] for p in shown["positions"]] == [[0, 0], [32, 0]]
    assert shown["positions"][1]["placed"] == ["D8", "E8", "F8", "G8", "H8"]
    assert shown["moves"][0]["said"] == "8D WINDY"
    assert "8D WINDY +32 32" in b.gcg("table1")


def test_one_stream_carries_every_boards_events(session, wespa, english):
    b = broadcast.Broadcast(now=Clock())
    pm = plugin_manager(extra=[b], entry_points=False)
    other = SessionInfo("table2", ("Cy", "Di"), "wespa", session.out_dir)
    g = new_game(wespa, english)
    pm.hook.tilecast_session_start(session=session, game=g)
    stream = b.stream_all(["table1", "table2"], keepalive=0.01)
    first = next(stream)
    assert first.startswith("event: snapshot\n") and '"board":"table1"' in first
    pm.hook.tilecast_session_start(session=other, game=g)
    assert next(stream).startswith("event: session-start\n")  # table2, no id: no resuming
    assert next(stream) == ": keepalive\n\n"
    stream.close()
    assert b._feeds["table1"].subscribers == [] and b._feeds["table2"].subscribers == []
