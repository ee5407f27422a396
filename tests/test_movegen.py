"""Move generation against the engine's own rules and scoring, and against a brute-force search."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterator

import pytest

from tilecast.config import load_tileset
from tilecast.engine.board import SIZE, Board, parse_coord
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.movegen import Move, blank_letters, generate, likeliest_blanks
from tilecast.engine.play import IllegalPlay, Placement, placements_for, score, validate
from tilecast.engine.tiles import BLANK, Tile, TileSet
from tilecast.lexicons import load_lexicon

TINY = (
    "AA AB AD AE AR AS AT BA BAD BAT BATS BE BED BET BETS BRA DA DAB DE EAR EARS EAST EAT EATS ED "
    "ER ERA ERAS ES ET ETA RAT RATE RATES RATS READ READS RE RED REST SAT SATE SEA SEAR SEAT SET "
    "STAR STARE TA TAB TABS TAE TAR TARE TEA TEAR TEAS TED TREAD TREE TREES"
).split()


@pytest.fixture(scope="module")
def tileset() -> TileSet:
    return load_tileset("english")


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    return load_lexicon()


def put(board: Board, move_placements: tuple[Placement, ...]) -> Board:
    return board.with_tiles((p.row, p.col, p.tile) for p in move_placements)


def rack_tiles(letters: list[str], rack: Counter[str]) -> Iterator[tuple[Tile, ...]]:
    """Each way to supply `letters` from the rack: a tile of that letter, or a blank naming it."""
    if not letters:
        yield ()
        return
    first, rest = letters[0], letters[1:]
    for face, tile in ((first, Tile(first)), (BLANK, Tile(first, blank=True))):
        if rack[face]:
            rack[face] -= 1
            for more in rack_tiles(rest, rack):
                yield (tile, *more)
            rack[face] += 1


def brute_force(
    board: Board, rack: str, words: list[str], lexicon: Lexicon, tileset: TileSet
) -> set[tuple[frozenset[Placement], int]]:
    """Every legal play, found by trying each word of the list on each stretch of each line that
    is bounded by empty squares, then checking it with engine validate() and score()."""
    by_length = defaultdict(list)
    for word in words:
        by_length[len(word)].append(word)
    have = Counter(rack)
    found = set()
    for across in (True, False):
        for line in range(SIZE):
            for start in range(SIZE):
                for end in range(start + 2, SIZE + 1):
                    squares = [(line, i) if across else (i, line) for i in range(start, end)]
                    before = (line, start - 1) if across else (start - 1, line)
                    after = (line, end) if across else (end, line)
                    if board.occupied(*before) or board.occupied(*after):
                        continue
                    fixed = [board.at(*sq) for sq in squares]
                    empty = [k for k, t in enumerate(fixed) if t is None]
                    if not empty or len(empty) > len(rack):
                        continue
                    for word in by_length[end - start]:
                        if any(
                            t is not None and t.letter != ch
                            for t, ch in zip(fixed, word, strict=True)
                        ):
                            continue
                        for tiles in rack_tiles([word[k] for k in empty], have):
                            placed = tuple(
                                Placement(*squares[k], t) for k, t in zip(empty, tiles, strict=True)
                            )
                            try:
                                validate(board, placed, tileset)
                            except IllegalPlay:
                                continue
                            result = score(board, placed, tileset)
                            if all(w.text in lexicon for w in result.words):
                                found.add((frozenset(placed), result.total))
    return found


def draw(rng: random.Random, pool: str, board: Board, tileset: TileSet, n: int) -> str:
    """A random rack of faces from `pool`, never more of a face than the set has left."""
    left = Counter(tileset.counts) - Counter(board.faces())
    rack = ""
    for _ in range(n):
        face = rng.choice([f for f in pool if left[f]])
        left[face] -= 1
        rack += face
    return rack


def ordered(play: tuple[frozenset[Placement], int]) -> list[tuple[int, int, str]]:
    return sorted((p.row, p.col, p.tile.notation) for p in play[0])


def random_board(
    words: list[str], lexicon: Lexicon, tileset: TileSet, rng: random.Random, plays: int
) -> Board:
    """A board after `plays` plays, each picked at random among those the brute force finds."""
    board = Board()
    for _ in range(plays):
        rack = draw(rng, "AABDEEERRSSTT?", board, tileset, 5)
        options = sorted(brute_force(board, rack, words, lexicon, tileset), key=ordered)
        if options:
            board = put(board, tuple(rng.choice(options)[0]))
    return board


def as_set(moves: list[Move]) -> set[tuple[frozenset[Placement], int]]:
    return {(frozenset(m.placements), m.score) for m in moves}


@pytest.mark.parametrize("seed", range(6))
def test_generator_finds_exactly_what_brute_force_finds(seed: int, tileset: TileSet) -> None:
    rng = random.Random(seed)
    lexicon = Lexicon(TINY)
    board = random_board(TINY, lexicon, tileset, rng, plays=seed % 4 + 1)
    for _ in range(3):
        rack = draw(rng, "AABDEEERRSSTT??" if seed % 2 else "AABDEEERSTT", board, tileset, 6)
        moves = generate(board, rack, lexicon, tileset)
        assert len(moves) == len(as_set(moves)), "a play was generated twice"
        assert as_set(moves) == brute_force(board, rack, TINY, lexicon, tileset)


def test_first_play_covers_the_centre_both_ways(tileset: TileSet) -> None:
    lexicon = Lexicon(TINY)
    moves = generate(Board(), "BAT", lexicon, tileset)
    assert as_set(moves) == brute_force(Board(), "BAT", TINY, lexicon, tileset)
    assert {str(m) for m in moves} >= {"8F BAT 10", "8H TAB 10", "H6 BAT 10", "H8 TA 4"}
    assert all(m.coord.row == 7 or m.coord.col == 7 for m in moves)


def test_a_play_notation_round_trips_through_the_engine(tileset: TileSet) -> None:
    lexicon = Lexicon(TINY)
    board = put(Board(), placements_for(Board(), parse_coord("8G"), "BAT"))
    moves = generate(board, "EDSR?", lexicon, tileset)
    assert any(m.word.startswith("...") or "." in m.word for m in moves)
    for move in moves:
        assert placements_for(board, move.coord, move.word) == move.placements
        assert Counter(move.tiles) <= Counter("EDSR?")


def test_single_tile_forming_two_words_is_reported_once_across(tileset: TileSet) -> None:
    # B at H8 and E at G9: an A at H9 makes EA across and BA down.
    board = Board.from_rows(
        ["." * 15] * 7 + [".......B......."] + ["......E........"] + ["." * 15] * 6
    )
    lexicon = Lexicon(["BA", "EA", "BE", "EE"])
    moves = [m for m in generate(board, "A", lexicon, tileset) if len(m.placements) == 1]
    at_h9 = [m for m in moves if m.placements[0].row == 8 and m.placements[0].col == 7]
    assert [str(m) for m in at_h9] == ["9G .A 6"]  # EA 2 + BA 4


def test_no_tiles_no_moves(tileset: TileSet) -> None:
    assert generate(Board(), "", Lexicon(TINY), tileset) == []


def test_bad_rack_face_is_rejected(tileset: TileSet) -> None:
    with pytest.raises(ValueError, match="rack"):
        generate(Board(), "ab", Lexicon(TINY), tileset)


def mid_game_positions(
    enable: Lexicon, tileset: TileSet, seed: int, count: int
) -> Iterator[tuple[Board, str]]:
    """Boards from a shuffled bag, playing a random legal move each turn, with the next rack."""
    rng = random.Random(seed)
    bag = [f for f, n in sorted(tileset.counts.items()) for _ in range(n)]
    rng.shuffle(bag)
    board, rack = Board(), ""
    for _ in range(count):
        rack += "".join(bag.pop() for _ in range(min(7 - len(rack), len(bag))))
        yield board, rack
        moves = generate(board, rack, enable, tileset)
        if not moves:
            return
        move = rng.choice(moves)
        board = put(board, move.placements)
        for face in move.tiles:
            rack = rack.replace(face, "", 1)


@pytest.mark.parametrize("seed", range(3))
def test_enable_moves_are_legal_valid_and_scored_as_the_engine_scores(
    seed: int, enable: Lexicon, tileset: TileSet
) -> None:
    rng = random.Random(seed)
    checked = 0
    for board, rack in mid_game_positions(enable, tileset, seed, count=12):
        moves = generate(board, rack, enable, tileset)
        assert len(moves) == len(as_set(moves))
        for move in rng.sample(moves, min(len(moves), 60)):
            validate(board, move.placements, tileset)
            result = score(board, move.placements, tileset)
            assert result.total == move.score, move
            assert all(w.text in enable for w in result.words), move
            assert Counter(move.tiles) <= Counter(rack)
            checked += 1
    assert checked > 300


def test_best_opening_with_enable(enable: Lexicon, tileset: TileSet) -> None:
    moves = generate(Board(), "QUIZJXK", enable, tileset)
    best = max(m.score for m in moves)
    # QUIZ doubled by the centre star; no placement through H8 reaches a double letter.
    assert best == 2 * (10 + 1 + 1 + 10)
    tops = {str(m) for m in moves if m.score == best}
    assert tops == {f"{c} QUIZ 44" for c in ("8E", "8F", "8G", "8H", "H5", "H6", "H7", "H8")}


def test_blank_letters_lists_each_word_forming_letter(tileset: TileSet) -> None:
    lexicon = Lexicon(["CAT", "CUT", "COT", "AT", "UT"])
    board = Board.from_rows(["." * 15] * 7 + [".......T......."] + ["." * 15] * 7)
    placed = (Placement(6, 7, Tile("X", blank=True)),)  # a blank above the T: ?T down
    assert blank_letters(lexicon, board, placed) == [("A",), ("U",)]
    board = put(Board(), placements_for(Board(), parse_coord("8G"), "CAT"))
    placed = (Placement(8, 7, Tile("E")), Placement(9, 7, Tile("Q", blank=True)))
    assert blank_letters(lexicon, board, placed) == []  # AE? is no word


def test_blank_letters_of_a_phony_by_the_words_through_the_blank(tileset: TileSet) -> None:
    lexicon = Lexicon(["ORACLE", "ORACLES"])  # ZO is not in it: the play is a phony here
    board = Board.from_rows(["." * 15] * 8 + [".........Z....."] + ["." * 15] * 6)
    placed = tuple(placements_for(board, parse_coord("K9"), "ORACLEs"))
    assert blank_letters(lexicon, board, placed) == []
    assert blank_letters(lexicon, board, placed, own_words=True) == [("S",)]


def test_blank_letters_with_two_blanks(tileset: TileSet) -> None:
    lexicon = Lexicon(["CAT", "CUT", "OAT", "COT"])
    placed = tuple(placements_for(Board(), parse_coord("8G"), "caT"))
    both = [("C", "A"), ("C", "O"), ("C", "U"), ("O", "A")]
    assert blank_letters(lexicon, Board(), placed) == both
    assert blank_letters(lexicon, Board(), placed, unknown=[1]) == [("A",), ("O",), ("U",)]


def test_likeliest_blanks_ranks_namings_by_the_words_through_the_blanks() -> None:
    lexicon = Lexicon(["CASTES", "TASTES", "PASTED", "PASTES", "QUIT", "QUAD"])
    placed = tuple(placements_for(Board(), parse_coord("8D"), "PASTEs"))
    options = blank_letters(lexicon, Board(), placed)
    assert options == [("D",), ("S",)]
    assert likeliest_blanks(lexicon, Board(), placed, options) == [("S",), ("D",)]
    # No naming makes a word (QUOP is from another lexicon): every letter is ranked.
    placed = tuple(placements_for(Board(), parse_coord("8G"), "QuOP"))
    ranked = likeliest_blanks(lexicon, Board(), placed)
    assert len(ranked) == 26 and ranked[0] == ("U",)


def same_but_blank(a: tuple[Placement, ...], b: tuple[Placement, ...], index: int) -> bool:
    """Same squares and tiles, except that both have a blank at `index`, naming any letter."""
    return (
        [(p.row, p.col) for p in a] == [(p.row, p.col) for p in b]
        and a[index].tile.blank
        and b[index].tile.blank
        and all(x.tile == y.tile for i, (x, y) in enumerate(zip(a, b, strict=True)) if i != index)
    )


def test_blank_letters_agree_with_the_generator(enable: Lexicon, tileset: TileSet) -> None:
    rng = random.Random(7)
    compared = 0
    for board, rack in mid_game_positions(enable, tileset, 11, count=10):
        rack = rack[:-1] + BLANK
        moves = generate(board, rack, enable, tileset)
        one_blank = [m for m in moves if m.tiles.count(BLANK) == 1]
        for move in rng.sample(one_blank, min(len(one_blank), 5)):
            index = next(i for i, p in enumerate(move.placements) if p.tile.blank)
            expected = sorted(
                (m.placements[index].tile.letter,)
                for m in one_blank
                if same_but_blank(m.placements, move.placements, index)
            )
            assert blank_letters(enable, board, move.placements, [index]) == expected
            compared += 1
    assert compared >= 20
