"""The broadcast plugin (plugins/broadcast.py): the public board state, numbered and delayed
events, subscribers and the stream."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.conftest import (
    Clock,
    opening,
    scoreless_end,
)
from tilecast.engine.board import parse_coord
from tilecast.engine.game import (
    Game,
    exchange,
    new_game,
    pass_turn,
    play,
    result,
    time_penalty,
)
from tilecast.engine.selfplay import self_play
from tilecast.events import SessionInfo
from tilecast.lexicons import load_lexicon
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins import broadcast


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
