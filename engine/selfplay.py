"""Self-play: two simple computer players finish a whole game, recorded as GCG with racks.

It exercises the move generator, the game state machine and the GCG writer together, and makes
realistic records for testing and demos. Everything random comes from one seeded generator, so a
seed always gives the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from .board import Board
from .game import (
    OUT,
    PLAYING,
    SCORELESS,
    Game,
    end_out,
    end_scoreless,
    exchange,
    new_game,
    withdraw,
)
from .game import pass_turn as game_pass
from .game import play as game_play
from .gcg import GcgPlayer, GcgRecord
from .lexicon import Lexicon
from .movegen import Move, generate
from .play import RACK_SIZE, formed_words
from .record import game_record
from .rules import Rules
from .tiles import BLANK, TileSet

PLAYERS = (GcgPlayer(1, "Bot1", "Tilecast bot 1"), GcgPlayer(2, "Bot2", "Tilecast bot 2"))

# A rough worth, in points, of keeping each tile for later turns (unlisted tiles: 0).
_KEEP = {
    BLANK: 20,
    "S": 8,
    "Z": 3,
    "X": 3,
    "E": 2,
    "A": 1,
    "R": 1,
    "N": 1,
    "T": 1,
    "L": 1,
    "D": 1,
    "H": 1,
    "I": -1,
    "O": -1,
    "U": -3,
    "G": -2,
    "W": -3,
    "V": -4,
    "J": -2,
    "Q": -7,
}
_VOWELS = set("AEIOU")


def leave_value(leave: str) -> int:
    """Points a set of kept tiles is roughly worth: good tiles, few duplicates, vowels and
    consonants in balance. A deliberately small heuristic, not a tuned table."""
    value = sum(_KEEP.get(face, 0) for face in leave)
    value -= 3 * (len(leave) - len(set(leave)))
    vowels = sum(face in _VOWELS for face in leave)
    consonants = len(leave) - vowels - leave.count(BLANK)
    return value - 2 * max(0, abs(vowels - consonants) - 1)


@dataclass(frozen=True)
class Choice:
    """What a player does: 'play' (with `move`), 'exchange' (with `tiles`) or 'pass'."""

    kind: str
    move: Move | None = None
    tiles: str = ""


def remove(rack: str, tiles: str) -> str:
    """The rack after taking `tiles` (faces) from it."""
    for face in tiles:
        rack = rack.replace(face, "", 1)
    return rack


def choose(
    board: Board,
    rack: str,
    bag: int,
    unseen_value: int,
    lexicon: Lexicon,
    tileset: TileSet,
    rules: Rules,
) -> Choice:
    """The highest score plus leave; with the bag empty, the score plus twice the opponent's
    rack (`unseen_value`) for going out. Exchange when keeping the best tiles beats every play
    and the bag allows it; pass when there is nothing else."""
    moves = generate(board, rack, lexicon, tileset)
    leaves: dict[str, int] = {}  # many plays use the same tiles: value each leave once
    if bag:

        def equity(m: Move) -> int:
            tiles = m.tiles
            if tiles not in leaves:
                leaves[tiles] = leave_value(remove(rack, tiles))
            return m.score + leaves[tiles]

    else:

        def equity(m: Move) -> int:
            return m.score + (2 * unseen_value if len(m.tiles) == len(rack) else 0)

    best = max(moves, key=equity, default=None)
    if bag >= rules.exchange_min_bag:
        keep = max(
            ("".join(kept) for n in range(len(rack)) for kept in combinations(rack, n)),
            key=leave_value,
        )
        if best is None or leave_value(keep) > equity(best):
            return Choice("exchange", tiles=remove(rack, keep))
    return Choice("pass") if best is None else Choice("play", move=best)


def phony(board: Board, move: Move, lexicon: Lexicon, rng: random.Random) -> str | None:
    """The move's word with its new letters shuffled so that some word it forms is not in the
    lexicon (what a player tries as a bluff), or None when no shuffle of a few tries does."""
    new = [i for i, ch in enumerate(move.word) if ch != "."]
    if len(new) < 2:
        return None
    for _ in range(8):
        order = rng.sample(new, len(new))
        letters = list(move.word)
        for i, j in zip(new, order, strict=True):
            letters[i] = move.word[j]
        word = "".join(letters)
        if word == move.word:
            continue
        tried = Move(move.coord, word, 0)
        after = board.with_tiles((p.row, p.col, p.tile) for p in tried.placements)
        words = [
            "".join(after.at(r, c).letter for r, c in squares)
            for squares in formed_words(board, tried.placements)
        ]
        if any(w not in lexicon for w in words):
            return word
    return None


@dataclass(frozen=True)
class SelfPlay:
    game: Game
    record: GcgRecord


def self_play(
    lexicon: Lexicon,
    tileset: TileSet,
    rules: Rules,
    seed: int,
    lexicon_name: str = "ENABLE",
    phonies: float = 0.0,
) -> SelfPlay:
    """A complete game from a bag shuffled by `seed`, ended by the rules' end procedure.

    With `phonies` > 0, that share of plays is first tried as a phony (the same tiles, shuffled
    into a non-word) that the opponent challenges off: the phony is withdrawn, the turn passes
    as the rules say, and the player makes the real play on their next turn if it still fits.
    """
    rng = random.Random(seed)
    bag = sorted(Counter(tileset.counts).elements())
    rng.shuffle(bag)

    def draw(n: int) -> str:
        taken = bag[len(bag) - min(n, len(bag)) :]
        del bag[len(bag) - len(taken) :]
        return "".join(taken)

    game = new_game(rules, tileset)
    racks = [draw(RACK_SIZE), draw(RACK_SIZE)]
    racks_seen: list[str] = []  # the rack behind each turn, for the record
    while game.phase == PLAYING:
        player = game.to_move
        rack = racks[player]
        unseen = tileset.rack_value(racks[1 - player])
        choice = choose(game.board, rack, len(bag), unseen, lexicon, tileset, rules)
        before = len(game.turns)
        bluff = None
        own = [t.kind for t in game.turns if t.player == player]
        tempted = own[-1:] != ["withdraw"] and phonies and rng.random() < phonies
        if choice.kind == "play" and tempted:
            bluff = phony(game.board, choice.move, lexicon, rng)
        if bluff is not None:
            game = withdraw(game_play(game, choice.move.coord, bluff, rack))
        elif choice.kind == "play":
            move = choice.move
            game = game_play(game, move.coord, move.word, rack)
            racks[player] = remove(rack, move.tiles) + draw(len(move.tiles))
        elif choice.kind == "exchange":
            game = exchange(game, choice.tiles, rack)
            racks[player] = remove(rack, choice.tiles) + draw(len(choice.tiles))
            bag.extend(choice.tiles)
            rng.shuffle(bag)
        else:
            game = game_pass(game)
        racks_seen += [rack] * (len(game.turns) - before)
    if game.phase == OUT:
        game = end_out(game)
    elif game.phase == SCORELESS:
        game = end_scoreless(game, (racks[0], racks[1]))
    pragmas = (("description", f"Tilecast self-play, seed {seed}"), ("lexicon", lexicon_name))
    return SelfPlay(game, game_record(game, PLAYERS, racks_seen, pragmas))

