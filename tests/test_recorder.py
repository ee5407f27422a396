"""The recorder: entries applied to the record, corrections recomputing every score, blanks
named, announced scores and slips checked, malformed input refused."""

import pytest

from tests.conftest import camera, probs_of, put, recorder
from tilecast.engine.board import Board
from tilecast.engine.lexicon import Lexicon
from tilecast.recorder import InputError


def test_corrections_recompute_every_score(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    camera(rec, probs_of(put(put(Board(), "8D", "WINDY"), "7C", "GALE")))
    notes = rec.apply(
        {
            "type": "correct",
            "op": "insert",
            "index": 1,
            "action": {"type": "pass"},
            "reason": "missed pass",
        }
    )
    assert [n[0] for n in notes] == ["record_changed"]
    assert rec.game.scores == (48, 0)  # GALE now belongs to the first player
    with pytest.raises(InputError):
        rec.apply({"type": "correct", "op": "replace", "index": 9, "action": {"type": "pass"}})


def test_blank_letter_asked_when_the_lexicon_cannot_decide(english, wespa):
    rec = recorder(english, wespa, Lexicon(["WINDY", "WE", "WO"]))
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    notes = camera(rec, probs_of(rec.game.board, {(8, 3): {"?": 1.0}}))  # a blank under the W
    assert [n[0] for n in notes] == ["move_recorded", "blank_needs_letter"]
    args = notes[1][1]
    assert (args["square"], args["options"], args["turn_index"]) == ("D9", ["E", "O"], 1)
    assert rec.game.turns[-1].word == ".e"  # the first option stands until the operator says
    rec.apply({"type": "blank", "index": 1, "letters": "O"})
    assert rec.game.turns[-1].word == ".o" and rec.game.scores == (32, 4)


def test_announced_score_and_results_slip_are_checked(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    assert rec.apply({"type": "announce", "score": 32}) == []
    ((hook, args),) = rec.apply({"type": "announce", "score": 34})
    assert hook == "alert" and args["alert"].data == {"announced": 34, "computed": 32, "player": 0}
    ((hook, args),) = rec.apply({"type": "slip", "scores": [30, 0]})
    assert args["alert"].kind == "slip-discrepancy"


def test_unknown_or_malformed_input_is_refused(english, wespa):
    rec = recorder(english, wespa)
    with pytest.raises(InputError, match="unknown event type"):
        rec.apply({"type": "jump"})
    with pytest.raises(InputError):
        rec.apply({"type": "withdraw"})
    assert rec.actions == []


def test_an_operator_edit_of_the_last_play_keeps_the_reading_that_recorded_it(english, wespa):
    # Bob's aW recorded; the operator names its blank; Ann's N, doubtful in the next reading
    # and clear in the one after, is Ann's play, not part of Bob's.
    rec = recorder(english, wespa)
    first = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(first))
    aw = put(first, "D7", "a.")
    camera(rec, probs_of(aw))
    rec.apply({"type": "blank", "index": 1, "letters": "A"})
    naw = put(aw, "D6", "N")
    camera(rec, probs_of(naw, {(5, 3): {"N": 0.6, ".": 0.3, "M": 0.1}}))
    notes = camera(rec, probs_of(naw))
    assert "record_changed" not in [n[0] for n in notes]
    assert [(t.player, t.word) for t in rec.game.turns][1] == (1, "a.")
