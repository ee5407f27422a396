import pytest

from tilecast.engine.board import Board, Coord, format_coord, parse_coord, premium, premium_name
from tilecast.engine.tiles import Tile


def test_gcg_coordinates_row_first_reads_across():
    assert parse_coord("8D") == Coord(7, 3, True)
    assert parse_coord("D8") == Coord(7, 3, False)
    assert parse_coord("15o") == Coord(14, 14, True)
    assert format_coord(Coord(0, 14, False)) == "O1"
    for text in ("8D", "D8", "1A", "O15", "12K"):
        assert format_coord(parse_coord(text)) == text


@pytest.mark.parametrize("bad", ["", "8", "D", "16A", "0A", "8P", "D16", "8DD", "A-1"])
def test_bad_coordinates_are_rejected(bad):
    with pytest.raises(ValueError, match="coordinate"):
        parse_coord(bad)


def test_premium_counts_and_symmetry():
    names = [premium_name(r, c) for r in range(15) for c in range(15)]
    assert names.count("TW") == 8
    assert names.count("DW") == 17  # 16 plus the centre star
    assert names.count("TL") == 12
    assert names.count("DL") == 24
    for r in range(15):
        for c in range(15):
            assert premium(r, c) == premium(c, r) == premium(14 - r, c) == premium(r, 14 - c)
    assert premium(7, 7) == (1, 2)
    assert premium(0, 0) == (1, 3)
    assert premium(1, 5) == (3, 1)
    assert premium(0, 3) == (2, 1)


def test_board_rows_round_trip_with_blanks():
    b = Board().with_tiles([(7, 7, Tile("Q")), (7, 8, Tile("I", blank=True))])
    rows = b.rows()
    assert rows[7] == "." * 7 + "Qi" + "." * 6
    assert Board.from_rows(rows) == b
    assert sorted(b.faces()) == ["?", "Q"]
    assert b.without([(7, 7)]).at(7, 7) is None


def test_board_rejects_bad_rows():
    with pytest.raises(ValueError):
        Board.from_rows(["." * 15] * 14)
    with pytest.raises(ValueError, match="blank"):
        Board.from_rows(["?" + "." * 14] + ["." * 15] * 14)
