"""Camera readings interpreted against the record (tilecast.interpret): which play, withdrawal,
amendment or alert each committed reading gives."""

import pytest

from tests.conftest import LEX, camera, probs_of, put, recorder
from tilecast.engine import game as g
from tilecast.engine.board import Board
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.tiles import Tile, TileSet
from tilecast.recorder import Recorder


def test_camera_reading_becomes_a_scored_play(english, wespa):
    rec = recorder(english, wespa)
    notes = camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    assert [n[0] for n in notes] == ["move_recorded"]
    assert rec.game.scores == (32, 0) and rec.game.turns[-1].word == "WINDY"
    assert camera(rec, probs_of(rec.game.board)) == []  # same board again: no move


def test_removed_last_play_is_a_withdrawal_and_older_tiles_an_alert(english, wespa):
    rec = recorder(english, wespa)
    first = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(first))
    camera(rec, probs_of(put(first, "7C", "GALE")))
    assert rec.game.scores == (32, 16)
    notes = camera(rec, probs_of(first))
    assert [n[0] for n in notes] == ["move_withdrawn"] and rec.game.scores == (32, 0)
    disturbed = first.without([(7, 3)])
    notes = camera(rec, probs_of(disturbed))
    assert [n[0] for n in notes] == ["alert"]
    assert notes[0][1]["alert"].kind == "board-disturbed"
    assert camera(rec, probs_of(disturbed)) == []  # the same disturbance is not re-alerted
    assert rec.game.scores == (32, 0)  # history is never rewritten silently
    # ... and the game goes on being recorded: the next play is read as usual
    notes = camera(rec, probs_of(put(disturbed, "G7", "A.")))
    assert [n[0] for n in notes] == ["move_recorded"] and rec.game.turns[-1].word == "A."


def test_blank_letter_recorded_when_only_one_fits(english, wespa):
    rec = recorder(english, wespa, Lexicon(["WINDY", "WE"]))
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    notes = camera(rec, probs_of(rec.game.board, {(8, 3): {"?": 1.0}}))
    assert [n[0] for n in notes] == ["move_recorded"] and rec.game.turns[-1].word == ".e"


def test_a_blank_in_a_word_the_lexicon_lacks_gets_the_likeliest_letter(english, wespa):
    rec = recorder(english, wespa, Lexicon(["QUIT", "QUAD", "QUOTA", "STOP", "CROP"]))
    seen = put(Board(), "8G", "QuOP")  # QUOP: a word of another lexicon
    notes = camera(rec, probs_of(seen))
    assert [n[0] for n in notes] == ["alert", "move_recorded", "blank_needs_letter"]
    assert rec.game.turns[-1].word == "QuOP"  # not QaOP: the operator is asked all the same
    assert notes[2][1]["options"] == []


def test_stray_readings_away_from_the_play_do_not_hide_it(english, wespa):
    rec = recorder(english, wespa)
    seen = put(Board(), "8D", "WINDY")
    # a cut-off corner of the frame reads as two tiles far from the play
    notes = camera(rec, probs_of(seen, {(0, 0): {"?": 0.9, ".": 0.1}, (2, 1): {"A": 0.8}}))
    assert [n[0] for n in notes] == ["alert", "move_recorded"]
    assert notes[0][1]["alert"].kind == "stray-tiles" and "A1 B3" in notes[0][1]["alert"].message
    assert rec.game.turns[-1].word == "WINDY" and rec.game.scores == (32, 0)


def test_a_clear_play_of_more_tiles_than_the_record_leaves_the_rack_is_recorded_as_read(
        english, wespa):
    """The end game: the record leaves the player three tiles (an earlier play recorded with
    a phantom tile, say), the camera clearly reads WINDY. Recorded as read, flagged and with a
    warning, as a letter past the set's count is; dropped, the game could not end. A phony or
    a doubtful tile is no such evidence: not recorded."""
    from dataclasses import replace

    from tilecast.engine.board import parse_coord

    for lexicon, doubt, recorded in ((LEX, {}, True), (Lexicon(["WIND"]), {}, False),
                                     (LEX, {(7, 4): {"I": 0.8, ".": 0.2}}, False)):
        rec = recorder(english, wespa, lexicon)
        rec.game = replace(rec.game, rack_sizes=(3, 7), bag=0)
        entries, _ = rec.interpret(probs_of(put(Board(), "8D", "WINDY"), doubt).tolist(), 1.0)
        kinds = [(e["type"], e.get("kind")) for e in entries]
        if recorded:
            assert kinds == [("alert", "too-many-tiles"), ("play", None)]
            assert "5 new tiles" in entries[0]["message"] and entries[-1]["uncounted"]
            after = g.play(rec.game, parse_coord("8D"), "WINDY", counted=False)
            assert after.rack_sizes == (0, 7) and after.phase == g.OUT  # the play went out
        else:
            assert ("play", None) not in kinds


def test_a_doubtful_tile_read_in_line_with_a_word_is_stray_not_a_phony(english, wespa):
    rec = recorder(english, wespa)
    seen = put(Board(), "8D", "WINDY")
    # the square before W (C8) shows the side of the W tile: half read as an S
    notes = camera(rec, probs_of(seen, {(7, 2): {"S": 0.55, ".": 0.45}}))
    assert [n[0] for n in notes] == ["alert", "move_recorded"]
    assert notes[0][1]["alert"].kind == "stray-tiles" and "C8" in notes[0][1]["alert"].message
    assert rec.game.turns[-1].word == "WINDY"


def test_a_plain_square_half_read_as_a_blank_is_a_plain_square(english, wespa):
    rec = recorder(english, wespa)
    seen = put(Board(), "8D", "WINDY")
    doubtful = {(7, 2): {"?": 0.6, ".": 0.4}, (3, 3): {"?": 0.7, ".": 0.3}}
    notes = camera(rec, probs_of(seen, doubtful))
    assert [n[0] for n in notes] == ["move_recorded"]  # blanks are rare: these are empty
    assert rec.game.turns[-1].word == "WINDY"


def test_a_clearly_read_phony_is_still_recorded_as_read(english, wespa):
    rec = recorder(english, wespa)
    notes = camera(rec, probs_of(put(Board(), "8D", "WINDS")))  # not in LEX
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["phony"]
    assert rec.game.turns[-1].word == "WINDS"


def test_a_clear_phony_beats_a_valid_word_read_from_unlikely_letters(english, wespa):
    rec = recorder(english, wespa)
    seen = put(Board(), "8G", "CAD")  # not in LEX; CAT is, if D were read as T
    notes = camera(rec, probs_of(seen, {(7, 8): {"D": 0.999, "T": 0.001}}))
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["phony"]
    assert rec.game.turns[-1].word == "CAD"
    rec = recorder(english, wespa)
    notes = camera(rec, probs_of(seen, {(7, 8): {"D": 0.6, "T": 0.4}}))  # doubtful: mended
    assert rec.game.turns[-1].word == "CAT" and not [n for n in notes if n[0] == "alert"]


def test_a_phony_is_recorded_with_the_fewest_phony_words_its_letters_allow(english, wespa):
    # No letters make every word sound. Read as K, the doubtful tile makes two phonies (KH
    # and CK); read as H, its second choice, only HH is one, CH and AH being words.
    rec = recorder(english, wespa, Lexicon(["CAT", "CH", "AH"]))
    camera(rec, probs_of(put(Board(), "8G", "CAT")))
    seen = put(rec.game.board, "9G", "HH")
    notes = camera(rec, probs_of(seen, {(8, 6): {"K": 0.7, "H": 0.3}}))
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["phony"]
    assert rec.game.turns[-1].word == "HH"


def test_a_lone_blank_beside_the_board_does_not_outweigh_the_real_play(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    after = put(rec.game.board, "D7", "A.E")  # AWE down through the W
    # G7, above the D, reads as a blank (it would make AD): likelier than the A itself
    doubtful = {(6, 3): {"A": 0.8, "R": 0.2}, (6, 6): {"?": 0.97, ".": 0.03}}
    notes = camera(rec, probs_of(after, doubtful))
    assert rec.game.turns[-1].word == "A.E"
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["stray-tiles"]


def test_a_doubtful_lone_blank_is_no_play_but_a_clear_one_is(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    # G7 above the D: a blank there makes AD; read doubtfully, it is a plain square's misreading
    assert camera(rec, probs_of(rec.game.board, {(6, 6): {"?": 0.85, ".": 0.15}})) == []
    assert len(rec.game.turns) == 1
    notes = camera(rec, probs_of(rec.game.board, {(6, 6): {"?": 0.999, ".": 0.001}}))
    assert [n[0] for n in notes] == ["move_recorded"]
    assert rec.game.turns[-1].word == "a."


def test_a_tile_knocked_aside_is_a_disturbance_not_a_play(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    knocked = put(rec.game.board.without([(7, 7)]), "H9", "Y")  # the Y slid down a square
    notes = camera(rec, probs_of(knocked))
    assert [(n[0], n[1]["alert"].kind) for n in notes] == [("alert", "board-disturbed")]
    assert "tiles moved" in notes[0][1]["alert"].message and len(rec.game.turns) == 1


def test_a_recorded_blank_read_doubtfully_is_still_there(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    camera(rec, probs_of(put(rec.game.board, "G7", "a.")))  # a lone blank: aD
    assert rec.game.turns[-1].word == "a."
    doubtful = {(6, 6): {"?": 0.5, ".": 0.35, "A": 0.15}}
    assert camera(rec, probs_of(rec.game.board, doubtful)) == []  # not withdrawn, not gone


def test_a_clear_stray_far_along_the_row_does_not_block_the_play(english, wespa):
    rec = recorder(english, wespa)
    seen = put(Board(), "8D", "WINDY")
    notes = camera(rec, probs_of(seen, {(7, 13): {"E": 0.95, ".": 0.05}}))  # N8, far off
    assert rec.game.turns[-1].word == "WINDY"
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["stray-tiles"]


def test_a_blank_read_as_its_square_inside_a_play_is_filled_in(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    seen = put(rec.game.board, "9A", "GALE")  # E under the W makes WE
    camera(rec, probs_of(seen, {(8, 1): {"?": 0.15, ".": 0.85}}))  # the blank a looks empty
    assert (str(rec.game.turns[-1].coord), rec.game.turns[-1].word) == ("9A", "GaLE")
    assert len(rec.game.turns) == 2


def test_sure_tiles_off_the_play_make_it_less_likely_than_one_that_takes_them(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    seen = put(rec.game.board, "9A", "GALE")
    # E alone (WE) would leave G and L, surely tiles, as strays; GALE with an unsure A is better
    camera(rec, probs_of(seen, {(8, 1): {"A": 0.3, ".": 0.7}}))
    assert rec.game.turns[-1].word == "GALE"


def test_a_blank_read_as_its_square_between_a_play_and_the_board_is_filled_in(english, wespa):
    rec = recorder(english, wespa, Lexicon(["WINDY", "GNAW"]))
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    seen = put(rec.game.board, "D5", "GNAW")  # G N A over the W of WINDY
    camera(rec, probs_of(seen, {(6, 3): {"?": 0.15, ".": 0.85}}))  # the blank a looks empty
    assert (str(rec.game.turns[-1].coord), rec.game.turns[-1].word) == ("D5", "GNa.")


def test_a_recorded_blank_that_looks_like_its_square_is_not_a_disturbance(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    camera(rec, probs_of(put(rec.game.board, "9A", "GaLE")))
    looks_empty = {(8, 1): {"?": 0.1, ".": 0.9}}
    assert camera(rec, probs_of(rec.game.board, looks_empty)) == []
    surely_gone = {(8, 1): {"?": 0.01, ".": 0.99}}
    notes = camera(rec, probs_of(rec.game.board, surely_gone))
    assert [n[1]["alert"].kind for n in notes] == ["board-disturbed"]


def test_a_blank_the_lexicon_filled_in_is_not_gone_when_a_tile_is_laid_beside_it(
        english, wespa):
    """AWE's blank above the W was never told from its square: the lexicon filled it in. The
    next player's H beside it, the square again read surely empty, is a play (HI, aH), not
    the blank knocked a square aside."""
    rec = recorder(english, wespa, Lexicon(["WINDY", "AWE", "HI", "AH"]))
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    camera(rec, probs_of(put(rec.game.board, "D7", "aWE"), {(6, 3): {"?": 0.15, ".": 0.85}}))
    assert rec.game.turns[-1].word == "a.E"
    seen = put(rec.game.board, "E7", "H.").without([(6, 3)])
    notes = camera(rec, probs_of(seen, {(6, 3): {"?": 0.01, ".": 0.99}}))
    assert [n[0] for n in notes] == ["move_recorded"] and len(rec.game.turns) == 3
    assert [(p.row, p.col, p.tile.letter) for p in rec.game.turns[-1].placed] == [(6, 4, "H")]


def test_a_withdrawal_is_seen_through_a_blank_and_a_tile_already_missing(english, wespa):
    rec = recorder(english, wespa, Lexicon(["WINDY", "GALE"]))  # WE a phony: challenged off
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    before = rec.game.board
    camera(rec, probs_of(before.without([(7, 7)])))  # the Y goes missing: alerted
    camera(rec, probs_of(put(before, "9A", "GaLE").without([(7, 7)])))
    assert rec.game.turns[-1].word == "GaLE"
    # GaLE taken back; its blank's square reads as a plain square only doubtfully
    notes = camera(rec, probs_of(before.without([(7, 7)]), {(8, 1): {"?": 0.2, ".": 0.8}}))
    assert [n[0] for n in notes] == ["move_withdrawn"]


def test_a_withdrawal_is_seen_where_a_square_of_the_play_now_reads_another_letter(
    english, wespa
):
    rec = recorder(english, wespa)
    first = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(first))
    camera(rec, probs_of(put(first, "7C", "GALE")))
    # GALE taken back, and its G's square now reads as an F (its premium print), never a G
    notes = camera(rec, probs_of(first, {(6, 2): {"F": 0.9, ".": 0.1}}))
    assert [n[0] for n in notes] == ["move_withdrawn"] and rec.game.scores == (32, 0)


def test_a_stray_far_along_the_row_does_not_stop_a_gap_being_filled(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    seen = put(rec.game.board, "9A", "GALE")
    blank_and_stray = {(8, 1): {"?": 0.15, ".": 0.85}, (8, 11): {"?": 0.9, ".": 0.1}}
    camera(rec, probs_of(seen, blank_and_stray))
    assert (str(rec.game.turns[-1].coord), rec.game.turns[-1].word) == ("9A", "GaLE")


def test_a_lone_blank_read_doubtfully_is_not_withdrawn_because_another_tile_is_gone(
    english, wespa
):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    windy = rec.game.board
    camera(rec, probs_of(windy.without([(7, 3)])))  # the W missing: alerted
    camera(rec, probs_of(put(windy, "G7", "a.").without([(7, 3)])))
    assert rec.game.turns[-1].word == "a."
    doubtful = {(6, 6): {"?": 0.35, ".": 0.65}}
    notes = camera(rec, probs_of(put(windy, "G7", "a.").without([(7, 3)]), doubtful))
    assert "move_withdrawn" not in [n[0] for n in notes] and len(rec.game.turns) == 2


def test_a_gap_is_filled_with_a_blank_whatever_letter_its_noise_favours(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    seen = put(rec.game.board, "9A", "GALE")
    noise = {"Q": 0.03, "O": 0.03, "C": 0.03, "G": 0.03, "?": 0.005, ".": 0.875}
    camera(rec, probs_of(seen, {(8, 1): noise}))  # four letters' noise above the blank's
    assert (str(rec.game.turns[-1].coord), rec.game.turns[-1].word) == ("9A", "GaLE")


@pytest.mark.parametrize("tile_odds, word", [(0.15, "a.E"), (0.0, ".E")])
def test_a_blank_read_as_its_square_beyond_a_board_tile_ends_a_phony(english, wespa,
                                                                     tile_odds, word):
    rec = recorder(english, wespa, Lexicon(["WINDY", "AWE"]))  # WE is a phony here
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    seen = put(rec.game.board, "D7", "aWE")  # a blank above the W, E below it
    looks = {(6, 3): {"?": tile_odds, ".": 1.0 - tile_odds}}
    camera(rec, probs_of(seen, looks))  # the blank looks much like its square
    assert (str(rec.game.turns[-1].coord), rec.game.turns[-1].word) == ("D7" if tile_odds
                                                                        else "D8", word)


def test_a_blank_read_as_its_square_at_a_plays_end_is_found():
    from tilecast.interpret import _gaps_filled

    board = put(Board(), "8D", "WINDY")  # D8 to H8
    added = ((8, 0), (8, 1), (8, 2))  # A9 B9 C9: the D9 beyond them lies under the W
    assert ((8, 0), (8, 1), (8, 2), (8, 3)) in set(_gaps_filled(board, added))
    added = ((8, 3),)  # D9 alone: D7, above the W, is the first empty square up the column
    assert ((6, 3), (8, 3)) in set(_gaps_filled(board, added))
    # Not for a run that leaves other new squares aside: those show where the play is.
    added = ((8, 3), (10, 3), (11, 3))  # D9, D11, D12
    assert ((6, 3), (8, 3)) not in set(_gaps_filled(board, added))
    assert ((8, 3), (9, 3), (10, 3), (11, 3)) in set(_gaps_filled(board, added))


def test_a_gap_inside_new_tiles_is_tried_without_the_gap_to_a_board_tile():
    from tilecast.interpret import _gaps_filled

    board = put(Board(), "8A", "CAT")  # A8 B8 C8
    added = ((7, 4), (7, 6), (7, 7))  # E8, then G8 H8: F8 between them, D8 before the T
    parts = set(_gaps_filled(board, added))
    assert ((7, 4), (7, 5), (7, 6), (7, 7)) in parts  # the inner gap alone
    assert ((7, 3), (7, 4), (7, 5), (7, 6), (7, 7)) in parts  # and with the gap to CAT


def test_a_tile_the_set_has_no_more_of_is_recorded_as_read_with_a_warning(english, wespa):
    """A second Z: an earlier reading must be wrong (the first, most likely, as the camera
    reads this one clearly). Read as the next likeliest letter, the O, the play would carry
    that misreading on; recorded as read, the TD is told and later plays stay right."""
    rec = recorder(english, wespa, lexicon=None)
    camera(rec, probs_of(put(Board(), "8G", "ZA")))  # the set's one Z
    seen = put(rec.game.board, "9H", "ZA")
    notes = camera(rec, probs_of(seen, {(8, 7): {"Z": 0.95, "O": 0.05}}))
    assert rec.game.turns[-1].word == "ZA" and rec.actions[-1]["uncounted"]
    alerts = [n[1]["alert"] for n in notes if n[0] == "alert"]
    assert [a.kind for a in alerts] == ["too-many-of-letter"]
    assert "clearly reads Z" in alerts[0].message and alerts[0].severity == "warning"
    assert rec.rebuild(rec.actions).scores == rec.game.scores
    # A clear reading of a tile the set still has is no warning.
    rec = recorder(english, wespa, lexicon=None)
    camera(rec, probs_of(put(Board(), "8G", "QA")))
    notes = camera(rec, probs_of(put(rec.game.board, "9H", "ZA")))
    assert rec.game.turns[-1].word == "ZA" and not [n for n in notes if n[0] == "alert"]


def test_a_play_changed_before_the_next_turn_replaces_it(english, wespa):
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    notes = camera(rec, probs_of(put(Board(), "8E", "WINDY")))  # slid a square right
    assert [n[0] for n in notes] == ["alert", "record_changed"]
    assert notes[0][1]["alert"].kind == "play-amended"
    assert "8D WINDY changed to 8E WINDY" in notes[0][1]["alert"].message
    assert [(t.player, str(t.coord), t.word, t.score) for t in rec.game.turns] == [
        (0, "8E", "WINDY", 24)]
    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8F", "GALE")))
    camera(rec, probs_of(put(Board(), "8F", "GAL")))  # the E taken back
    assert [(t.player, t.word, t.score) for t in rec.game.turns] == [(0, "GAL", 8)]


def test_the_next_players_play_with_a_tile_of_the_last_misread_is_no_amendment(english, wespa):
    rec = recorder(english, wespa)
    first = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(first))
    seen = put(first, "7C", "GALE").without([(7, 7)])  # the Y read as empty meanwhile
    notes = camera(rec, probs_of(seen))
    kinds = [n[1]["alert"].kind for n in notes if n[0] == "alert"]
    assert "board-disturbed" in kinds and "play-amended" not in kinds
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "WINDY"), (1, "GALE")]


def test_two_tiles_swapped_in_place_amend_the_play_but_one_misread_tile_does_not(english,
                                                                                  wespa):
    words = Lexicon(["STOP", "SPOT", "STOPS"])
    rec = Recorder(wespa, english, words)
    camera(rec, probs_of(put(Board(), "8E", "STOP")))
    camera(rec, probs_of(put(Board(), "8E", "SPOT")))  # the T and the P swapped
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "SPOT")]
    rec = Recorder(wespa, english, words)
    camera(rec, probs_of(put(Board(), "8E", "STOP")))
    seen = put(Board(), "8E", "SPOT").with_tiles([(0, 14, Tile("E"))])  # and a stray tile read
    notes = camera(rec, probs_of(seen))
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "SPOT")]
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["stray-tiles",
                                                                      "play-amended"]
    rec = Recorder(wespa, english, None)  # no lexicon to rule out QTOPS
    camera(rec, probs_of(put(Board(), "8E", "STOP")))
    seen = put(rec.game.board, "8E", "STOPS")  # the next player hooks an S...
    notes = camera(rec, probs_of(seen, {(7, 4): {"Q": 0.95, "S": 0.05}}))  # ...S read as Q
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "STOP"), (1, "....S")]
    assert not [n for n in notes if n[0] == "record_changed"]


def test_letters_the_lexicon_or_operator_mended_are_no_change_on_the_board(english, wespa):
    # STOP read with two doubtful letters the lexicon mended; the next player hooks an S
    rec = Recorder(wespa, english, Lexicon(["STOP", "STOPS"]))
    first = put(Board(), "8E", "STOP")
    doubtful = {(7, 5): {"I": 0.6, "T": 0.4}, (7, 6): {"Q": 0.6, "O": 0.4}}
    camera(rec, probs_of(first, doubtful))
    camera(rec, probs_of(put(first, "8E", "STOPS"), doubtful))
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "STOP"), (1, "....S")]
    # the camera read SPOT, the operator corrected it to STOP: the next play keeps that
    rec = Recorder(wespa, english, Lexicon(["STOP", "SPOT", "AP", "AT"]))
    camera(rec, probs_of(put(Board(), "8E", "SPOT")))
    rec.apply({"type": "correct", "op": "replace", "index": 0,
               "action": {"type": "play", "coord": "8E", "word": "STOP"}})
    camera(rec, probs_of(put(put(Board(), "8E", "SPOT"), "F7", "AP")))
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "STOP"), (1, "A.")]


def test_an_amended_play_with_a_blank_the_lexicon_cannot_name_asks_the_operator(english,
                                                                                 wespa):
    rec = Recorder(wespa, english, Lexicon(["TA", "AT", "BAT", "CAT", "EAT"]))
    camera(rec, probs_of(put(Board(), "8H", "TA")))
    notes = camera(rec, probs_of(put(Board(), "8G", "cAT")))  # slid, and a blank put before
    assert [n[0] for n in notes] == ["alert", "record_changed", "blank_needs_letter"]
    assert sorted(notes[2][1]["options"]) == ["B", "C", "E"]


def test_a_letter_the_set_does_not_have_is_read_as_the_next_likeliest(english, wespa):
    counts, values = dict(english.counts), dict(english.values)
    del counts["K"], values["K"]
    rec = Recorder(wespa, TileSet("no-K", counts, values), None)
    notes = camera(rec, probs_of(put(Board(), "8G", "OAT"), {(7, 7): {"K": 0.6, "A": 0.4}}))
    assert [t.word for t in rec.game.turns] == ["OAT"]
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["too-many-of-letter"]


def test_a_withdrawal_whose_last_square_half_reads_as_another_letter_is_still_one(
        english, wespa):
    # The centre star, its tile gone, reads 0.55 H and 0.35 empty: not the E that left.
    # GALE is a phony here: only a phony is challenged off the board.
    phonies = Lexicon(["WINDY"])
    rec = recorder(english, wespa, phonies)
    camera(rec, probs_of(put(Board(), "8E", "GALE")))  # E on the star, 8H
    notes = camera(rec, probs_of(Board(), {(7, 7): {"H": 0.55, ".": 0.35, "E": 0.02}}))
    assert [n[0] for n in notes] == ["move_withdrawn"]
    # ... but a square that still reads as its own tile keeps the play on the board
    rec = recorder(english, wespa, phonies)
    camera(rec, probs_of(put(Board(), "8E", "GALE")))
    notes = camera(rec, probs_of(Board(), {(7, 7): {"E": 0.55, ".": 0.35}}))
    assert "move_withdrawn" not in [n[0] for n in notes]
    # ... and so does a blank (which looks much like its square) unless surely gone
    rec = recorder(english, wespa, phonies)
    camera(rec, probs_of(put(Board(), "8E", "GALe")))
    notes = camera(rec, probs_of(Board(), {(7, 7): {"?": 0.3, ".": 0.35, "A": 0.35}}))
    assert "move_withdrawn" not in [n[0] for n in notes]


def test_a_doubtful_tile_left_out_of_a_play_joins_it_once_read_clearly(english, wespa):
    # NAW is no word here: with its N doubtful the play is recorded as AW, the N a stray.
    rec = recorder(english, wespa)
    first = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(first))
    laid = put(first, "D6", "NA.")
    notes = camera(rec, probs_of(laid, {(5, 3): {"N": 0.6, ".": 0.3, "M": 0.1}}))
    assert rec.game.turns[-1].word == "A." and rec.game.scores == (32, 5)
    # Read clearly a moment later, before the next turn: the N was part of the play.
    notes = camera(rec, probs_of(laid))
    assert [n[0] for n in notes] == ["alert", "alert", "record_changed"]
    assert [n[1]["alert"].kind for n in notes[:2]] == ["phony", "play-amended"]
    assert len(rec.game.turns) == 2 and rec.game.turns[-1].word == "NA."
    assert rec.game.scores == (32, 6)
    # A tile the camera did not read at the play's recording is the next player's, even
    # when a later reading, doubtful, showed it before it was clear.
    rec = recorder(english, wespa)
    camera(rec, probs_of(first))
    camera(rec, probs_of(put(first, "D7", "A.")))
    camera(rec, probs_of(laid, {(5, 3): {"N": 0.6, ".": 0.3, "M": 0.1}}))
    notes = camera(rec, probs_of(laid))
    assert "record_changed" not in [n[0] for n in notes]
    assert [t.player for t in rec.game.turns] == [0, 1, 0]


def test_tiles_laid_in_line_just_after_a_pause_join_the_play(english, wespa):
    """The camera committed while the player paused between tiles (GAL of GALE laid, the E
    not yet): the E read a moment later in GAL's line is the same turn's. Read after a
    longer pause it is the next player's hook, as it would be in a game."""
    words = Lexicon(["WINDY", "GAL", "GALE", "E"])
    for later, turns in ((2.5, [(0, "WINDY"), (1, "GALE")]),
                         (8.0, [(0, "WINDY"), (1, "GAL"), (0, "...E")])):
        rec = recorder(english, wespa, words)
        first = put(Board(), "8D", "WINDY")
        camera(rec, probs_of(first), time=1.0)
        camera(rec, probs_of(put(first, "7C", "GAL")), time=5.0)
        notes = camera(rec, probs_of(put(first, "7C", "GALE")), time=5.0 + later)
        assert [(t.player, t.word) for t in rec.game.turns] == turns
        assert ("record_changed" in [n[0] for n in notes]) == (later < 3)
    # Tiles after a pause that leave the play a phony, where they alone make the next play
    # of lexicon words, are that next play: GAL is a phony here (AW and LI are no words),
    # GALE and EN are words.
    rec = recorder(english, wespa, Lexicon(["WINDY", "GAL", "GALE", "EN"]))
    gal = put(put(Board(), "8D", "WINDY"), "7C", "GAL")
    camera(rec, probs_of(put(Board(), "8D", "WINDY")), time=1.0)
    camera(rec, probs_of(gal), time=5.0)
    camera(rec, probs_of(put(gal, "7C", "GALE")), time=6.0)
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "WINDY"), (1, "GAL"),
                                                            (0, "...E")]


def test_a_clear_play_joining_only_tiles_the_camera_never_saw_is_recorded_as_read(
        english, wespa):
    """YE down from WINDY's Y was laid under a score bar (the camera read H9 as empty); BET
    joins its E only. Recorded as read with a warning, so the game goes on being recorded;
    the same letters on squares never seen empty (the bar's own text) are no play."""
    import numpy as np

    words = Lexicon(["WINDY", "YE", "BET"])
    windy = put(Board(), "8D", "WINDY")
    bet = put(windy, "10G", "BET")  # H9's E unseen: BET touches no tile the record holds
    for last_empty, recorded in ((4.0, True), (-np.inf, False)):
        rec = recorder(english, wespa, words)
        camera(rec, probs_of(windy), time=1.0)
        emptied = np.full(225, 4.0)
        emptied[[9 * 15 + c for c in (6, 7, 8)]] = last_empty
        entries, _ = rec.interpret(probs_of(bet).tolist(), 6.0, emptied=emptied)
        for entry in entries:
            rec.apply(entry)
        kinds = [e.get("kind") or e["type"] for e in entries]
        if recorded:
            assert kinds == ["play-unconnected", "play"] and entries[-1]["unconnected"]
            assert [(t.player, t.word, t.score) for t in rec.game.turns] == [
                (0, "WINDY", 32), (1, "BET", 5)]
            assert rec.rebuild(rec.actions).turns[-1].word == "BET"  # also once rebuilt
        else:
            assert kinds == ["illegal-play"] and len(rec.game.turns) == 1


def test_a_phony_joining_only_tiles_the_camera_never_saw_is_recorded_as_read_too(
        english, wespa):
    """BET under the same score bar's E, its T misread as F (a face the network does not
    know): the phony BEF is still recorded, with the warning and the phony alert. Held back
    for a clear reading that never comes, its tiles would pile onto every later play (r19_ruth
    in the seeded-misread benchmark: 15 and then 18 tiles "from 7", five plays lost)."""
    import numpy as np

    rec = recorder(english, wespa, Lexicon(["WINDY", "YE", "BET"]))
    windy = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(windy), time=1.0)
    entries, _ = rec.interpret(probs_of(put(windy, "10G", "BEF")).tolist(), 6.0,
                               emptied=np.full(225, 4.0))
    kinds = [e.get("kind") or e["type"] for e in entries]
    assert kinds == ["phony", "play-unconnected", "play"] and entries[-1]["unconnected"]
    assert entries[-1]["word"] == "BEF"


def test_a_tile_laid_with_an_earlier_play_and_left_out_then_is_given_to_it(english, wespa):
    """RAY was laid down from WINDY's Y with its R read doubtfully, and recorded as AY, the R a
    stray. Two turns later BAR runs into it, the R now read clearly: the R was last seen empty
    when AY's tiles were, so AY is corrected to RAY and the new play is BA. through it. An R
    seen empty until BAR was laid is BAR's own."""
    import numpy as np

    words = Lexicon(["WINDY", "AY", "RAY", "AW", "BAR"])
    windy = put(Board(), "8D", "WINDY")
    ray = put(windy, "H6", "RA.")
    aw = put(ray, "D7", "A.")
    bar = put(aw, "6F", "BA.")
    doubtful = {(5, 7): {".": 0.85, "R": 0.1, "E": 0.05}}
    for r_laid, plays in ((4.5, ["WINDY", "RA.", "A.", "BA."]),
                          (12.5, ["WINDY", "A.", "A.", "BAR"])):
        rec = recorder(english, wespa, words)
        emptied, before = np.full(225, 0.0), Board()
        readings = ((1.0, windy, {}), (5.0, ray, doubtful), (9.0, aw, doubtful),
                    (13.0, bar, {}))
        for time, seen, over in readings:
            laid = [i for i in range(225) if seen.at(*divmod(i, 15)) is not None
                    and before.at(*divmod(i, 15)) is None]
            emptied[laid] = time - 0.5  # last seen empty as the turn's tiles were laid
            emptied[5 * 15 + 7] = min(r_laid, time - 0.5)
            before = seen
            for _ in range(3):  # as the session reads a reading again after a correction
                turns, actions = len(rec.game.turns), list(rec.actions)
                entries, memory = rec.interpret(probs_of(seen, over).tolist(), time,
                                                emptied=emptied)
                for entry in entries:
                    rec.apply(entry)
                if len(rec.game.turns) > turns or list(rec.actions) == actions:
                    break
            rec.apply({"type": "board", "rows": list(seen.rows()), "time": time,
                       "alerted": memory.as_json()})
        assert [t.word for t in rec.game.turns] == plays
        if r_laid < 5.0:
            assert rec.game.turns[1].score == 6  # RAY: 1 + 1 + 4


def test_squares_read_as_tiles_all_along_never_make_a_play_of_their_own(english, wespa):
    """A score bar over E9 and F9 reads as two letters in every frame, never as empty squares.
    Once WINDY lies above them they touch the board, yet they are no play: the same reading
    again records nothing. Tiles laid there, on squares seen empty before, are a play."""
    import numpy as np

    seen = put(put(Board(), "8D", "WINDY"), "9E", "AT")
    for last_empty, plays in ((-np.inf, ["WINDY"]), (0.5, ["WINDY", "AT"])):
        rec = recorder(english, wespa, None)
        emptied = np.full(225, 0.5)
        emptied[[8 * 15 + 4, 8 * 15 + 5]] = last_empty
        for time in (1.0, 5.0):
            entries, memory = rec.interpret(probs_of(seen).tolist(), time, emptied=emptied)
            for entry in entries:
                rec.apply(entry)
            rec.apply({"type": "board", "rows": list(seen.rows()), "time": time,
                       "alerted": memory.as_json()})
        assert [t.word for t in rec.game.turns] == plays


def test_a_steady_misreading_joined_to_the_board_through_a_doubtful_gap_is_no_play(
        english, wespa):
    """J8 reads as an F in every frame (a corner's print); once I8 between it and WINDY reads
    doubtfully as a blank, the gap filled would make it a play: still none, unless J8 was
    seen empty before (a tile laid there)."""
    import numpy as np

    windy = put(Board(), "8D", "WINDY")
    seen = put(windy, "8J", "F")
    for last_empty, plays in ((-np.inf, ["WINDY"]), (0.5, ["WINDY", ".....aF"])):
        rec = recorder(english, wespa, None)
        emptied = np.full(225, 0.5)
        emptied[7 * 15 + 9] = last_empty
        gap = {(7, 8): {"?": 0.3, ".": 0.7}}
        for time, over in ((1.0, {}), (5.0, gap)):
            entries, memory = rec.interpret(probs_of(seen, over).tolist(), time,
                                            emptied=emptied)
            for entry in entries:
                rec.apply(entry)
            rec.apply({"type": "board", "rows": list(seen.rows()), "time": time,
                       "alerted": memory.as_json()})
        assert [t.word for t in rec.game.turns] == plays


def test_a_square_steadily_read_as_a_blank_beside_a_play_does_not_join_it(english, wespa):
    rec = recorder(english, wespa)
    first = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(first))
    laid = put(first, "D7", "A.")
    camera(rec, probs_of(laid, {(5, 3): {"?": 0.6, ".": 0.4}}))
    assert rec.game.turns[-1].word == "A."
    notes = camera(rec, probs_of(laid, {(5, 3): {"?": 0.95, ".": 0.05}}))
    assert "record_changed" not in [n[0] for n in notes] and rec.game.turns[-1].word == "A."


def test_a_clear_play_the_set_has_no_more_letters_for_is_recorded_with_a_warning(wespa):
    # A set of I, T and Z: once both I are on the board, no reading of a new I is legal.
    tiny = TileSet("tiny", {"I": 2, "T": 10, "Z": 20}, {"I": 1, "T": 1, "Z": 10})
    rec = Recorder(wespa, tiny, None)
    board = put(Board(), "8G", "TI")
    camera(rec, probs_of(board))
    board = put(board, "G9", "IT")
    camera(rec, probs_of(board))
    board = put(board, "H9", "I")  # a third I: an earlier I must have been misread
    notes = camera(rec, probs_of(board))
    told = [n[1]["alert"] for n in notes if n[0] == "alert"]
    assert [a.kind for a in told] == ["too-many-of-letter"]
    assert [n[0] for n in notes][-1] == "move_recorded"
    assert told[0].data == {"letters": ["I"]}  # so the alerts plugin does not tell it again
    assert rec.game.turns[-1].word == ".I" and rec.actions[-1]["uncounted"]
    # ... and it stays recorded when the record is rebuilt (a correction, a restart)
    assert rec.rebuild(rec.actions).turns[-1].word == ".I"
    # Later plays without an I are read as usual, and the game can still end.
    notes = camera(rec, probs_of(put(board, "8F", "Z..")))
    assert [n[0] for n in notes] == ["move_recorded"] and "uncounted" not in rec.actions[-1]
    assert "I" not in g.racks_left(rec.game)  # none of the over-counted letter left


def test_an_uncounted_play_amended_into_one_the_set_holds_is_counted_again(wespa):
    tiny = TileSet("tiny", {"I": 2, "T": 10, "Z": 20}, {"I": 1, "T": 1, "Z": 10})
    rec = Recorder(wespa, tiny, None)
    board = put(put(Board(), "8G", "TI"), "G9", "IT")
    camera(rec, probs_of(put(Board(), "8G", "TI")))
    camera(rec, probs_of(board))
    camera(rec, probs_of(put(board, "11G", "IZ")))  # a third I
    assert rec.actions[-1].get("uncounted")
    notes = camera(rec, probs_of(put(board, "11G", "ZT")))  # both tiles changed: no I now
    assert "record_changed" in [n[0] for n in notes] and rec.game.turns[-1].word == "ZT"
    assert "uncounted" not in rec.actions[-1]


def test_a_play_leaving_out_fewer_sure_tiles_wins_over_a_surer_one_leaving_out_more(
        english, wespa):
    """Three sure tiles read at once, not in one line: AWE down through WINDY's W (its A and
    E read 0.7) and a lone A under the Y (read surely, YA). One of them is a stray reading;
    the play that leaves out one sure tile is far likelier than the one that leaves out two."""
    lexicon = Lexicon(["WINDY", "AWE", "YA"])
    rec = Recorder(wespa, english, lexicon)
    windy = put(Board(), "8D", "WINDY")
    camera(rec, probs_of(windy))
    both = put(put(windy, "D7", "A.E"), "H8", ".A")
    doubt = {(6, 3): {"A": 0.7, "Q": 0.3}, (8, 3): {"E": 0.7, "F": 0.3}}
    notes = camera(rec, probs_of(both, doubt))
    assert rec.game.turns[-1].word == "A.E"
    alerts = [n[1]["alert"] for n in notes if n[0] == "alert"]
    assert [a.kind for a in alerts] == ["stray-tiles"] and "H9" in alerts[0].message


@pytest.mark.parametrize("before, fixed", [(".", True), ("?", False)])
def test_a_blank_filled_in_for_the_lexicon_gives_way_to_a_tile_laid_on_it(english, wespa,
                                                                          before, fixed):
    """WIND is no word here, so a doubtful L8 made it WINDy. When O and D are laid above L8
    and L8 now surely reads S, the blank was never there, if the camera read L8 as empty
    until then: WIND is corrected and ODS recorded. Read as a blank until then, the blank
    stands and the S is a misreading of it (or the blank's own letter)."""
    rec = recorder(english, wespa, Lexicon(["WINDY", "WINDS", "ODS"]))
    wind = put(Board(), "8H", "WIND")
    camera(rec, probs_of(wind, {(7, 11): {"?": 0.15, ".": 0.85}}), time=1.0)
    assert rec.game.turns[-1].word in ("WINDs", "WINDy")
    looks = {"?": 0.6, ".": 0.4} if before == "?" else {"?": 0.15, ".": 0.85}
    camera(rec, probs_of(wind, {(7, 11): looks}), time=4.0)
    notes = camera(rec, probs_of(put(wind, "L6", "ODS")), time=9.0)
    turns = [(t.player, str(t.coord), t.word, t.score) for t in rec.game.turns]
    if fixed:
        assert turns == [(0, "8H", "WIND", 16), (1, "L6", "ODS", 15)]
        assert [n[1]["alert"].kind for n in notes if n[0] == "alert"][0] == "play-amended"
        assert rec.rebuild(rec.actions).scores == rec.game.scores
    else:
        assert turns[0][2] in ("WINDs", "WINDy") and turns[1][2] == "OD."


def test_a_letter_read_again_past_the_count_mends_the_one_earlier_tile_now_read_otherwise(
        english, wespa):
    """The set's one Z was recorded on G8 (NA read as ZA). A Z laid later, read clearly,
    tells that one Z is misread; the camera now reads G8 as N, so that tile was the misread
    one: ZA is corrected to NA and the new play counted as usual."""
    rec = recorder(english, wespa, lexicon=None)
    camera(rec, probs_of(put(Board(), "8G", "ZA")), time=1.0)
    now = put(put(Board(), "8G", "NA"), "9H", "ZO")
    notes = camera(rec, probs_of(now), time=6.0)
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "NA"), (1, "ZO")]
    assert not rec.actions[-1].get("uncounted")
    alerts = [n[1]["alert"] for n in notes if n[0] == "alert"]
    assert [a.kind for a in alerts] == ["play-amended"] and "G8" in alerts[0].message
    assert rec.rebuild(rec.actions).scores == rec.game.scores
    # Two earlier Zs? The set has one; with no earlier tile read otherwise, ZO is recorded
    # as read, past the count.
    rec = recorder(english, wespa, lexicon=None)
    camera(rec, probs_of(put(Board(), "8G", "ZA")), time=1.0)
    camera(rec, probs_of(put(put(Board(), "8G", "ZA"), "9H", "ZO")), time=6.0)
    assert [t.word for t in rec.game.turns] == ["ZA", "ZO"] and rec.actions[-1]["uncounted"]


def test_a_letter_read_again_past_the_count_mends_the_earlier_phony_it_alone_spoilt(
        english, wespa):
    """QUA was laid with a blank as U and read as the phony QXA (the network took the plain
    blank for an X, and goes on doing so). When the set's one X is then read clearly in AX,
    while H8 still reads as X (a blank now given some chance),
    the recorded X that alone made its play a phony is the misread one: QXA is corrected to
    QuA and AX is counted as usual. With the earlier play a word as recorded (AXE, say), no
    tile stands out: AX is recorded as read, past the count; so it is when AX is a phony."""
    lexicon = Lexicon(["QUA", "AX", "AXE", "EX"])
    rec = recorder(english, wespa, lexicon)
    camera(rec, probs_of(put(Board(), "8G", "QXA")), time=1.0)
    assert rec.game.turns[-1].word == "QXA"  # a phony, as the camera clearly read it
    now = put(put(Board(), "8G", "QXA"), "I8", ".X")
    notes = camera(rec, probs_of(now, {(7, 7): {"X": 0.9, "?": 0.1}}), time=6.0)
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "QuA"), (1, ".X")]
    assert not rec.actions[-1].get("uncounted")
    alerts = [n[1]["alert"] for n in notes if n[0] == "alert"]
    assert [a.kind for a in alerts] == ["play-amended"] and "blank as U on H8" in alerts[0].message
    assert rec.rebuild(rec.actions).scores == rec.game.scores
    rec = recorder(english, wespa, lexicon)
    camera(rec, probs_of(put(Board(), "8G", "AXE")), time=1.0)
    camera(rec, probs_of(put(put(Board(), "8G", "AXE"), "G9", "X")), time=6.0)
    assert [t.word for t in rec.game.turns][0] == "AXE" and rec.actions[-1]["uncounted"]
    # AX itself a phony (a lexicon without it): its own X may be the misread one
    rec = recorder(english, wespa, Lexicon(["QUA", "AXE", "EX"]))
    camera(rec, probs_of(put(Board(), "8G", "QXA")), time=1.0)
    camera(rec, probs_of(now, {(7, 7): {"X": 0.9, "?": 0.1}}), time=6.0)
    assert [t.word for t in rec.game.turns] == ["QXA", ".X"] and rec.actions[-1]["uncounted"]


def test_the_phony_mended_may_hold_a_blank_of_its_own(english, wespa):
    """QUAX laid with its X a blank, its U read as an X (a seeded misread in the recording
    benchmark): when the set's one X is read clearly in AX, the recorded X is weighed as a
    blank beside the play's own blank, which keeps its letter; the mend once failed there with
    a traceback, losing the rest of the recording."""
    rec = recorder(english, wespa, Lexicon(["QUAS", "QUAX", "AX", "AXE", "EX"]))
    camera(rec, probs_of(put(Board(), "8G", "QXAs")), time=1.0)
    assert [t.word for t in rec.game.turns] == ["QXAx"]  # a phony: its blank named likeliest
    now = put(put(Board(), "8G", "QXAs"), "I8", ".X")
    notes = camera(rec, probs_of(now, {(7, 7): {"X": 0.9, "?": 0.1}}), time=6.0)
    assert [(t.player, t.word) for t in rec.game.turns] == [(0, "QuAx"), (1, ".X")]
    assert [n[1]["alert"].kind for n in notes if n[0] == "alert"] == ["play-amended"]


def test_the_phony_mended_is_the_play_whose_tile_stands_not_a_withdrawn_one_before_it(
        english, wespa):
    """H8 was first laid in QZA, withdrawn, and then in QXA (selfplay1020: WORMINC on the
    square of the withdrawn NWCIONR). The mend corrects QXA, the play whose tile stands; the
    withdrawn play and the withdrawal stay as they were."""
    rec = recorder(english, wespa, Lexicon(["QUA", "AX", "AXE", "EX"]))
    camera(rec, probs_of(put(Board(), "8G", "QZA")), time=1.0)
    camera(rec, probs_of(Board()), time=6.0)
    camera(rec, probs_of(put(Board(), "8G", "QXA")), time=11.0)
    now = put(put(Board(), "8G", "QXA"), "I8", ".X")
    camera(rec, probs_of(now, {(7, 7): {"X": 0.9, "?": 0.1}}), time=16.0)
    assert [(t.player, t.word, t.kind) for t in rec.game.turns] == [
        (0, "QZA", "play"), (0, "QZA", "withdraw"), (1, "QuA", "play"), (0, ".X", "play")]
    assert not rec.actions[-1].get("uncounted")


def test_a_third_blank_read_clearly_drops_the_recorded_blank_the_camera_now_reads_empty(
        english, wespa):
    """WINDy was recorded with a blank on L8 that reads as an empty square after the next
    play; then two blanks are laid and read clearly. The set has two, so L8's was never
    there: WINDy is corrected to WIND and the two blanks counted."""
    rec = recorder(english, wespa, lexicon=None)
    windy = put(Board(), "8H", "WINDy")
    camera(rec, probs_of(windy), time=1.0)
    camera(rec, probs_of(put(windy, "K8", ".ED")), time=5.0)
    now = put(put(put(Board(), "8H", "WIND"), "K8", ".ED"), "7I", "ab")
    notes = camera(rec, probs_of(now), time=9.0)
    assert [t.word for t in rec.game.turns][:2] == ["WIND", ".ED"]
    assert [p.tile.blank for p in rec.game.turns[2].placed] == [True, True]
    assert not rec.actions[-1].get("uncounted")
    amended = [n[1]["alert"] for n in notes if n[0] == "alert"
               and n[1]["alert"].kind == "play-amended"]
    assert len(amended) == 1 and "an empty square on L8" in amended[0].message


def test_a_play_rewritten_without_the_tile_that_joined_it_is_no_play(english, wespa):
    from tilecast.engine.play import Placement
    from tilecast.interpret import _rewritten

    rec = recorder(english, wespa)
    camera(rec, probs_of(put(Board(), "8D", "WINDY")))
    before = rec.game
    action = {"type": "play", "coord": "G6", "word": "Ab."}  # A, and a blank as B, down to D
    # the blank on G7, read as an empty square after all, joined the A to the board: the A
    # alone is no play (it used to stop the run with an IndexError)
    assert _rewritten(action, before, (Placement(5, 6, Tile("A")),)) is None
    mended = _rewritten(action, before, (Placement(5, 6, Tile("A")), Placement(6, 6, Tile("I"))))
    assert (mended["coord"], mended["word"]) == ("G6", "AI.")


def test_a_later_play_through_a_blank_names_it_again_when_its_letter_was_open(
        english, wespa):
    """CAB or CAT: the lexicon left the blank on I8 open, and the recorder named it B. TO laid
    through it later is a phony with a B there and words with a T: CAb is corrected to CAt by
    a journaled correction and TO recorded. A blank the operator named keeps its letter: the
    later play is then recorded as the phony it reads as."""
    lexicon = Lexicon(["CAB", "CAT", "TO", "OX"])
    for operator in (False, True):
        rec = recorder(english, wespa, lexicon)
        camera(rec, probs_of(put(Board(), "8G", "CAb")), time=1.0)
        assert rec.game.turns[-1].word == "CAb"  # the likelier of the two, as named here
        if operator:
            rec.apply({"type": "blank", "index": 0, "letters": "B"})
        now = put(put(Board(), "8G", "CAb"), "9I", "OX")
        notes = camera(rec, probs_of(now), time=6.0)
        alerts = [n[1]["alert"].kind for n in notes if n[0] == "alert"]
        if operator:
            assert [t.word for t in rec.game.turns] == ["CAb", "OX"] and alerts == ["phony"]
        else:
            assert [t.word for t in rec.game.turns] == ["CAt", "OX"]
            assert alerts == ["play-amended"]
            assert rec.rebuild(rec.actions).scores == rec.game.scores


def test_a_letter_the_set_has_no_more_of_is_a_blank_when_the_camera_gives_one_a_chance(
        english, wespa):
    """The set's one Z is on the board (ZA) and a blank is still to be played: a second Z read
    with some chance of a blank (a plain face the network takes for a letter) is that blank,
    counted as usual. Read as a Z alone, it stays a Z recorded past the count (the test of
    the clear play of more tiles above)."""
    for blank, counted in ((0.1, True), (0.01, False)):
        rec = recorder(english, wespa, lexicon=None)
        camera(rec, probs_of(put(Board(), "8G", "ZA")), time=1.0)
        now = put(put(Board(), "8G", "ZA"), "9H", "ZO")
        camera(rec, probs_of(now, {(8, 7): {"Z": 1.0 - blank, "?": blank}}), time=6.0)
        assert rec.game.turns[-1].placed[0].tile.blank is counted
        assert bool(rec.actions[-1].get("uncounted")) is not counted


def test_a_phony_that_leaves_a_clear_tile_out_gives_way_to_the_play_past_the_count(
        english, wespa):
    """MAD was read as the phony KAD, spending the set's one K. KID is laid down through its D
    and read clearly (the K 0.97): within the counts only ID is left, a phony with the K left
    out (how all_triple_words_covered's LIDO became ..ZI). The play of them all, past the
    count, is a clear play of lexicon words, so it is read that way; the camera now reads M
    on G8, so KAD is corrected to MAD and KID counted as usual."""
    rec = recorder(english, wespa, Lexicon(["MAD", "KID"]))
    camera(rec, probs_of(put(Board(), "8G", "KAD")), time=1.0)
    assert rec.game.turns[-1].word == "KAD"
    now = put(put(Board(), "8G", "MAD"), "I6", "KI")
    camera(rec, probs_of(now, {(5, 8): {"K": 0.97, ".": 0.03}}), time=6.0)
    assert [t.word for t in rec.game.turns] == ["MAD", "KI."]
    assert not rec.actions[-1].get("uncounted")


def test_a_third_blank_read_clearly_makes_a_plain_letter_of_the_recorded_blank_it_may_be(
        english, wespa):
    """QI was recorded as Qi: the network took the plain I for a blank (I 10%). When the set's
    two blanks are then read clearly in ION, the recorded blank that the camera gives some
    chance of being its own letter is that letter: Qi is corrected to QI and .on counted. Read
    as a blank alone (I 1%), nothing tells which blank is wrong: .on is recorded past the
    count."""
    for chance, mended in ((0.1, True), (0.01, False)):
        rec = recorder(english, wespa, Lexicon(["QI", "ION"]))
        doubt = {(7, 7): {"?": 1.0 - chance, "I": chance}}
        camera(rec, probs_of(put(Board(), "8G", "Qi"), doubt), time=1.0)
        assert rec.game.turns[-1].word == "Qi"
        camera(rec, probs_of(put(put(Board(), "8G", "Qi"), "H9", "on"), doubt), time=6.0)
        assert [t.word for t in rec.game.turns] == (["QI", ".on"] if mended else ["Qi", ".on"])
        assert bool(rec.actions[-1].get("uncounted")) is not mended
