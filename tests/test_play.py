"""Placement rules and scoring, from the rule texts (WESPA Appendix 1)."""

import pytest

from tilecast.engine.board import Board, parse_coord
from tilecast.engine.play import IllegalPlay, Placement, placements_for, score, validate
from tilecast.engine.tiles import Tile


def put(board, coord, word):
    placed = placements_for(board, parse_coord(coord), word)
    return board.with_tiles((p.row, p.col, p.tile) for p in placed)


def scored(board, coord, word, tileset):
    placed = placements_for(board, parse_coord(coord), word)
    validate(board, placed, tileset)
    return score(board, placed, tileset)


def rule_of(board, placed, tileset):
    with pytest.raises(IllegalPlay) as info:
        validate(board, tuple(placed), tileset)
    return info.value.rule


def tiles(*spec):
    return [Placement(r, c, Tile(ch)) for r, c, ch in spec]


def test_first_play_doubles_on_centre_star_and_dl(english):
    # W on the DL at D8, Y on the star: (8 + 1 + 1 + 2 + 4) x 2
    assert scored(Board(), "8D", "WINDY", english).total == 32


def test_first_play_must_cover_centre_and_have_two_tiles(english):
    assert rule_of(Board(), tiles((6, 3, "A"), (6, 4, "T")), english) == "centre"
    assert rule_of(Board(), tiles((7, 7, "A")), english) == "first-too-short"


def test_tiles_in_one_line_without_gaps(english):
    assert rule_of(Board(), tiles((7, 7, "A"), (8, 8, "T")), english) == "not-in-line"
    assert rule_of(Board(), tiles((7, 6, "A"), (7, 7, "T"), (7, 9, "E")), english) == "gap"


def test_gap_filled_by_existing_tile_is_fine(english):
    board = put(Board(), "8G", "CAT")
    placed = tiles((6, 7, "A"), (8, 7, "E"))  # A above, E below the A of CAT (column H)
    validate(board, tuple(placed), english)
    validate(board, tuple(tiles((7, 5, "S"), (7, 9, "S"))), english)  # S+CAT+S
    through = tiles((7, 4, "S"), (7, 5, "C"), (7, 10, "S"))
    assert rule_of(board, through, english) == "gap"  # K8 is empty


def test_play_must_connect(english):
    board = put(Board(), "8G", "CAT")
    assert rule_of(board, tiles((0, 0, "A"), (0, 1, "T")), english) == "not-connected"
    # unless told otherwise (a clear reading joining tiles the record lacks), as long as its
    # tiles form a word
    validate(board, tuple(tiles((0, 0, "A"), (0, 1, "T"))), english, connected=False)
    validate(Board(), tuple(tiles((0, 0, "A"), (0, 1, "T"))), english, connected=False)
    with pytest.raises(IllegalPlay, match="lone tile"):
        validate(board, tuple(tiles((0, 0, "A"),)), english, connected=False)


def test_squares_must_be_free_and_on_board(english):
    board = put(Board(), "8G", "CAT")
    assert rule_of(board, tiles((7, 7, "O"), (7, 10, "S")), english) == "occupied"
    with pytest.raises(IllegalPlay) as info:
        placements_for(board, parse_coord("8M"), "ABCD")
    assert info.value.rule == "off-board"


def test_playthrough_letter_must_match(english):
    board = put(Board(), "8G", "CAT")
    with pytest.raises(IllegalPlay) as info:
        placements_for(board, parse_coord("H7"), "BOT")
    assert info.value.rule == "occupied"
    assert len(placements_for(board, parse_coord("H7"), "BAT")) == 2
    assert placements_for(board, parse_coord("H7"), "B.T") == placements_for(
        board, parse_coord("H7"), "BAT"
    )
    with pytest.raises(IllegalPlay) as info:
        placements_for(board, parse_coord("H6"), "B.T")
    assert info.value.rule == "through-empty"


def test_never_more_of_a_letter_than_the_set_holds(english):
    board = put(Board(), "8H", "ZA")
    assert rule_of(board, tiles((8, 7, "Z"), (8, 8, "A")), english) == "too-many-of-letter"
    # blanks count too: two on the board already
    board = put(Board(), "8H", "ab")
    blanks = [Placement(8, 7, Tile("C", blank=True)), Placement(8, 8, Tile("D"))]
    assert rule_of(board, blanks, english) == "too-many-of-letter"


def test_premiums_only_under_new_tiles(english):
    board = put(Board(), "8D", "WINDY")  # Y already sits on the centre star
    result = scored(board, "H6", "DA.", english)  # H6 and H7 are plain squares
    assert [w.text for w in result.words] == ["DAY"]
    assert result.total == 2 + 1 + 4  # the star under the old Y doubles nothing now


def test_cross_words_each_scored_with_their_own_premiums(english):
    board = put(Board(), "8H", "AT")  # A on the star H8, T on I8
    # parallel play OX on row 7 at H7-I7 forms OX, OA, XT
    result = scored(board, "7H", "OX", english)
    texts = sorted(w.text for w in result.words)
    assert texts == ["OA", "OX", "XT"]
    o_val, x_val = 1, 8 * 2  # H7 is plain, I7 a double letter
    assert {w.text: w.score for w in result.words} == {
        "OX": o_val + x_val,
        "OA": o_val + 1,
        "XT": x_val + 1,
    }
    assert result.total == (1 + 16) + (1 + 1) + (16 + 1)


def test_blank_scores_zero_even_on_a_letter_premium_but_word_premium_applies(english):
    board = put(Board(), "8H", "AT")
    assert scored(board, "I7", "a.", english).total == 0 + 1  # blank on the DL at I7
    assert scored(Board(), "8H", "zA", english).total == (0 + 1) * 2  # blank on the star


def test_bingo_adds_fifty_after_word_multipliers(english):
    result = scored(Board(), "8H", "RETAINS", english)
    letters = 1 + 1 + 1 + 1 + 1 + 1 + 1
    # the I lands on the double letter at L8; the star doubles the word
    assert result.bingo
    assert result.total == (letters + 1) * 2 + 50


def test_single_tile_play_forming_two_words(english):
    board = put(Board(), "8G", "CAT")
    board = put(board, "G9", "AB")
    placed = tiles((8, 7, "E"))  # H9: right of A (AE) and under A of CAT (AE down)
    validate(board, tuple(placed), english)
    result = score(board, tuple(placed), english)
    assert sorted(w.text for w in result.words) == ["AE", "AE"]


def test_letter_counts_bind_unless_told_otherwise(english):
    board = Board().with_tiles((7, c, Tile("Z")) for c in range(3, 8))
    placed = placements_for(board, parse_coord("8I"), "Z")
    with pytest.raises(IllegalPlay) as refused:
        validate(board, placed, english)
    assert refused.value.rule == "too-many-of-letter"
    validate(board, placed, english, counted=False)  # the camera's clear reading stands
