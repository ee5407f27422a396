"""The colour check that settles unsure blank-or-empty readings (vision/colour.py)."""

import cv2
import numpy as np
import pytest

from tilecast.vision.colour import (
    BLANK,
    COLOUR,
    EMPTY,
    PREMIUM_TYPE,
    UNKNOWN,
    centre_colours,
    weigh_by_colour,
)

TILE = (200, 230, 240)  # BGR: a cream tile face
SQUARE = (90, 140, 60)  # a green plain square


def lab(bgr):
    return cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2Lab)[0, 0].astype(np.float32)


def test_centre_colour_is_the_middle_of_the_crop_not_its_margin():
    cell = np.full((64, 64, 3), SQUARE, np.uint8)
    cell[16:48, 16:48] = TILE  # the margin (a neighbour, the grid) is another colour
    grey = np.full((40, 40), 128, np.uint8)
    colours = centre_colours([cell, grey])
    assert np.allclose(colours[0, :3], lab(TILE), atol=1)
    assert np.allclose(colours[1, :3], lab((128, 128, 128)), atol=1)
    assert colours[0, 3] == 0 and colours[1, 3] == 0  # plain middles


def test_a_letter_in_the_middle_spreads_its_lightness():
    cell = np.full((64, 64, 3), TILE, np.uint8)
    plain = centre_colours([cell])[0, 3]
    cv2.putText(cell, "E", (20, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 3)
    assert plain == 0 and centre_colours([cell])[0, 3] > 30


def test_a_plain_face_off_the_middle_is_still_plain():
    """A blank seen half a square off its square (a tilted camera): the edge between it and the
    neighbouring tile runs across the crop's middle, but the blank's own face is plain. A
    lettered tile in the same place is not."""
    cell = np.full((64, 64, 3), TILE, np.uint8)
    cell[:, 40:] = (40, 60, 90)  # the neighbour's dark edge and the gap, across the middle
    assert centre_colours([cell])[0, 3] < COLOUR.plain
    cv2.putText(cell, "W", (2, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 20), 3)
    assert centre_colours([cell])[0, 3] > 2 * COLOUR.plain


def test_a_batch_of_crops_reads_as_each_crop_alone():
    rng = np.random.default_rng(3)
    cells = rng.integers(0, 256, (5, 64, 64, 3), dtype=np.uint8)
    cv2.putText(cells[2], "Q", (16, 46), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3)
    assert np.array_equal(centre_colours(cells), centre_colours(list(cells)))
    grey = cells[..., 0]
    assert np.array_equal(centre_colours(grey), centre_colours(list(grey)))


LETTER, PLAIN = 40.0, 2.0  # the lightness spread of a lettered middle and of a plain one


def frame(unsure_reading, unsure_colour, unsure_square=None, tile=TILE, square=SQUARE,
          unsure_spread=PLAIN):
    """Ten sure letters, ten sure empty plain squares and one unsure cell (on a plain square
    unless told, its middle plain unless told); colours BGR, or CIELAB arrays."""
    def as_lab(c):
        return c if isinstance(c, np.ndarray) else lab(c)

    probs = np.full((21, 28), 1e-4, np.float32)
    probs[:10, 0] = 1  # A, surely
    probs[10:20, EMPTY] = 1
    probs[20, BLANK], probs[20, EMPTY] = unsure_reading
    colours = np.array([as_lab(tile)] * 10 + [as_lab(square)] * 10 + [as_lab(unsure_colour)])
    spreads = np.array([LETTER] * 10 + [PLAIN] * 10 + [unsure_spread], np.float32)
    colours = np.c_[colours, spreads].astype(np.float32)
    plain = np.flatnonzero(PREMIUM_TYPE == "")
    squares = np.concatenate([plain[:20], [plain[20] if unsure_square is None else unsure_square]])
    return probs / probs.sum(1, keepdims=True), colours, squares


def test_an_unsure_square_in_the_tiles_colour_is_a_blank():
    probs, colours, squares = frame((0.3, 0.7), TILE)
    out = weigh_by_colour(probs, colours, squares)
    assert out[20].argmax() == BLANK and out[20, EMPTY] < 0.01
    assert np.isclose(out[20].sum(), 1) and np.array_equal(out[:20], probs[:20])
    assert probs[20].argmax() == EMPTY  # the input is left as it was


def test_an_unsure_blank_in_the_squares_colour_is_an_empty_square():
    probs, colours, squares = frame((0.8, 0.2), SQUARE)
    assert weigh_by_colour(probs, colours, squares)[20].argmax() == EMPTY


def test_sure_readings_and_colours_between_the_two_are_left_alone():
    probs, colours, squares = frame((0.005, 0.995), TILE)
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)
    between = (np.float32(TILE) + np.float32(SQUARE)) / 2
    probs, colours, squares = frame((0.3, 0.7), tuple(int(v) for v in between))
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)


def test_glare_on_a_square_does_not_make_it_a_tile():
    # blue tiles on a board whose squares are a darker blue: glare lifts a square's lightness
    # to the tiles' but leaves its hue
    tile, square = np.float32([150, 128, 140]), np.float32([60, 120, 128])
    glared = np.float32([150, 120, 128])
    probs, colours, squares = frame((0.3, 0.7), glared, tile=tile, square=square)
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)
    probs, colours, squares = frame((0.3, 0.7), tile.copy(), tile=tile, square=square)
    assert weigh_by_colour(probs, colours, squares)[20].argmax() == BLANK


def test_tiles_and_squares_of_like_colour_tell_nothing():
    tile, square = np.float32([180, 128, 128]), np.float32([150, 128, 128])  # greys
    probs, colours, squares = frame((0.3, 0.7), tile.copy(), tile=tile, square=square)
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)


def test_square_colours_come_from_squares_of_the_same_premium_type():
    # double-letter squares have their own colour, here the tiles': a tile-coloured cell on
    # one is as likely empty as a blank, whatever the plain squares look like
    dl = np.flatnonzero(PREMIUM_TYPE == "DL")
    probs, colours, squares = frame((0.3, 0.7), TILE, unsure_square=dl[0])
    probs, colours = np.r_[probs, [probs[10]] * 3], np.r_[colours, [colours[0]] * 3]
    colours[-3:, 3] = PLAIN
    squares = np.r_[squares, dl[1:4]]
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)


def test_without_empty_squares_of_its_type_a_cell_in_the_tiles_colour_is_a_blank():
    # crops of occupied squares alone, or a premium type all covered: no square of the cell's
    # type to compare with, so it is judged by the tiles' own spread of colour
    dl = int(np.flatnonzero(PREMIUM_TYPE == "DL")[0])
    probs, colours, squares = frame((0.3, 0.7), TILE, unsure_square=dl)
    colours[:10, 1] += np.linspace(-3, 3, 10, dtype=np.float32)  # tiles differ a little
    assert weigh_by_colour(probs, colours, squares)[20].argmax() == BLANK
    probs, colours, squares = frame((0.3, 0.7), TILE, unsure_square=dl, unsure_spread=LETTER)
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)  # printed: a premium
    off = lab(TILE) + np.float32([0, 12, 0])  # further from the tiles than they lie
    probs, colours, squares = frame((0.3, 0.7), off, unsure_square=dl)
    colours[:10, 1] += np.linspace(-3, 3, 10, dtype=np.float32)
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)


def test_without_sure_tiles_nothing_changes():
    probs, colours, squares = frame((0.3, 0.7), TILE)
    probs[:10] = probs[10]  # an empty board: no tile colour to compare with
    assert np.array_equal(weigh_by_colour(probs, colours, squares), probs)


def test_the_premium_layout_looks_the_same_turned_or_mirrored():
    # the reader weighs squares in the camera's own grid, before it turns the board upright
    grid = PREMIUM_TYPE.reshape(15, 15)
    assert all(np.array_equal(grid, np.rot90(grid, k)) for k in range(4))
    assert np.array_equal(grid, grid.T) and np.array_equal(grid, grid[:, ::-1])


def test_a_tile_coloured_cell_keeps_the_letter_it_was_fairly_read_as():
    probs, colours, squares = frame((0.01, 0.55), TILE, unsure_spread=LETTER)
    probs[20, 4] = 0.44  # E, the best tile reading
    probs[20] /= probs[20].sum()
    out = weigh_by_colour(probs, colours, squares)
    assert out[20].argmax() == 4 and out[20, 4] > 0.9 and out[20, EMPTY] < 0.01


def test_a_plain_tile_coloured_cell_is_a_blank_whatever_letter_came_second():
    # no letter in its middle: the network's runner-up letter is noise
    probs, colours, squares = frame((0.01, 0.55), TILE)
    probs[20, 4] = 0.44
    probs[20] /= probs[20].sum()
    out = weigh_by_colour(probs, colours, squares)
    assert out[20].argmax() == BLANK and out[20, EMPTY] < 0.01


def test_unknown_squares_compare_plain_cells_with_plain_ones():
    # crops whose squares are unknown: dark printed premium squares share the tiles' colour,
    # plain squares are pale; a plain tile-coloured cell is a blank, a printed one stays empty
    probs, colours, squares = frame((0.3, 0.7), TILE)
    printed = np.r_[lab(TILE) + np.float32([4, 0, 0]), LETTER]
    probs, colours = np.r_[probs, [probs[10]] * 5, [probs[20]]], np.r_[colours, [printed] * 6]
    types = np.full(len(probs), UNKNOWN)
    out = weigh_by_colour(probs, colours, types=types)
    assert out[20].argmax() == BLANK
    assert np.array_equal(out[-1], probs[-1])  # printed: not made a tile by colour


def test_bad_input_is_named():
    probs, colours, squares = frame((0.3, 0.7), TILE)
    with pytest.raises(ValueError, match="squares"):
        weigh_by_colour(probs, colours)  # 21 cells, not the whole board
    with pytest.raises(ValueError, match="float32"):
        centre_colours([np.zeros((64, 64, 3), np.float32)])


def test_a_cell_in_lamplight_is_compared_with_the_squares_and_tiles_around_it():
    """A lamp on one side lifts and yellows everything there: an empty square under it can
    be nearer in colour to the tiles across the board than to the board's squares at large,
    and a blank under it far from both. Each is judged by the references around it."""
    lit = (np.arange(225) % 15 >= 11)[:, None]
    tile = np.where(lit, [230, 142, 185], [200, 135, 160])  # CIELAB: cream, yellowed in the lamp
    square = np.where(lit, [190, 134, 158], [150, 128, 135])
    is_tile = np.arange(225) // 15 < 7
    probs = np.full((225, 28), 1e-4, np.float32)
    probs[is_tile, 0] = 1  # A, surely
    probs[~is_tile, EMPTY] = 1
    colours = np.c_[np.where(is_tile[:, None], tile, square),
                    np.where(is_tile, LETTER, PLAIN)].astype(np.float32)
    cell = 10 * 15 + 12
    assert PREMIUM_TYPE[cell] == "" and lit[cell]
    probs[cell, [BLANK, EMPTY]] = 0.6, 0.4  # read as a blank, unsurely
    assert weigh_by_colour(probs, colours)[cell].argmax() == EMPTY
    probs[cell, [BLANK, EMPTY]] = 0.3, 0.7  # a blank read as an empty square
    colours[cell, :3] = tile[cell]
    assert weigh_by_colour(probs, colours)[cell].argmax() == BLANK


def spread_tiles(colours):
    """The sure tiles' colours varied along b by 10 either way, in turn, as a set's tiles vary
    (the tiles' own spread; their median, near any cell, stays where it was)."""
    colours[:10, 2] += np.float32([10, -10] * 5)
    return colours


def test_a_blank_read_fairly_surely_needs_more_to_be_made_an_empty_square():
    """A pale blank on a pale board, or one with a broad pale mark, lies nearer the squares'
    colour than the lettered tiles'; the network, which saw its edges, keeps it unless the
    square's colour is far nearer (`strict_ratio`) than needed the other way (`ratio`)."""
    tile, square = np.float32([150, 128, 160]), np.float32([150, 128, 128])
    pale = np.float32([150, 128, 137])  # 2.6 times nearer the square than the tiles
    probs, colours, squares = frame((0.7, 0.3), pale, tile=tile, square=square)
    assert weigh_by_colour(probs, spread_tiles(colours), squares)[20].argmax() == BLANK
    probs, colours, squares = frame((0.3, 0.7), tile + np.float32([0, 0, -9]), tile=tile,
                                    square=square)  # the same 2.6 times, towards the tiles
    assert weigh_by_colour(probs, spread_tiles(colours), squares)[20].argmax() == BLANK


def test_a_plain_cell_further_from_the_tiles_than_they_lie_is_no_blank():
    """A rack in front of the board or a hand over it, plain and of a colour like the tiles'
    (wood, skin), nearer them than the squares but further than the set's tiles lie from
    their colour, is not taken for a blank."""
    tile, square = np.float32([150, 128, 160]), np.float32([150, 128, 100])
    rack = np.float32([70, 128, 150])  # darker: 2.4 times nearer the tiles than the square
    probs, colours, squares = frame((0.3, 0.7), rack, tile=tile, square=square)
    assert weigh_by_colour(probs, spread_tiles(colours), squares)[20].argmax() == EMPTY
    probs, colours, squares = frame((0.3, 0.7), tile + np.float32([20, 0, -4]), tile=tile,
                                    square=square)  # a blank in a little more light
    assert weigh_by_colour(probs, spread_tiles(colours), squares)[20].argmax() == BLANK
