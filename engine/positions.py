"""Every position of a game, turn by turn, for replaying it: the board, the scores and the
squares the turn put tiles on, after each turn of the record."""

from __future__ import annotations

from dataclasses import dataclass

from tilecast.engine.board import Board, square_name
from tilecast.engine.game import Game


@dataclass(frozen=True)
class Position:
    rows: tuple[str, ...]  # as Board.rows(): letters, lower case for blanks, '.' for empty
    scores: tuple[int, int]
    placed: tuple[str, ...]  # squares ('H8') the turn put tiles on; none but for a play


def positions(game: Game) -> list[Position]:
    """The start and the position after each turn (len(game.turns) + 1 of them); a withdrawn
    phony takes its tiles off again, every other kind of turn only changes a score."""
    board, scores = Board(), [0, 0]
    standing: list[list[tuple[int, int]]] = []  # squares of each play still on the board
    out = [Position(tuple(board.rows()), (0, 0), ())]
    for turn in game.turns:
        placed: tuple[str, ...] = ()
        if turn.kind == "play":
            board = board.with_tiles((p.row, p.col, p.tile) for p in turn.placed)
            standing.append([(p.row, p.col) for p in turn.placed])
            placed = tuple(square_name(p.row, p.col) for p in turn.placed)
        elif turn.kind == "withdraw" and standing:
            board = board.without(standing.pop())
        scores[turn.player] = turn.total
        out.append(Position(tuple(board.rows()), (scores[0], scores[1]), placed))
    return out
