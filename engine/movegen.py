"""Every legal play for a rack, and the letters an undeclared blank can stand for.

The generator is Appel and Jacobson's: for each line of the board it starts at the anchors (empty
squares next to a tile), grows a left part from the rack through squares that touch nothing, then
extends right through the lexicon's graph, checking each square against the letters its cross word
allows. Scores are summed along the way; `score` in engine.play stays the definition (tests assert
the two agree).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from string import ascii_uppercase

from .board import CENTRE, SIZE, Board, Coord, premium
from .lexicon import END, Lexicon
from .play import BINGO_BONUS, RACK_SIZE, Placement, formed_words
from .tiles import BLANK, Tile, TileSet

_TILES = {(ch, blank): Tile(ch, blank) for ch in ascii_uppercase for blank in (False, True)}
_PREMIUMS = [[premium(r, c) for c in range(SIZE)] for r in range(SIZE)]


@dataclass(frozen=True)
class Move:
    """A legal play in GCG terms: coordinate, word ('.' for a square played through, lower case
    for a blank) and score. The tiles it puts down follow from those, so they are worked out only
    when asked for: most generated moves are never looked at closely."""

    coord: Coord
    word: str
    score: int

    @cached_property
    def placements(self) -> tuple[Placement, ...]:
        """The tiles put down, in reading order."""
        return tuple(
            Placement(r, c, _TILES[ch.upper(), ch.islower()])
            for (r, c), ch in zip(self.coord.cells(len(self.word)), self.word, strict=True)
            if ch != "."
        )

    @property
    def tiles(self) -> str:
        """Faces taken from the rack, e.g. 'AE?'."""
        return "".join(BLANK if ch.islower() else ch for ch in self.word if ch != ".")

    def __str__(self) -> str:
        return f"{self.coord} {self.word} {self.score}"


def generate(board: Board, rack: str, lexicon: Lexicon, tileset: TileSet) -> list[Move]:
    """All legal plays of tiles from `rack` (faces such as 'AEIRST?'), each once.

    A single tile that forms words both ways is reported once, reading across (as engine.play
    reads it). On an empty board plays through the centre are generated both across and down.
    The rack is taken to come from the bag: tile-set counts are not checked again. Moves come
    in the same order every run, so choices among equal moves are repeatable.
    """
    for face in rack:
        if face != BLANK and face not in ascii_uppercase:
            raise ValueError(f"rack faces are A-Z or {BLANK!r}, got {rack!r}")
    letters = [
        [None if (t := board.at(r, c)) is None else t.letter for c in range(SIZE)]
        for r in range(SIZE)
    ]
    values = [
        [0 if (t := board.at(r, c)) is None else tileset.value(t) for c in range(SIZE)]
        for r in range(SIZE)
    ]
    moves: list[Move] = []
    counts = {ch: rack.count(ch) for ch in set(rack) if ch != BLANK}
    gen = _LineGenerator(lexicon.root, counts, rack.count(BLANK), tileset, moves)
    empty = board.is_empty
    for across in (True, False):
        if across:
            grid, vgrid = letters, values
        else:
            grid = [list(col) for col in zip(*letters, strict=True)]
            vgrid = [list(col) for col in zip(*values, strict=True)]
        for line in range(SIZE):
            gen.run(grid, vgrid, line, across, empty)
    return moves


@dataclass(frozen=True)
class _LeftPart:
    """Rack tiles that can start a word, and the rack after them (`counts` is lent to _extend,
    which takes tiles from it and puts them back)."""

    word: str  # lower case for blanks
    node: dict
    counts: dict[str, int]
    blanks: int
    nexts: frozenset[str]  # letters that can follow with the tiles left


class _LineGenerator:
    """Generation along one line at a time; `grid` is the board read so that lines are rows."""

    def __init__(
        self, root: dict, counts: dict[str, int], blanks: int, tileset: TileSet, out: list[Move]
    ) -> None:
        self.root = root
        self.values = {ch: tileset.values[ch] for ch in ascii_uppercase if ch in tileset.values}
        self.out = out
        self.tiles = sum(counts.values()) + blanks
        self.lefts: list[_LeftPart] = []
        self._collect_lefts(root, "", dict(counts), blanks)
        self.lefts.sort(key=lambda part: len(part.word))
        self.rack = counts, blanks
        self.counts, self.blanks = counts, blanks  # what is left on the rack as _extend runs

    def _collect_lefts(self, node: dict, word: str, counts: dict[str, int], blanks: int) -> None:
        """Every left part the rack can spell along the graph, leaving a tile for the anchor."""
        left = self.tiles - len(word)
        if left == 0:
            return
        nexts = [ch for ch in node if ch != END and (blanks or counts.get(ch))]
        self.lefts.append(_LeftPart(word, node, dict(counts), blanks, frozenset(nexts)))
        if left == 1:
            return
        for ch in nexts:  # graph order, not set order, so the moves come in a repeatable order
            child = node[ch]
            if counts.get(ch):
                counts[ch] -= 1
                self._collect_lefts(child, word + ch, counts, blanks)
                counts[ch] += 1
            if blanks:
                self._collect_lefts(child, word + ch.lower(), counts, blanks - 1)

    def run(
        self, grid: list[list], vgrid: list[list[int]], line: int, across: bool, empty: bool
    ) -> None:
        row = grid[line]
        self.row, self.rowvals, self.line, self.across = row, vgrid[line], line, across
        self.prem = [_PREMIUMS[line][i] if across else _PREMIUMS[i][line] for i in range(SIZE)]
        if empty:
            if line != (CENTRE[0] if across else CENTRE[1]):
                return
            anchors = [CENTRE[1] if across else CENTRE[0]]
            self.allowed = [None] * SIZE
            self.cross_sum = [0] * SIZE
        else:
            anchors = [
                i
                for i in range(SIZE)
                if row[i] is None
                and (
                    (i > 0 and row[i - 1] is not None)
                    or (i < SIZE - 1 and row[i + 1] is not None)
                    or (line > 0 and grid[line - 1][i] is not None)
                    or (line < SIZE - 1 and grid[line + 1][i] is not None)
                )
            ]
            if not anchors:
                return
            self._cross_checks(grid, vgrid, line)
        is_anchor = set(anchors)
        for anchor in anchors:
            self.anchor = anchor
            if anchor > 0 and row[anchor - 1] is not None:
                start = anchor - 1
                while start > 0 and row[start - 1] is not None:
                    start -= 1
                node = self.root
                for ch in row[start:anchor]:
                    node = node.get(ch)
                    if node is None:
                        break
                else:
                    self.counts, self.blanks = self.rack
                    main = sum(self.rowvals[start:anchor])
                    self._extend(node, anchor, "." * (anchor - start), main, 1, 0, self.tiles)
                continue
            limit = 0
            while (
                limit < anchor
                and row[anchor - limit - 1] is None
                and (anchor - limit - 1 not in is_anchor)
            ):
                limit += 1
            allowed = self.allowed[anchor]
            for part in self.lefts:
                if len(part.word) > limit:
                    break
                if allowed is not None and part.nexts.isdisjoint(allowed):
                    continue
                self.counts, self.blanks = part.counts, part.blanks
                self._extend(part.node, anchor, part.word, 0, 1, 0, self.tiles - len(part.word))

    def _cross_checks(self, grid: list[list], vgrid: list[list[int]], line: int) -> None:
        """For each empty square, the letters its perpendicular word allows (None: no such word)
        and the points of that word's existing tiles."""
        root = self.root
        allowed: list[frozenset[str] | None] = [None] * SIZE
        cross_sum = [0] * SIZE
        for i in range(SIZE):
            if grid[line][i] is not None:
                continue
            top = line
            while top > 0 and grid[top - 1][i] is not None:
                top -= 1
            bottom = line
            while bottom < SIZE - 1 and grid[bottom + 1][i] is not None:
                bottom += 1
            if top == bottom:
                continue
            node = root
            for k in range(top, line):
                node = node.get(grid[k][i])
                if node is None:
                    break
            ok = set()
            if node is not None:
                below = [grid[k][i] for k in range(line + 1, bottom + 1)]
                for ch, child in node.items():
                    for b in below:
                        if child is None:
                            break
                        child = child.get(b)
                    if ch != END and child is not None and END in child:
                        ok.add(ch)
            allowed[i] = frozenset(ok)
            cross_sum[i] = sum(vgrid[k][i] for k in range(top, bottom + 1))
        self.allowed, self.cross_sum = allowed, cross_sum

    def _extend(
        self, node: dict, pos: int, word: str, main: int, mult: int, cross: int, tiles: int
    ) -> None:
        """Extend `word` (ending before square `pos`) rightwards through the graph at `node`,
        with `tiles` tiles left on the rack.

        `main`, `mult` and `cross` score the squares from the anchor on (and tiles played
        through before it); a left part from the rack is scored when the play is recorded.
        """
        row = self.row
        while pos < SIZE and row[pos] is not None:
            node = node.get(row[pos])
            if node is None:
                return
            word += "."
            main += self.rowvals[pos]
            pos += 1
        if END in node and pos > self.anchor and len(word) > 1:
            self._record(pos - len(word), word, main, mult, cross, self.tiles - tiles)
        if pos == SIZE or not tiles:
            return
        allowed = self.allowed[pos]
        lm, wm = self.prem[pos]
        # A cross word here scores its tiles already down plus the new one, times the premium.
        crossing = None if allowed is None else self.cross_sum[pos]
        counts, values, extend = self.counts, self.values, self._extend
        # A tile down on the next square must continue the word: check before recursing.
        after = row[pos + 1] if pos + 1 < SIZE else None
        for ch, child in node.items():
            if allowed is None:
                if ch == END:
                    continue
            elif ch not in allowed:
                continue
            if after is not None and after not in child:
                continue
            if counts.get(ch):
                value = values[ch] * lm
                more = cross if crossing is None else cross + (crossing + value) * wm
                counts[ch] -= 1
                extend(child, pos + 1, word + ch, main + value, mult * wm, more, tiles - 1)
                counts[ch] += 1
            if self.blanks:
                more = cross if crossing is None else cross + crossing * wm
                self.blanks -= 1
                extend(child, pos + 1, word + ch.lower(), main, mult * wm, more, tiles - 1)
                self.blanks += 1

    def _record(self, start: int, word: str, main: int, mult: int, cross: int, used: int) -> None:
        """Add the left part's score (its squares touch nothing, so no cross words) and keep."""
        if used == 1 and not self.across and self.allowed[self.anchor] is not None:
            return  # a single tile with a word across is reported by the across pass
        for i in range(start, self.anchor):
            ch = word[i - start]
            if ch != ".":
                lm, wm = self.prem[i]
                if ch < "a":  # upper case: a lettered tile, not a blank
                    main += self.values[ch] * lm
                mult *= wm
        points = main * mult + cross + (BINGO_BONUS if used == RACK_SIZE else 0)
        line = self.line
        coord = Coord(line, start, True) if self.across else Coord(start, line, False)
        self.out.append(Move(coord, word, points))


def blank_letters(
    lexicon: Lexicon,
    board: Board,
    placed: tuple[Placement, ...],
    unknown: Collection[int] | None = None,
    own_words: bool = False,
) -> list[tuple[str, ...]]:
    """Every way to name the blanks at placed[i], i in `unknown` (default: every blank placed),
    so that all words the play forms are in the lexicon (with `own_words`, only the words
    that run through a blank: how a phony's blank was most likely meant): one tuple of
    letters per way, in the order of `unknown`, sorted. The letters those placements carry
    now are ignored.

    The play must already satisfy the placement rules (engine.play.validate).
    """
    indices = (
        sorted(i for i, p in enumerate(placed) if p.tile.blank)
        if unknown is None
        else list(unknown)
    )
    spell = spelled(board, placed, [(placed[i].row, placed[i].col) for i in indices], own_words)
    return [
        choice
        for choice in product(ascii_uppercase, repeat=len(indices))
        if all(text in lexicon for text in spell(choice))
    ]


def likeliest_blanks(
    lexicon: Lexicon,
    board: Board,
    placed: tuple[Placement, ...],
    namings: list[tuple[str, ...]] | None = None,
) -> list[tuple[str, ...]]:
    """`namings` of the blanks placed (as blank_letters gives them; default every naming),
    likeliest first: by how much the words through the blanks read like the lexicon's own
    words (engine.spelling). The camera cannot see a blank's letter, so this is the guess
    recorded while the operator is asked; ties keep their order."""
    blanks = [(p.row, p.col) for p in placed if p.tile.blank]
    if namings is None:
        namings = list(product(ascii_uppercase, repeat=len(blanks)))
    spell = spelled(board, placed, blanks, own_words=True)
    model = lexicon.spelling
    return sorted(
        namings, key=lambda naming: sum(map(model.log_likelihood, spell(naming))), reverse=True
    )


def spelled(
    board: Board,
    placed: tuple[Placement, ...],
    blanks: list[tuple[int, int]],
    own_words: bool,
) -> Callable[[tuple[str, ...]], list[str]]:
    """The words the play forms (with `own_words`, those through a blank), as spelt when the
    blanks on these squares stand for the letters given."""
    after = board.with_tiles((p.row, p.col, p.tile) for p in placed)
    words = formed_words(board, placed)
    if own_words:
        words = [squares for squares in words if set(blanks) & set(squares)]

    def spell(letters: tuple[str, ...]) -> list[str]:
        named = dict(zip(blanks, letters, strict=True))
        return ["".join(named.get(sq) or after.at(*sq).letter for sq in word) for word in words]

    return spell
