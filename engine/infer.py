"""Reading a move from the camera's per-cell probabilities.

The classifier gives, for every square, a probability for each class (A-Z, '?' blank, '.' empty).
Rather than trusting the top label of each square, we look for the most probable set of letters
on the new squares that makes a legal play: placement rules, the tiles the set still holds and,
when a lexicon is given, every word formed. A single misread letter is then corrected by those
constraints instead of being recorded.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from string import ascii_uppercase

from .board import SIZE, Board, Coord
from .lexicon import Lexicon
from .movegen import blank_letters, likeliest_blanks, spelled
from .play import IllegalPlay, Placement, formed_words, main_direction, validate
from .tiles import Tile, TileSet

CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ?."
BLANK_CLASS, EMPTY_CLASS = 26, 27

Probs = Sequence[Sequence[float]]  # 225 rows (row-major squares) of len(CLASSES) probabilities
# Placement rules that no choice of letters can satisfy once one choice breaks them.
_SHAPE_RULES = {"too-many", "off-board", "occupied", "duplicate", "not-in-line", "centre",
                "first-too-short", "not-connected", "gap"}


@dataclass(frozen=True)
class Change:
    """How the camera's board differs from the game's board."""

    added: tuple[tuple[int, int], ...]  # empty squares that now hold a tile
    removed: tuple[tuple[int, int], ...]  # squares whose tile is gone
    misread: tuple[tuple[int, int], ...]  # tiles that confidently read as another letter

    @property
    def none(self) -> bool:
        return not (self.added or self.removed or self.misread)


def expected_class(tile: Tile) -> int:
    """The class a tile on the board should read as: a blank shows as a blank face."""
    return BLANK_CLASS if tile.blank else CLASSES.index(tile.letter)


def board_change(board: Board, probs: Probs, present: float = 0.5, sure: float = 0.9) -> Change:
    """Squares gained, lost or contradicted; `present` is the tile probability that counts as a
    tile, `sure` how confident another letter must be to call an existing tile misread."""
    added, removed, misread = [], [], []
    for i, p in enumerate(probs):
        square = divmod(i, SIZE)
        tile = board.at(*square)
        if tile is None:
            if 1.0 - p[EMPTY_CLASS] > present:
                added.append(square)
        elif p[EMPTY_CLASS] > 1.0 - present:
            removed.append(square)
        elif max(p) >= sure and max(range(len(p)), key=p.__getitem__) != expected_class(tile):
            misread.append(square)
    return Change(tuple(added), tuple(removed), tuple(misread))


@dataclass(frozen=True)
class Inferred:
    """The play read from the board, or the best reading when no legal play fits."""

    placed: tuple[Placement, ...]
    coord: Coord | None
    word: str
    probability: float
    legal: bool
    reason: str = ""
    # every lexicon-valid naming of the blanks, likeliest first (engine.movegen.likeliest_blanks)
    blank_options: tuple[tuple[str, ...], ...] = ()


def notation(board: Board, placed: tuple[Placement, ...]) -> tuple[Coord, str]:
    """GCG coordinate and word ('.' for tiles played through, lower case for blanks) of a play
    that passed validation."""
    squares = formed_words(board, placed)[0]
    new = {(p.row, p.col): p.tile for p in placed}
    word = "".join(new[sq].notation if sq in new else "." for sq in squares)
    return Coord(squares[0][0], squares[0][1], main_direction(board, placed)), word


def _candidates(p: Sequence[float], top: int) -> list[tuple[float, int]]:
    """The `top` most probable tile classes of a square, as (-log p, class), p renormalised
    over tile classes (the square is known to hold a tile)."""
    tile_mass = sum(p[:EMPTY_CLASS]) or 1.0
    ranked = sorted(range(EMPTY_CLASS), key=lambda k: -p[k])[:top]
    return [(-math.log(max(p[k] / tile_mass, 1e-12)), k) for k in ranked]


def _best_first(options: list[list[tuple[float, int]]], budget: int):
    """Choices (one per square) in order of decreasing joint probability."""
    start = (0,) * len(options)
    heap = [(sum(o[0][0] for o in options), start)]
    seen = {start}
    while heap and budget > 0:
        cost, idx = heapq.heappop(heap)
        budget -= 1
        yield cost, [options[i][j][1] for i, j in enumerate(idx)]
        for i in range(len(idx)):
            if idx[i] + 1 < len(options[i]):
                nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1 :]
                if nxt not in seen:
                    seen.add(nxt)
                    step = options[i][idx[i] + 1][0] - options[i][idx[i]][0]
                    heapq.heappush(heap, (cost + step, nxt))


def infer_play(
    board: Board,
    probs: Probs,
    squares: Sequence[tuple[int, int]],
    tileset: TileSet,
    lexicon: Lexicon | None = None,
    top: int = 4,
    budget: int = 4000,
    counted: bool = True,
    floor: float = 0.0,
    connected: bool = True,
) -> Inferred:
    """The most probable legal play on `squares` (the newly covered squares); `counted`,
    `connected`: whether the set's letter counts and the rule that a play joins the board's
    tiles bind (see play.validate); `floor`: a probability below which no reading is wanted
    (the search stops there)."""
    if not squares:
        raise ValueError("no new squares to read a play from")
    options = [_candidates(probs[r * SIZE + c], top) for r, c in squares]
    first: Inferred | None = None
    for cost, classes in _best_first(options, budget):
        if first is not None and math.exp(-cost) < floor:
            break
        placed = tuple(
            Placement(r, c, _tile(probs[r * SIZE + c], k))
            for (r, c), k in zip(squares, classes, strict=True)
        )
        reading = _judge(board, placed, tileset, lexicon, math.exp(-cost), counted, connected)
        if reading.legal or reading.reason.split(":")[0] in _SHAPE_RULES:
            return reading
        first = first or reading
    assert first is not None
    return first


def infer_phony(
    board: Board,
    probs: Probs,
    squares: Sequence[tuple[int, int]],
    tileset: TileSet,
    lexicon: Lexicon,
    odds: float,
    top: int = 4,
    budget: int = 4000,
    counted: bool = True,
    connected: bool = True,
) -> Inferred | None:
    """The likeliest legal play on `squares` that is a phony (some word not in the lexicon),
    where one that makes several words phony counts `odds` against one that makes a single
    word phony: a player's phony is one word misremembered, the rest of the play sound, so a
    reading of two phony words, where a less likely letter leaves one, is likelier a misread.
    None when no letters make a legal phony. A blank stands for whichever letter leaves the
    fewest words phony."""
    options = [_candidates(probs[r * SIZE + c], top) for r, c in squares]
    best: tuple[float, Inferred] | None = None
    for cost, classes in _best_first(options, budget):
        probability = math.exp(-cost)
        if best is not None and probability <= best[0]:
            break  # no reading left can beat it, even one with a single phony word
        placed = tuple(
            Placement(r, c, _tile(probs[r * SIZE + c], k))
            for (r, c), k in zip(squares, classes, strict=True)
        )
        try:
            validate(board, placed, tileset, counted, connected)
        except IllegalPlay as exc:
            if exc.rule in _SHAPE_RULES:
                return None
            continue
        phonies = _phony_words(board, placed, lexicon)
        if not phonies:
            continue  # the lexicon's own readings were weighed against the phony already
        weight = probability * (1.0 if phonies == 1 else odds)
        if best is None or weight > best[0]:
            coord, word = notation(board, placed)
            best = (weight, Inferred(placed, coord, word, probability, True))
    return None if best is None else best[1]


def _phony_words(board: Board, placed: tuple[Placement, ...], lexicon: Lexicon) -> int:
    """How many words of a legal play are not in the lexicon, its blanks standing for the
    letters that leave the fewest."""
    blanks = [(p.row, p.col) for p in placed if p.tile.blank]
    spell = spelled(board, placed, blanks, own_words=False)
    fewest = len(formed_words(board, placed))
    for letters in product(ascii_uppercase, repeat=len(blanks)):
        fewest = min(fewest, sum(word not in lexicon for word in spell(letters)))
        if fewest == 0:
            break
    return fewest


def line_groups(board: Board, squares: Sequence[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The runs of `squares` that could be one play: squares sharing a row (or a column) and
    joined by each other or by tiles already on the board. When the camera reads stray tiles
    (a square cut off at the frame's edge, a reflection), the real play is one of these."""
    chosen = set(squares)
    groups = []
    for across in (True, False):
        lines: dict[int, list[int]] = {}
        for r, c in squares:
            lines.setdefault(r if across else c, []).append(c if across else r)
        for fixed, along in lines.items():
            along.sort()
            run = [along[0]]
            for a in along[1:]:
                between = range(run[-1] + 1, a)
                filled = all(
                    board.occupied(*((fixed, b) if across else (b, fixed)))
                    or ((fixed, b) if across else (b, fixed)) in chosen
                    for b in between
                )
                if filled:
                    run.append(a)
                else:
                    groups.append([(fixed, x) if across else (x, fixed) for x in run])
                    run = [a]
            groups.append([(fixed, x) if across else (x, fixed) for x in run])
    unique = {tuple(sorted(g)) for g in groups}
    return [list(g) for g in unique]


def _tile(p: Sequence[float], k: int) -> Tile:
    if k != BLANK_CLASS:
        return Tile(CLASSES[k])
    # A blank's letter is unknown to the camera; a stand-in until the lexicon or operator names it.
    return Tile("A", blank=True)


def _judge(
    board: Board,
    placed: tuple[Placement, ...],
    tileset: TileSet,
    lexicon: Lexicon | None,
    probability: float,
    counted: bool = True,
    connected: bool = True,
) -> Inferred:
    try:
        validate(board, placed, tileset, counted, connected)
    except IllegalPlay as exc:
        return Inferred(placed, None, "", probability, False, f"{exc.rule}: {exc}")
    options: tuple[tuple[str, ...], ...] = ()
    if lexicon is not None:
        if any(p.tile.blank for p in placed):
            options = tuple(blank_letters(lexicon, board, placed))
            if len(options) > 1:
                options = tuple(likeliest_blanks(lexicon, board, placed, list(options)))
            if not options:
                coord, word = notation(board, placed)
                return Inferred(
                    placed,
                    coord,
                    word,
                    probability,
                    False,
                    "lexicon: no letters for the blanks make every word valid",
                )
            placed = name_blanks(placed, options[0])
        else:
            after = board.with_tiles((p.row, p.col, p.tile) for p in placed)
            for squares in formed_words(board, placed):
                text = "".join(after.at(r, c).letter for r, c in squares)  # type: ignore[union-attr]
                if text not in lexicon:
                    coord, word = notation(board, placed)
                    return Inferred(
                        placed, coord, word, probability, False, f"lexicon: {text} is not a word"
                    )
    coord, word = notation(board, placed)
    return Inferred(placed, coord, word, probability, True, blank_options=options)


def name_blanks(placed: tuple[Placement, ...], letters: tuple[str, ...]) -> tuple[Placement, ...]:
    """The placements with their blanks, in order, standing for `letters`."""
    it = iter(letters)
    return tuple(
        Placement(p.row, p.col, Tile(next(it), blank=True)) if p.tile.blank else p for p in placed
    )
