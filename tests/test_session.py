"""The session: journal before plugins, resume, and each committed reading's entries (several
plays in one reading, refused moves, alerts told once across restarts)."""

import numpy as np
import pytest

from tests.conftest import FIX, LEX, probs_of, put, recorder
from tilecast.engine.board import Board
from tilecast.events import SessionInfo
from tilecast.hookspecs import hookimpl
from tilecast.observation import Observation
from tilecast.pluginmanager import plugin_manager
from tilecast.recorder import Recorder
from tilecast.session import Session, SessionClosed
from tilecast.vision.stillness import StillConfig, StillnessGate


class Spy:
    def __init__(self, journal_path):
        self.path, self.seen = journal_path, []

    @hookimpl
    def tilecast_move_recorded(self, session, game, turn):
        # the journal already holds the move when plugins hear of it
        self.seen.append((turn.word, self.path.read_text().count('"type":"play"')))


def _after_windy(tmp_path, english, wespa) -> Session:
    """A session whose camera has read Ann's first play, WINDY at 8D."""
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    s.camera(Observation(probs_of(put(Board(), "8D", "WINDY")), frame=1, time=1.0))
    return s


class Broken:
    @hookimpl
    def tilecast_move_recorded(self, turn):
        raise RuntimeError("plugin bug")


def test_session_journals_before_plugins_and_resumes(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    spy = Spy(tmp_path / "b1.journal.jsonl")
    pm = plugin_manager([Broken(), spy], entry_points=False)
    s = Session(info, Recorder(wespa, english, LEX), pm)
    s.camera(Observation(probs_of(put(Board(), "8D", "WINDY")), frame=10, time=1.0))
    s.submit({"type": "pass"})
    assert spy.seen == [("WINDY", 1), ("", 1)]  # the pass is a recorded move too
    s.journal.close()
    again = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    assert again.game.scores == (32, 0) and again.game.to_move == 0
    assert again.resume_frame == 10


def test_an_entry_after_the_session_ends_is_refused_and_changes_nothing(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    s.submit({"type": "pass"})
    s.close()
    with pytest.raises(SessionClosed, match="board b1: the run has ended, so nothing was"):
        s.submit({"type": "pass"})
    assert len(s.game.turns) == 1  # the record did not take the refused pass either
    assert (tmp_path / "b1.journal.jsonl").read_text().count('"type":"pass"') == 1


def test_an_operators_play_not_in_the_lexicon_is_alerted_once(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    s.submit({"type": "play", "coord": "8D", "word": "WINDY", "source": "operator"})
    s.submit({"type": "play", "coord": "E7", "word": "AIX", "source": "operator"})
    s.submit({"type": "play", "coord": "H5", "word": "AWAY", "source": "camera"})  # interpret's
    alerts = [e for e in s.journal.entries if e["type"] == "alert"]
    assert [(a["kind"], a["turn"], a["message"]) for a in alerts] == [
        ("phony", 1, "E7 AIX: not in the lexicon (AIX), as the operator entered it")]
    s.close()
    again = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    assert len(again.journal.entries) == 4  # resumed: nothing raised a second time
    assert again.recorder.doubted is None


def test_annotating_a_video_that_ends_soon_after_the_last_play_records_it(tmp_path, english,
                                                                          wespa, capsys):
    from tilecast.vision.reader import Reading
    from tilecast.watch import watch

    windy = probs_of(put(Board(), "8D", "WINDY"))
    shown = [(probs_of(Board()), 1.0)] * 6 + [(windy, 30.0)] + [(windy, 1.0)] * 4  # then it ends

    class Replay:  # the reader's readings of a video, scripted
        def read(self, frame):
            probs, motion = shown[frame]
            return Reading(probs, motion, np.float32(FIX), 0, False, 0, np.float32(FIX),
                           np.arange(225))

    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    frames = [(i, i * 0.2, i) for i in range(len(shown))]
    watch(s, Replay(), frames, StillnessGate(StillConfig(still_s=1.0)), total=len(frames),
          progress=True)
    assert [t.word for t in s.game.turns] == ["WINDY"]
    shown_progress = capsys.readouterr().err
    assert "  9% frame 1/11" in shown_progress and "100% frame 11/11" in shown_progress


def test_a_board_too_small_in_the_frame_is_alerted_once_and_still_read(tmp_path, english,
                                                                       wespa, capsys):
    from tilecast.vision.reader import Reading
    from tilecast.watch import watch

    windy = probs_of(put(Board(), "8D", "WINDY"))
    far = np.float32(FIX) / 5  # squares 8 pixels wide

    class Far:  # a camera too far from the board, scripted
        def read(self, frame):
            return Reading(windy, 0.0, far, 0, False, 0, far, np.arange(225))

    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    frames = [(i, i * 0.2, i) for i in range(10)]
    for _ in range(2):  # the second run resumes the first's journal
        s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
        watch(s, Far(), frames, StillnessGate(StillConfig(still_s=1.0)))
        s.close()
    alerts = [e for e in s.journal.entries if e["type"] == "alert"]
    assert [(a["kind"], a["severity"]) for a in alerts] == [("camera-resolution", "warning")]
    assert "only 8.0 pixels wide" in alerts[0]["message"]
    assert capsys.readouterr().err.count("tilecast: warning: the board's squares") == 1
    assert [t.word for t in s.game.turns] == ["WINDY"]  # read all the same


def test_a_camera_move_the_record_refuses_becomes_an_alert_not_a_crash(
    tmp_path, english, wespa, monkeypatch
):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    refused = {"type": "play", "source": "camera", "time": 2.0, "coord": "8D", "word": "WIN.Y"}
    monkeypatch.setattr(s.recorder, "interpret",
                        lambda probs, time, follow_on, emptied, memory: ([refused], memory))
    s.camera(Observation(probs_of(Board()), frame=3, time=2.0))
    kinds = [(e["type"], e.get("kind")) for e in s.journal.entries]
    assert kinds == [("alert", "unrecorded-move"), ("board", None)]
    assert "8D WIN.Y" in s.journal.entries[0]["message"]
    assert s.game.turns == ()


def test_two_plays_run_together_in_one_reading_are_both_recorded(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    both = put(put(Board(), "8D", "WINDY"), "D7", "A.E")  # no still moment between them
    s.camera(Observation(probs_of(both), frame=5, time=3.0))
    assert [(t.player, t.word) for t in s.game.turns] == [(0, "WINDY"), (1, "A.E")]
    # ... but a doubtful second play is left for a later, clearer reading
    s2 = Session(
        SessionInfo("b2", ("Ann", "Bob"), "wespa", str(tmp_path)),
        Recorder(wespa, english, LEX),
        plugin_manager(entry_points=False),
    )
    s2.camera(Observation(probs_of(both, {(6, 3): {"A": 0.7, ".": 0.3}}), frame=5, time=3.0))
    assert [t.word for t in s2.game.turns] == ["WINDY"]


def test_a_disturbance_alerted_before_a_restart_is_not_alerted_again(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    first = put(Board(), "8D", "WINDY")
    s.camera(Observation(probs_of(first), frame=1, time=1.0))
    s.camera(Observation(probs_of(put(first, "G7", "A.")), frame=2, time=2.0))
    s.camera(Observation(probs_of(put(first, "G7", "A.").without([(7, 3)])), frame=3, time=3.0))
    kinds = [e.get("kind") for e in s.journal.entries if e["type"] == "alert"]
    assert kinds == ["board-disturbed"]
    s.journal.close()
    again = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    again.camera(Observation(probs_of(put(first, "G7", "A.").without([(7, 3)])), frame=4, time=4.0))
    kinds = [e.get("kind") for e in again.journal.entries if e["type"] == "alert"]
    assert kinds == ["board-disturbed"]  # the resumed run knows it was told


def test_an_illegal_play_alerted_before_a_restart_is_not_alerted_again(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    off_centre = put(Board(), "1A", "WINDY")  # the first play misses the centre square
    s.camera(Observation(probs_of(off_centre), frame=1, time=1.0))
    s.camera(Observation(probs_of(off_centre), frame=2, time=2.0))
    kinds = [e.get("kind") for e in s.journal.entries if e["type"] == "alert"]
    assert kinds == ["illegal-play"]
    s.journal.close()
    again = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    again.camera(Observation(probs_of(off_centre), frame=3, time=3.0))
    kinds = [e.get("kind") for e in again.journal.entries if e["type"] == "alert"]
    assert kinds == ["illegal-play"]


@pytest.mark.parametrize("first", ["GALE", "A"])
def test_two_plays_seen_in_one_reading_are_recorded_in_the_order_laid(tmp_path, english, wespa,
                                                                     first):
    s = _after_windy(tmp_path, english, wespa)
    windy = s.game.board
    both = put(put(windy, "9A", "GALE"), "G7", "A")  # GALE (with WE) and A (making AD)
    emptied = np.full(225, 1.0)
    gale = [8 * 15 + c for c in range(4)]
    emptied[gale if first == "A" else [6 * 15 + 6]] = 5.0  # laid later
    s.camera(Observation(probs_of(both), frame=2, time=6.0, emptied=emptied))
    words = [t.word for t in s.game.turns]
    assert words == ["WINDY", "GALE", "A."] if first == "GALE" else ["WINDY", "A.", "GALE"]


@pytest.mark.parametrize("last_empty", [2.0, 5.5])
def test_a_play_read_only_after_the_next_one_is_inserted_before_it(tmp_path, english, wespa,
                                                                    last_empty):
    """Bob lays A on G7 (making AD); the camera reads it as a doubtful Z and records nothing.
    Ann lays GALE, recorded as Bob's, with G7 left out. Then the A reads clearly. Its square
    was last seen empty at 2.0, before GALE's squares (5.0): Bob's A goes in before GALE, by a
    journaled correction, and GALE is Ann's. Last seen empty at 5.5, after GALE's squares, the
    A was laid after GALE: it is the next play."""
    s = _after_windy(tmp_path, english, wespa)
    windy = s.game.board
    doubtful = {(6, 6): {"Z": 0.5, "A": 0.05, ".": 0.45}}
    emptied = np.full(225, 0.5)
    s.camera(Observation(probs_of(put(windy, "G7", "A"), doubtful), frame=2, time=3.0,
                         emptied=emptied))
    assert [t.word for t in s.game.turns] == ["WINDY"]
    both = put(put(windy, "G7", "A"), "9A", "GALE")
    s.camera(Observation(probs_of(both, doubtful), frame=3, time=6.0, emptied=emptied))
    assert [(t.player, t.word) for t in s.game.turns] == [(0, "WINDY"), (1, "GALE")]
    emptied = np.full(225, 8.5)  # the empty squares, seen empty just now
    emptied[[7 * 15 + c for c in range(3, 8)]] = 0.5  # WINDY
    emptied[[8 * 15 + c for c in range(4)]] = 5.0  # GALE
    emptied[6 * 15 + 6] = last_empty  # the A
    s.camera(Observation(probs_of(both), frame=4, time=9.0, emptied=emptied))
    played = [(t.player, t.word) for t in s.game.turns]
    kinds = [e.get("kind") for e in s.journal.entries if e["type"] == "alert"]
    if last_empty < 5.0:
        assert played == [(0, "WINDY"), (1, "A."), (0, "GALE")]
        assert "play-inserted" in kinds and s.game.scores == (43, 4)
    else:
        assert played == [(0, "WINDY"), (1, "GALE"), (0, "A.")]
        assert "play-inserted" not in kinds


@pytest.mark.parametrize("now", ["S", "A"])
def test_a_steady_misreading_in_line_with_a_play_does_not_run_into_it(tmp_path, english, wespa,
                                                                       now):
    """E9 has read as an S since before the first play and never as surely empty (print at
    the board's edge, say). GALE laid on 9A ends beside it: GALE is recorded, not the phony
    GALES. Read now as another letter than before, E9 is no steady misreading: a tile may
    have been laid on it: GALEA is recorded, a phony, as read."""
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    stray = {(8, 4): {"S": 1.0}}
    emptied = np.full(225, 0.5)
    emptied[8 * 15 + 4] = -np.inf
    windy = put(Board(), "8D", "WINDY")
    s.camera(Observation(probs_of(windy, stray), frame=1, time=1.0, emptied=emptied))
    assert [t.word for t in s.game.turns] == ["WINDY"]
    emptied[[8 * 15 + c for c in range(4)]] = 5.0
    s.camera(Observation(probs_of(put(windy, "9A", "GALE"), {(8, 4): {now: 1.0}}),
                         frame=2, time=6.0, emptied=emptied))
    words = [t.word for t in s.game.turns]
    assert words == ["WINDY", "GALE"] if now == "S" else words == ["WINDY", "GALEA"]


def test_a_misreading_seen_empty_once_before_two_plays_is_steady_too(tmp_path, english, wespa):
    """E9 read as empty once, at 0.2 s, then as an S through WINDY and A (making AD): it
    stood through two recorded plays, so it is no tile of GALE, laid beside it next, nor a
    play of its own."""
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    stray = {(8, 4): {"S": 1.0}}
    emptied = np.full(225, 0.5)
    emptied[8 * 15 + 4] = 0.2
    windy = put(Board(), "8D", "WINDY")
    s.camera(Observation(probs_of(windy, stray), frame=1, time=1.0, emptied=emptied))
    emptied[6 * 15 + 6] = 2.5
    ad = put(windy, "G7", "A")
    s.camera(Observation(probs_of(ad, stray), frame=2, time=3.0, emptied=emptied))
    emptied[[8 * 15 + c for c in range(4)]] = 5.0
    s.camera(Observation(probs_of(put(ad, "9A", "GALE"), stray), frame=3, time=6.0,
                         emptied=emptied))
    assert [t.word for t in s.game.turns] == ["WINDY", "A.", "GALE"]
    # read alone, it is still no play (a misreading given a turn would give every later
    # play to the wrong player)
    s.camera(Observation(probs_of(put(ad, "9A", "GALE"), stray), frame=4, time=9.0,
                         emptied=emptied))
    assert [t.word for t in s.game.turns] == ["WINDY", "A.", "GALE"]


def test_a_resumed_run_knows_which_alerted_tiles_came_back(tmp_path, english, wespa):
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    windy = put(Board(), "8D", "WINDY")
    s.camera(Observation(probs_of(windy), frame=1, time=1.0))
    # the Y missing: alerted
    s.camera(Observation(probs_of(windy.without([(7, 7)])), frame=2, time=2.0))
    s.camera(Observation(probs_of(windy), frame=3, time=3.0))  # and back
    s.camera(Observation(probs_of(put(windy, "9A", "GALE")), frame=4, time=4.0))
    s.journal.close()
    again = Session(info, Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    # GALE taken off and the Y missing again: not a clean withdrawal, a disturbance
    again.camera(Observation(probs_of(windy.without([(7, 7)])), frame=5, time=5.0))
    kinds = [(e["type"], e.get("kind")) for e in again.journal.entries[-2:]]
    assert kinds == [("alert", "board-disturbed"), ("board", None)]
    assert [t.word for t in again.game.turns] == ["WINDY", "GALE"]


def test_a_second_play_in_one_reading_needs_every_square_read_as_a_tile(tmp_path, english,
                                                                        wespa):
    s = _after_windy(tmp_path, english, wespa)
    windy = s.game.board
    both = put(put(windy, "9A", "GALE"), "G7", "A")
    emptied = np.full(225, 1.0)
    emptied[[8 * 15 + c for c in range(4)]] = 5.0  # GALE laid after the A
    s.camera(Observation(probs_of(both, {(8, 1): {"?": 0.15, ".": 0.85}}), frame=2, time=6.0,
             emptied=emptied))
    assert [t.word for t in s.game.turns] == ["WINDY", "A."]  # GaLE waits for a clearer look


def test_the_next_play_after_a_completed_one_is_read_in_the_same_reading(tmp_path, english,
                                                                         wespa):
    s = Session(SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path)),
                Recorder(wespa, english, LEX), plugin_manager(entry_points=False))
    first = put(Board(), "8D", "WINDY")
    s.camera(Observation(probs_of(first), frame=1, time=1.0))
    laid = put(first, "D6", "NA.")
    doubtful_n = {(5, 3): {"N": 0.6, ".": 0.3, "M": 0.1}}
    s.camera(Observation(probs_of(laid, doubtful_n), frame=2, time=2.0))
    assert [t.word for t in s.game.turns] == ["WINDY", "A."]  # N doubtful: a stray
    # Next: the N read clearly and, run together with it, Ann's AD down from 7G.
    s.camera(Observation(probs_of(put(laid, "G7", "A.")), frame=3, time=3.0))
    assert [(t.player, t.word) for t in s.game.turns] == [(0, "WINDY"), (1, "NA."), (0, "A.")]


def test_a_seeded_misreading_held_over_a_turn_costs_no_play(tmp_path, english, wespa):
    """A hand at the board's edge read as the tiles of a play (AD at 9E) while the next play
    is made: the record gives it a turn, so GALE goes to the wrong player. Once readings show
    its squares empty, a journaled correction deletes it and every play is back with its
    player and score, as in the game read without the misreading."""
    windy = put(Board(), "8D", "WINDY")
    gale = put(windy, "7C", "GALE")
    awe = put(gale, "D7", "AWE")  # an E under GALE's A and WINDY's W

    def session(name):
        return Session(SessionInfo(name, ("A", "B"), "wespa", str(tmp_path / name)),
                       recorder(english, wespa), plugin_manager(entry_points=False))

    clean, seeded = session("clean"), session("seeded")
    for board in (windy, gale, awe):
        clean.camera(Observation(probs_of(board), 0, 1.0))
    for board in (windy, put(windy, "9E", "AD"), put(gale, "9E", "AD"), gale, awe):
        seeded.camera(Observation(probs_of(board), 0, 1.0))
    assert [(t.player, t.word, t.score) for t in seeded.game.turns] == [
        (t.player, t.word, t.score) for t in clean.game.turns]
    assert seeded.game.scores == clean.game.scores
    kinds = [e.get("kind") or e["type"] for e in seeded.journal.entries]
    assert "play-deleted" in kinds and "correct" in kinds  # journaled, and the TD told


@pytest.mark.parametrize("misread", [("G7", "A."), ("D7", "A.")])
def test_a_seeded_misreading_gone_by_the_next_reading_costs_no_play(tmp_path, english, wespa,
                                                                     misread):
    """A hand over the board read as a lone A (AD above WINDY's D, or AW above its W) right
    after WINDY: the record gives it the second player's turn, and the next reading shows
    the square empty. Its words are in the lexicon and were read as recorded, so no challenge
    took it off: a journaled correction deletes it rather than a withdrawal costing that
    player the turn, and every later play stays with its player and score."""
    windy = put(Board(), "8D", "WINDY")
    gale = put(windy, "7C", "GALE")
    awe = put(gale, "D7", "A.E")

    def session(name):
        return Session(SessionInfo(name, ("A", "B"), "wespa", str(tmp_path / name)),
                       Recorder(wespa, english, LEX), plugin_manager(entry_points=False))

    clean, seeded = session("clean"), session("seeded")
    for board in (windy, gale, awe):
        clean.camera(Observation(probs_of(board), 0, 1.0))
    for board in (windy, put(windy, *misread), windy, gale, awe):
        seeded.camera(Observation(probs_of(board), 0, 1.0))
    assert [(t.player, t.word, t.score) for t in seeded.game.turns] == [
        (t.player, t.word, t.score) for t in clean.game.turns]
    kinds = [e.get("kind") or e["type"] for e in seeded.journal.entries]
    assert "play-deleted" in kinds and "correct" in kinds and "withdraw" not in kinds
    # ... and the journal resumes to the same record
    seeded.journal.close()
    again = session("seeded")
    assert again.game.turns == seeded.game.turns


def test_the_play_in_a_reading_that_corrects_the_record_is_read_as_any_play(tmp_path, english,
                                                                           wespa):
    s = _after_windy(tmp_path, english, wespa)
    windy = s.game.board
    s.camera(Observation(probs_of(put(windy, "G7", "A.")), frame=2, time=2.0))  # a misreading
    s.camera(Observation(probs_of(put(put(windy, "G7", "A."), "H8", ".E")), frame=3, time=3.0))
    assert [t.word for t in s.game.turns] == ["WINDY", "A.", ".E"]
    # AD's tile is gone while YE stands: AD is deleted, and AWE, with a doubtful square
    # elsewhere (no sure play to follow another), is read in the same reading
    now = put(put(windy, "H8", ".E"), "D7", "A.E")
    s.camera(Observation(probs_of(now, {(12, 12): {"O": 0.55, ".": 0.35, "A": 0.1}}), frame=4,
                         time=4.0))
    assert [(t.player, t.word) for t in s.game.turns] == [(0, "WINDY"), (1, ".E"), (0, "A.E")]
