"""The 15x15 board: premium squares, GCG coordinates and an immutable grid of tiles."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .tiles import BLANK, Tile

SIZE = 15
CENTRE = (7, 7)
COLUMNS = "ABCDEFGHIJKLMNO"

# Premium layout of the standard board, row 1 at the top: T = triple word, D = double word
# (the centre star is a double word), t = triple letter, d = double letter.
_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
# (letter multiplier, word multiplier) for each layout symbol.
_PREMIUM = {".": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}


def premium(row: int, col: int) -> tuple[int, int]:
    """(letter multiplier, word multiplier) printed on a square (0-based row and column)."""
    return _PREMIUM[_LAYOUT[row][col]]


def premium_name(row: int, col: int) -> str:
    """'TW', 'DW', 'TL', 'DL' or '' for a plain square; the centre star is 'DW'."""
    return {"T": "TW", "D": "DW", "t": "TL", "d": "DL", ".": ""}[_LAYOUT[row][col]]


@dataclass(frozen=True)
class Coord:
    """Where a play starts and which way it reads."""

    row: int
    col: int
    across: bool

    def __str__(self) -> str:
        return format_coord(self)

    def cells(self, length: int) -> list[tuple[int, int]]:
        dr, dc = (0, 1) if self.across else (1, 0)
        return [(self.row + i * dr, self.col + i * dc) for i in range(length)]


_ACROSS = re.compile(r"^(\d{1,2})([A-Oa-o])$")
_DOWN = re.compile(r"^([A-Oa-o])(\d{1,2})$")


def parse_coord(text: str) -> Coord:
    """GCG coordinates: '8D' is row 8 reading across from column D; 'D8' reads down."""
    m = _ACROSS.match(text)
    if m:
        row, col, across = int(m[1]) - 1, COLUMNS.index(m[2].upper()), True
    else:
        m = _DOWN.match(text)
        if not m:
            raise ValueError(f"not a board coordinate: {text!r}")
        row, col, across = int(m[2]) - 1, COLUMNS.index(m[1].upper()), False
    if not 0 <= row < SIZE:
        raise ValueError(f"row out of range in coordinate {text!r}")
    return Coord(row, col, across)


def format_coord(coord: Coord) -> str:
    row, col = str(coord.row + 1), COLUMNS[coord.col]
    return row + col if coord.across else col + row


def square_name(row: int, col: int) -> str:
    """Human name of one square, e.g. 'H8'."""
    return f"{COLUMNS[col]}{row + 1}"


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


@dataclass(frozen=True)
class Board:
    """An immutable 15x15 grid; each cell holds a Tile or None."""

    cells: tuple[Tile | None, ...] = (None,) * (SIZE * SIZE)

    def __post_init__(self) -> None:
        if len(self.cells) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} cells, got {len(self.cells)}")

    def at(self, row: int, col: int) -> Tile | None:
        return self.cells[row * SIZE + col]

    def occupied(self, row: int, col: int) -> bool:
        return on_board(row, col) and self.cells[row * SIZE + col] is not None

    @property
    def is_empty(self) -> bool:
        return all(c is None for c in self.cells)

    def tiles(self) -> Iterator[tuple[int, int, Tile]]:
        """Every tile on the board as (row, col, tile), row by row."""
        for i, t in enumerate(self.cells):
            if t is not None:
                yield i // SIZE, i % SIZE, t

    def faces(self) -> list[str]:
        """Faces of all tiles on the board ('?' for blanks), for counting against the set."""
        return [t.face for _, _, t in self.tiles()]

    def with_tiles(self, placed: Iterable[tuple[int, int, Tile]]) -> Board:
        cells = list(self.cells)
        for row, col, tile in placed:
            cells[row * SIZE + col] = tile
        return Board(tuple(cells))

    def without(self, squares: Iterable[tuple[int, int]]) -> Board:
        cells = list(self.cells)
        for row, col in squares:
            cells[row * SIZE + col] = None
        return Board(tuple(cells))

    def rows(self) -> list[str]:
        """15 strings: letters, lower case for blanks, '.' for empty squares."""
        return [
            "".join("." if (t := self.at(r, c)) is None else t.notation for c in range(SIZE))
            for r in range(SIZE)
        ]

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Board:
        """Inverse of rows(); '?' is not allowed since a blank on the board reads as a letter."""
        rows = list(rows)
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise ValueError("a board needs 15 rows of 15 characters")
        cells: list[Tile | None] = []
        for r in rows:
            for ch in r:
                if ch == ".":
                    cells.append(None)
                elif ch == BLANK:
                    raise ValueError("a blank on the board must carry its letter (lower case)")
                else:
                    cells.append(Tile.from_notation(ch))
        return cls(tuple(cells))
