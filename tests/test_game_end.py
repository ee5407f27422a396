"""The record ends the game itself: a play out with the bag empty is settled at once, journaled,
and reaches the hooks and the GCG without an operator's `end`."""

import json
import re

import pytest

from tests.conftest import probs_of, put
from tilecast.engine import game as g
from tilecast.engine.board import Board
from tilecast.engine.tiles import TileSet
from tilecast.events import SessionInfo
from tilecast.hookspecs import hookimpl
from tilecast.observation import Observation
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins import annotation
from tilecast.recorder import Recorder
from tilecast.session import Session

# Twelve tiles: six to a rack and none in the bag, so the game ends within three plays.
SMALL = TileSet(
    "small",
    {"W": 1, "I": 1, "N": 1, "D": 1, "Y": 1, "A": 2, "G": 1, "L": 1, "E": 1, "C": 1, "T": 1},
    {"W": 4, "I": 1, "N": 1, "D": 2, "Y": 4, "A": 1, "G": 2, "L": 1, "E": 1, "C": 3, "T": 1},
)
END_RACK = re.compile(r">Player1: +\(([A-Z?]+)\) \+(\d+) (\d+)")


class Ended:
    def __init__(self):
        self.results = []

    @hookimpl
    def tilecast_game_ended(self, session, game, result):
        self.results.append(result)


def session(tmp_path, rules, spy=None):
    info = SessionInfo("b1", ("Player 1", "Player 2"), "wespa", str(tmp_path))
    pm = plugin_manager([annotation] + ([spy] if spy else []), entry_points=False)
    return Session(info, Recorder(rules, SMALL, None), pm)


def play_out(s):
    """WINDY, GALE, then the first player's last tile: readings of a whole short game."""
    board = put(Board(), "8D", "WINDY")
    s.camera(Observation(probs_of(board), frame=1, time=1.0))
    board = put(board, "7C", "GALE")
    s.camera(Observation(probs_of(board), frame=2, time=2.0))
    assert s.game.phase == g.PLAYING and s.game.rack_sizes == (1, 2) and s.game.bag == 0
    board = put(board, "G9", "A")  # under the D: the first player's one tile; C, T unseen
    s.camera(Observation(probs_of(board), frame=3, time=3.0))


def journal(tmp_path):
    return [json.loads(x) for x in (tmp_path / "b1.journal.jsonl").read_text().splitlines()]


def test_a_play_out_ends_the_game_with_the_rack_bonus_in_hooks_and_gcg(tmp_path, wespa):
    spy = Ended()
    s = session(tmp_path, wespa, spy)
    play_out(s)
    assert s.game.phase == g.OVER
    # WESPA: the player who went out gains twice the opponent's rack, C and T (3 + 1)
    assert s.game.turns[-1].kind == "out" and s.game.turns[-1].tiles == "CT"
    assert s.game.turns[-1].score == 8
    assert len(spy.results) == 1 and spy.results[0].scores == s.game.scores
    assert spy.results[0].winner == 0
    lines = (tmp_path / "b1.gcg").read_text().splitlines()
    end = END_RACK.fullmatch(lines[-1])
    assert end is not None, lines[-1]
    assert (end[1], int(end[2]), int(end[3])) == ("CT", 8, s.game.scores[0])
    ends = [e for e in journal(tmp_path) if e["type"] == "end"]
    assert ends == [{"seq": ends[0]["seq"], "type": "end", "source": "recorder"}]


def test_the_standard_procedure_moves_the_rack_from_one_player_to_the_other(tmp_path, wespa):
    from dataclasses import replace

    s = session(tmp_path, replace(wespa, end_procedure="standard"))
    play_out(s)
    out, rack = s.game.turns[-2:]
    assert (out.kind, out.player, out.score, rack.kind, rack.player, rack.score) == (
        "out", 0, 4, "rack", 1, -4)


def test_a_resumed_session_has_the_same_end_and_journals_it_once(tmp_path, wespa):
    s = session(tmp_path, wespa)
    play_out(s)
    final, lines = s.game, len(journal(tmp_path))
    s.close()
    again = session(tmp_path, wespa)
    assert again.game.scores == final.scores and again.game.phase == g.OVER
    assert len(journal(tmp_path)) == lines


def test_a_crash_before_the_end_was_journaled_ends_the_game_on_resume(tmp_path, wespa):
    s = session(tmp_path, wespa)
    play_out(s)
    final = s.game
    s.close()
    path = tmp_path / "b1.journal.jsonl"
    kept = [x for x in path.read_text().splitlines() if json.loads(x)["type"] != "end"]
    path.write_text("".join(x + "\n" for x in kept))
    again = session(tmp_path, wespa)
    assert again.game.scores == final.scores and again.game.phase == g.OVER
    assert [e["type"] for e in journal(tmp_path)].count("end") == 1


def test_a_clear_play_after_the_records_out_play_goes_on_with_the_game(tmp_path, wespa):
    """The record's count had the first player out (an earlier misread would do that), but
    the camera then clearly reads the second player's CT: the end is undone, the play recorded
    as read with a warning, and the game ends again when that play empties the last rack."""
    s = session(tmp_path, wespa)
    play_out(s)
    board = put(put(put(put(Board(), "8D", "WINDY"), "7C", "GALE"), "G9", "A"), "9G", ".CT")
    s.camera(Observation(probs_of(board), frame=4, time=4.0))
    plays = [(t.player, t.word) for t in s.game.turns if t.kind == "play"]
    assert plays == [(0, "WINDY"), (1, "GALE"), (0, ".A"), (1, ".CT")]
    assert s.game.phase == g.OVER and s.game.turns[-1].kind == "out"
    assert s.game.turns[-1].player == 1
    kinds = [e.get("kind") or e["type"] for e in journal(tmp_path)]
    assert kinds.count("play-after-out") == 1 and kinds.count("end") == 2
    final = s.game
    s.close()
    assert session(tmp_path, wespa).game == final  # the journal resumes to the same record


def test_a_challenge_after_the_end_still_pays_the_out_play(tmp_path, wespa):
    s = session(tmp_path, wespa)
    play_out(s)
    before = s.game.scores
    s.submit({"type": "challenge", "valid": True})
    assert s.game.phase == g.OVER and s.game.scores == (before[0] + 5, before[1])
    assert [t.kind for t in s.game.turns[-3:]] == ["play", "challenge", "out"]


@pytest.mark.parametrize("how", ["operator", "camera"])
def test_a_phony_out_play_taken_back_after_the_end_reopens_the_game(tmp_path, wespa, how):
    s = session(tmp_path, wespa)
    play_out(s)
    if how == "operator":
        s.submit({"type": "challenge", "valid": False})
    else:  # the camera sees the out-play's tile gone again
        board = s.game.board.without([(8, 6)])
        s.camera(Observation(probs_of(board), frame=4, time=4.0))
    assert s.game.phase == g.PLAYING and s.game.turns[-1].kind == "withdraw"
    assert s.game.to_move == 1 and s.game.rack_sizes == (1, 2)


def test_an_operator_end_after_the_records_own_changes_nothing(tmp_path, wespa):
    s = session(tmp_path, wespa)
    play_out(s)
    final = s.game
    s.submit({"type": "end"})
    assert s.game.scores == final.scores and s.game.turns == final.turns


# Twelve tiles, T and A: after TTT and TTT (or TT) the bag is empty and the racks hold the rest.
TA = TileSet("ta", {"T": 6, "A": 6}, {"T": 1, "A": 2})
RACK_LINE = re.compile(r">Player([12]): [A-Z?]* \(([A-Z?]+)\) (-\d+) (-?\d+)")


def scoreless_session(tmp_path, wespa, second):
    """Six passes after 8G TTT and G9 `second`: the scoreless-turn limit, bag empty."""
    spy = Ended()
    info = SessionInfo("b1", ("Player 1", "Player 2"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, TA, None),
                plugin_manager([annotation, spy], entry_points=False))
    s.submit({"type": "play", "coord": "8G", "word": "TTT"})
    s.submit({"type": "play", "coord": "G9", "word": second})
    for _ in range(wespa.scoreless_turns):
        s.submit({"type": "pass"})
    return s, spy


def ended_everywhere(tmp_path, s, spy, racks):
    """The result reached the hook, the GCG (each player's own rack deducted) and the board's
    public state."""
    from tilecast.plugins.broadcast import public_state

    assert s.game.phase == g.OVER and len(spy.results) == 1
    assert spy.results[0] == g.result(s.game)
    deducted = [(t.player, t.tiles, t.score) for t in s.game.turns if t.kind == "rack"]
    assert deducted == [(i, racks[i], -TA.rack_value(racks[i])) for i in (0, 1)]
    lines = (tmp_path / "b1.gcg").read_text().splitlines()
    found = [RACK_LINE.fullmatch(x) for x in lines if RACK_LINE.fullmatch(x)]
    assert [(int(m[1]) - 1, m[2], int(m[3]), int(m[4])) for m in found] == [
        (i, racks[i], -TA.rack_value(racks[i]), s.game.scores[i]) for i in (0, 1)]
    state = public_state(s.info, s.game)
    assert state["phase"] == g.OVER and state["result"]["scores"] == list(s.game.scores)


def test_six_scoreless_turns_end_the_game_when_the_tile_count_gives_the_racks(tmp_path, wespa):
    s, spy = scoreless_session(tmp_path, wespa, "TTT")  # the six tiles left are all A
    ended_everywhere(tmp_path, s, spy, ("AAA", "AAA"))
    ends = [e for e in journal(tmp_path) if e["type"] == "end"]
    assert [(e["racks"], e["source"]) for e in ends] == [(["AAA", "AAA"], "recorder")]
    assert not [e for e in journal(tmp_path) if e.get("kind") == "scoreless-end"]
    final, lines = s.game, len(journal(tmp_path))
    s.close()
    again = Session(s.info, Recorder(wespa, TA, None), plugin_manager(entry_points=False))
    assert again.game.turns == final.turns and len(journal(tmp_path)) == lines


def test_six_scoreless_turns_ask_for_racks_the_tile_count_cannot_split(tmp_path, wespa):
    s, spy = scoreless_session(tmp_path, wespa, "TT")  # AAAAAAT left: whose is the T?
    assert s.game.phase == g.SCORELESS and spy.results == []
    assert [e["kind"] for e in journal(tmp_path) if e["type"] == "alert"] == ["scoreless-end"]
    s.submit({"type": "end", "racks": ["AAA", "AAAT"]})
    ended_everywhere(tmp_path, s, spy, ("AAA", "AAAT"))
