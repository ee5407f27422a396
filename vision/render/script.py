"""What the renderer is told to show: turns of tiles going onto the board, independent of GCG."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from tilecast.config import load_profile, load_tileset
from tilecast.engine.board import Board
from tilecast.engine.game import Game
from tilecast.engine.gcg import parse_gcg
from tilecast.engine.play import Placement
from tilecast.engine.replay import replay
from tilecast.engine.selfplay import self_play
from tilecast.engine.tiles import Tile
from tilecast.lexicons import DEFAULT, load_lexicon


@dataclass(frozen=True)
class RenderTurn:
    """One turn: the tiles put down (none for a pass or exchange), whether they are taken back
    (a withdrawn phony), and who plays (0 or 1; decides the side the hand comes from)."""

    placed: tuple[Placement, ...]
    withdrawn: bool = False
    player: int = 0


def scattered_board(rng: np.random.Generator) -> Board:
    """Random letters on a random share (up to 60%) of the squares: a position for stills that
    test or train board finding, where the letters need not make words."""
    fill = rng.uniform(0.0, 0.6)
    rows = [
        "".join(chr(65 + int(rng.integers(26))) if rng.random() < fill else "." for _ in range(15))
        for _ in range(15)
    ]
    return Board.from_rows(rows)


def boards_after(turns: Iterable[RenderTurn]) -> list[Board]:
    """The board after each turn."""
    board, out = Board(), []
    for turn in turns:
        if not turn.withdrawn:
            board = board.with_tiles((p.row, p.col, p.tile) for p in turn.placed)
        out.append(board)
    return out


def turns_from_json(data: list[dict]) -> list[RenderTurn]:
    """Read a script: [{"player": 0, "withdrawn": false, "tiles": [[row, col, "A"], ...]}, ...]
    with 0-based rows and columns, a lower-case letter for a blank standing for that letter."""
    return [RenderTurn(tuple(Placement(int(r), int(c), Tile.from_notation(ch))
                             for r, c, ch in t.get("tiles", [])),
                       bool(t.get("withdrawn", False)), int(t.get("player", 0))) for t in data]


def turns_to_json(turns: Iterable[RenderTurn]) -> list[dict]:
    return [{"player": t.player, "withdrawn": t.withdrawn,
             "tiles": [[p.row, p.col, p.tile.notation] for p in t.placed]} for t in turns]


def turns_from_game(game: Game) -> list[RenderTurn]:
    """The visible turns of a played game: plays (a later 'withdraw' marks its play withdrawn),
    passes and exchanges; score-only entries (bonuses, penalties, rack counts) show nothing."""
    out: list[RenderTurn] = []
    for turn in game.turns:
        if turn.kind == "play":
            out.append(RenderTurn(turn.placed, False, turn.player))
        elif turn.kind == "withdraw":
            last = max(i for i, t in enumerate(out) if t.placed)
            out[last] = replace(out[last], withdrawn=True)
        elif turn.kind in ("pass", "exchange"):
            out.append(RenderTurn((), False, turn.player))
    return out


def add_phonies(turns: list[RenderTurn], rng: np.random.Generator, share: float = 0.1
                ) -> list[RenderTurn]:
    """Before some plays, the same player first lays the same squares with the letters shuffled
    and takes them back, so a short script shows tiles coming off the board too. Not a WESPA
    sequence (a withdrawn phony passes the turn): games with real phonies come from
    self_play(..., phonies=share)."""
    out: list[RenderTurn] = []
    for turn in turns:
        if len(turn.placed) > 1 and rng.random() < share:
            tiles = [p.tile for p in turn.placed]
            order = rng.permutation(len(tiles))
            out.append(RenderTurn(tuple(Placement(p.row, p.col, tiles[j]) for p, j in
                                        zip(turn.placed, order, strict=True)), True, turn.player))
        out.append(turn)
    return out


def selfplay_script(seed: int) -> list[RenderTurn]:
    """A whole computer-vs-computer game (ENABLE word list) with a few withdrawn phonies."""
    game = self_play(load_lexicon(DEFAULT), load_tileset("english"), load_profile("wespa"),
                     seed, phonies=0.1).game
    return turns_from_game(game)


def gcg_script(data: bytes, source: str = "") -> list[RenderTurn]:
    """The turns of a GCG record, replayed under WESPA rules as far as it is playable."""
    result = replay(parse_gcg(data, source=source), load_profile("wespa"),
                    load_tileset("english"))
    if result.game is None:
        raise ValueError(f"{source}: {result.discrepancies[0].reason}")
    return turns_from_game(result.game)
