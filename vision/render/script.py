"""What the renderer is told to show: turns of tiles going onto the board, independent of GCG."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tilecast.engine.board import Board
from tilecast.engine.play import Placement
from tilecast.engine.tiles import Tile


@dataclass(frozen=True)
class RenderTurn:
    """One turn: the tiles put down (none for a pass or exchange), whether they are taken back
    (a withdrawn phony), and who plays (0 or 1; decides the side the hand comes from)."""

    placed: tuple[Placement, ...]
    withdrawn: bool = False
    player: int = 0


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
