"""Move inference from per-cell probabilities: constraints fix single misreads."""

import pytest

from tests.conftest import put
from tilecast.engine.board import Board, parse_coord
from tilecast.engine.infer import (
    CLASSES,
    EMPTY_CLASS,
    board_change,
    infer_phony,
    infer_play,
    line_groups,
)
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.play import placements_for

LEX = Lexicon(["CAT", "CATS", "AT", "TA", "COT", "ACT", "QI", "ZA", "QAT"])


def probs_for(board, readings=None):
    """Probabilities as a sharp classifier would give for `board`, with `readings` overriding
    squares: {(r, c): {class_char: p, ...}}."""
    rows = []
    for r in range(15):
        for c in range(15):
            p = [0.0] * len(CLASSES)
            tile = board.at(r, c)
            if tile is None:
                p[EMPTY_CLASS] = 1.0
            else:
                p[CLASSES.index("?" if tile.blank else tile.letter)] = 1.0
            over = (readings or {}).get((r, c))
            if over:
                p = [over.get(ch, 0.0) for ch in CLASSES]
            rows.append(p)
    return rows


def after(board, coord, word):
    placed = placements_for(board, parse_coord(coord), word)
    return board.with_tiles((p.row, p.col, p.tile) for p in placed)


def test_clean_reading_gives_the_play(english):
    seen = after(Board(), "8G", "CAT")
    probs = probs_for(seen)
    change = board_change(Board(), probs)
    assert change.added == ((7, 6), (7, 7), (7, 8)) and not change.removed
    got = infer_play(Board(), probs, change.added, english, LEX)
    assert got.legal and (str(got.coord), got.word) == ("8G", "CAT")


def test_misread_letter_is_corrected_by_the_lexicon(english):
    seen = after(Board(), "8G", "CAT")
    # the camera prefers O over A on the middle square
    probs = probs_for(seen, {(7, 7): {"O": 0.5, "A": 0.3, "Q": 0.2}})
    assert infer_play(Board(), probs, ((7, 6), (7, 7), (7, 8)), english, LEX).word == "COT"
    lex = Lexicon(["CAT"])
    got = infer_play(Board(), probs, ((7, 6), (7, 7), (7, 8)), english, lex)
    assert got.word == "CAT" and got.legal and got.probability == pytest.approx(0.3)


def test_the_search_stops_at_the_probability_floor(english):
    # CAT needs the 0.3 reading; with a floor above it the best reading (COT, no word in
    # this lexicon) comes back unmended, as the recorder wants for a clear phony.
    probs = probs_for(after(Board(), "8G", "CAT"), {(7, 7): {"O": 0.5, "A": 0.3, "Q": 0.2}})
    squares, lex = ((7, 6), (7, 7), (7, 8)), Lexicon(["CAT"])
    assert infer_play(Board(), probs, squares, english, lex, floor=0.25).word == "CAT"
    got = infer_play(Board(), probs, squares, english, lex, floor=0.35)
    assert not got.legal and got.word == "COT"


def test_a_phony_is_read_with_the_fewest_phony_words_a_likely_letter_allows(english):
    # Under 8G CAT, two tiles make KH or HH across and CK or CH, AH down: no letters make
    # every word sound. KH makes two words phony (KH, CK), HH only one (HH).
    board, lex = after(Board(), "8G", "CAT"), Lexicon(["CAT", "CH", "AH"])
    squares = ((8, 6), (8, 7))
    doubtful = probs_for(board, {(8, 6): {"K": 0.7, "H": 0.3}, (8, 7): {"H": 1.0}})
    assert infer_play(board, doubtful, squares, english).word == "KH"
    got = infer_phony(board, doubtful, squares, english, lex, odds=0.25)
    assert got is not None and got.legal and got.word == "HH"
    assert got.probability == pytest.approx(0.3)
    # a letter read far likelier stands, a second phony word and all
    sure = probs_for(board, {(8, 6): {"K": 0.85, "H": 0.15}, (8, 7): {"H": 1.0}})
    assert infer_phony(board, sure, squares, english, lex, odds=0.25).word == "KH"
    # a reading whose words are all sound is no phony: it is weighed elsewhere
    assert infer_phony(board, doubtful, squares, english, Lexicon(["CAT", "CH", "AH", "HH"]),
                       odds=0.25).word == "KH"
    # a blank stands for the letter that leaves fewest words phony: as H, only its own row
    blank = probs_for(board, {(8, 6): {"K": 0.6, "?": 0.4}, (8, 7): {"H": 1.0}})
    got = infer_phony(board, blank, squares, english, lex, odds=0.25)
    assert got.placed[0].tile.blank


def test_tile_counts_rule_out_impossible_letters_without_a_lexicon(english):
    board = after(Board(), "8G", "ZA")  # the only Z is on the board
    probs = probs_for(board, {(8, 6): {"Z": 0.6, "Q": 0.4}, (8, 7): {"A": 0.9, "I": 0.1}})
    got = infer_play(board, probs, ((8, 6), (8, 7)), english)
    assert got.legal and got.word == "QA"


def test_blank_letter_from_the_lexicon(english):
    board = after(Board(), "8G", "CA")
    probs = probs_for(board, {(7, 8): {"?": 0.95, "T": 0.05}})
    got = infer_play(board, probs, ((7, 8),), english, LEX)
    assert got.legal and got.word == "..t" and got.blank_options == (("T",),)


def test_no_legal_reading_is_reported_not_invented(english):
    probs = probs_for(Board(), {(0, 0): {"A": 1.0}, (0, 1): {"T": 1.0}})
    got = infer_play(Board(), probs, ((0, 0), (0, 1)), english, LEX)
    assert not got.legal and got.reason.startswith("centre")


def test_removed_and_misread_tiles_are_seen(english):
    board = after(Board(), "8G", "CAT")
    probs = probs_for(Board(), {(7, 6): {"C": 1.0}, (7, 7): {"O": 0.97, "A": 0.03}})
    change = board_change(board, probs)
    assert change.removed == ((7, 8),) and change.misread == ((7, 7),) and not change.added


def test_line_groups_split_runs_at_empty_squares():
    board = put(Board(), "8D", "WINDY")
    groups = {tuple(g) for g in line_groups(board, [(6, 3), (6, 4), (6, 9), (8, 3)])}
    assert ((6, 3), (6, 4)) in groups and ((6, 9),) in groups
    assert ((6, 3), (7, 3), (8, 3))[::2] in groups  # joined through the W of WINDY
