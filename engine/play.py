"""Placing tiles: the placement rules, the words a play forms and its exact score."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .board import CENTRE, Board, Coord, on_board, premium, square_name
from .tiles import Tile, TileSet

BINGO_BONUS = 50
RACK_SIZE = 7


@dataclass(frozen=True)
class Placement:
    """One tile put down this turn."""

    row: int
    col: int
    tile: Tile


class IllegalPlay(ValueError):
    """A play that breaks a placement rule; `rule` names which one."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class Word:
    """A word formed by a play: its squares and letters, and the score it earned."""

    squares: tuple[tuple[int, int], ...]
    text: str
    score: int


@dataclass(frozen=True)
class Score:
    total: int
    words: tuple[Word, ...]
    bingo: bool


def placements_for(board: Board, coord: Coord, word: str) -> tuple[Placement, ...]:
    """Turn a GCG play (e.g. '8D', 'JA.e') into the tiles it puts down.

    '.' marks a square played through; a letter over an existing tile also plays through it (some
    records write those letters out) and must match it. Lower case is a blank.
    """
    if not word:
        raise IllegalPlay("empty", "a play needs at least one letter")
    placed = []
    for (row, col), ch in zip(coord.cells(len(word)), word, strict=True):
        if not on_board(row, col):
            raise IllegalPlay("off-board", f"{coord} {word} runs off the board")
        existing = board.at(row, col)
        if ch == ".":
            if existing is None:
                raise IllegalPlay(
                    "through-empty",
                    f"{coord} {word}: '.' at {square_name(row, col)} but it is empty",
                )
            continue
        if not ch.isalpha():
            raise IllegalPlay("bad-letter", f"{coord} {word}: {ch!r} is not a letter")
        tile = Tile.from_notation(ch)
        if existing is not None:
            if existing.letter != tile.letter:
                raise IllegalPlay(
                    "occupied",
                    f"{coord} {word}: {square_name(row, col)} already holds {existing.letter}",
                )
            continue
        placed.append(Placement(row, col, tile))
    if not placed:
        raise IllegalPlay("no-tiles", f"{coord} {word} places no new tile")
    return tuple(placed)


def validate(
    board: Board, placed: tuple[Placement, ...], tileset: TileSet, counted: bool = True,
    connected: bool = True,
) -> None:
    """Raise IllegalPlay naming the first placement rule this play breaks; `counted`: whether
    the set's letter counts bind (not for a play seen clearly after a record that, misread,
    already spent the letter: the play stands, the earlier record is what is wrong);
    `connected`: whether it must touch the board's tiles (or cover the centre on an empty
    board); not for a play seen clearly that joins tiles the record lacks (an earlier play
    the camera never saw): the play stands, the record is what lacks a play."""
    if not placed:
        raise IllegalPlay("no-tiles", "a play must place at least one tile")
    if len(placed) > RACK_SIZE:
        raise IllegalPlay("too-many", f"{len(placed)} tiles placed, a rack holds {RACK_SIZE}")
    squares = [(p.row, p.col) for p in placed]
    for r, c in squares:
        if not on_board(r, c):
            raise IllegalPlay("off-board", f"square ({r}, {c}) is off the board")
        if board.occupied(r, c):
            raise IllegalPlay("occupied", f"{square_name(r, c)} is already occupied")
    if len(set(squares)) != len(squares):
        raise IllegalPlay("duplicate", "two tiles placed on the same square")
    for p in placed:
        if not tileset.has_face(p.tile.face):
            raise IllegalPlay("not-in-set", f"the {tileset.name} set has no {p.tile.face!r} tile")
    rows, cols = {r for r, _ in squares}, {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay("not-in-line", "tiles must lie in one row or one column")
    across = len(rows) == 1 and (len(cols) > 1 or _has_neighbour_across(board, *squares[0]))
    _check_no_gaps(board, squares, across)
    if connected and board.is_empty:
        if CENTRE not in squares:
            raise IllegalPlay("centre", "the first play must cover the centre square")
        if len(placed) < 2:
            raise IllegalPlay("first-too-short", "the first play must have at least two tiles")
    elif not any(_touches(board, r, c) for r, c in squares):
        if connected:
            raise IllegalPlay("not-connected", "the play must touch a tile already on the board")
        if len(placed) < 2:
            raise IllegalPlay("not-connected", "a lone tile touching no other forms no word")
    over = over_counted(board, placed, tileset) if counted else {}
    if over:
        face, n = next(iter(over.items()))
        raise IllegalPlay(
            "too-many-of-letter",
            f"{n} {face!r} tiles would be on the board, the set has {tileset.counts[face]}",
        )


def over_counted(
    board: Board, placed: tuple[Placement, ...], tileset: TileSet
) -> dict[str, int]:
    """The faces this play places that the board would then hold more of than the set has,
    in order, with how many it would hold."""
    used = Counter(board.faces()) + Counter(p.tile.face for p in placed)
    faces = sorted({p.tile.face for p in placed})
    return {f: used[f] for f in faces if used[f] > tileset.counts[f]}


def _has_neighbour_across(board: Board, r: int, c: int) -> bool:
    return board.occupied(r, c - 1) or board.occupied(r, c + 1)


def _touches(board: Board, r: int, c: int) -> bool:
    return any(board.occupied(r + dr, c + dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))


def _check_no_gaps(board: Board, squares: list[tuple[int, int]], across: bool) -> None:
    line = [c if across else r for r, c in squares]
    fixed = squares[0][0] if across else squares[0][1]
    mine = set(line)
    for i in range(min(line), max(line) + 1):
        if i in mine:
            continue
        r, c = (fixed, i) if across else (i, fixed)
        if not board.occupied(r, c):
            raise IllegalPlay("gap", f"gap at {square_name(r, c)}: a play must be contiguous")


def main_direction(board: Board, placed: tuple[Placement, ...]) -> bool:
    """True when the play reads across. A single tile reads the way it forms a longer word."""
    if len({p.row for p in placed}) == 1 and len(placed) > 1:
        return True
    if len(placed) > 1:
        return False
    p = placed[0]
    return _has_neighbour_across(board, p.row, p.col) or not (
        board.occupied(p.row - 1, p.col) or board.occupied(p.row + 1, p.col)
    )


def _word_through(board: Board, r: int, c: int, across: bool) -> list[tuple[int, int]]:
    dr, dc = (0, 1) if across else (1, 0)
    while board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while board.occupied(r, c):
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def formed_words(board: Board, placed: tuple[Placement, ...]) -> list[list[tuple[int, int]]]:
    """Squares of every word of two or more letters the play forms: the main word first, then
    cross words in placement order. Assumes `validate` passed."""
    after = board.with_tiles((p.row, p.col, p.tile) for p in placed)
    across = main_direction(board, placed)
    lines = [_word_through(after, placed[0].row, placed[0].col, across)]
    lines += [_word_through(after, p.row, p.col, not across) for p in placed]
    return [squares for squares in lines if len(squares) > 1]


def score(board: Board, placed: tuple[Placement, ...], tileset: TileSet) -> Score:
    """Every word the play forms, each scored with premiums under its new tiles, plus the bingo.

    Assumes `validate` passed.
    """
    new = {(p.row, p.col): p.tile for p in placed}
    words = []
    for squares in formed_words(board, placed):
        total, word_mult, text = 0, 1, []
        for r, c in squares:
            tile = new.get((r, c)) or board.at(r, c)
            assert tile is not None
            value = tileset.value(tile)
            if (r, c) in new:
                lm, wm = premium(r, c)
                value *= lm
                word_mult *= wm
            total += value
            text.append(tile.letter)
        words.append(Word(tuple(squares), "".join(text), total * word_mult))
    bingo = len(placed) == RACK_SIZE
    return Score(sum(w.score for w in words) + (BINGO_BONUS if bingo else 0), tuple(words), bingo)
