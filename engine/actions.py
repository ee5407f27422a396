"""The record as a fold: a game is the engine's rules run over the record's actions, in order,
from a new game. The recorder rebuilds its game this way after every entry, a correction or a
resumed journal, so the game can never drift from the actions that made it.

An action is a plain mapping, as the journal holds it: `{"type": "play", "coord": "8D",
"word": "WINDY"}` (`"uncounted": true` records a play past the set's letter counts, as read;
`"unconnected": true` one that joins no tile of the record, as read),
`pass`, `exchange` (`tiles`), `withdraw`, `challenge` (`words`, default 1), `time` (`player`,
`seconds_over`), `end` (after an out-play; after six scoreless turns with both `racks`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import game as g
from .board import parse_coord, square_name
from .rules import Rules
from .tiles import TileSet


class ActionError(ValueError):
    """An action the game cannot take at its place in the record; `index` says which."""

    def __init__(self, index: int, action: Mapping[str, Any], why: str) -> None:
        super().__init__(f"action {index} ({action.get('type')}): {why}")
        self.index = index


def apply_action(game: g.Game, action: Mapping[str, Any]) -> g.Game:
    """The game after one action (GameError, ValueError or KeyError when it cannot be)."""
    kind = action["type"]
    if kind == "play":
        return g.play(game, parse_coord(action["coord"]), action["word"],
                      counted=not action.get("uncounted"),
                      connected=not action.get("unconnected"))
    if kind == "pass":
        return g.pass_turn(game)
    if kind == "exchange":
        return g.exchange(game, action["tiles"])
    if kind == "withdraw":
        return g.withdraw(game)
    if kind == "challenge":
        return g.challenge_bonus(game, int(action.get("words", 1)))
    if kind == "time":
        return g.time_penalty(game, int(action["player"]), int(action["seconds_over"]))
    if kind == "end":
        if game.phase == g.OUT:
            return g.end_out(game)
        if game.phase == g.SCORELESS and action.get("racks"):
            return g.end_scoreless(game, tuple(action["racks"]))
        raise g.GameError("phase", f"cannot end the game in phase {game.phase!r}")
    raise ValueError(f"unknown action {kind!r}")


def fold(rules: Rules, tileset: TileSet, actions: Iterable[Mapping[str, Any]]) -> g.Game:
    """A new game with every action applied in order; ActionError naming the first that fails."""
    game = g.new_game(rules, tileset)
    for index, action in enumerate(actions):
        try:
            game = apply_action(game, action)
        except (g.GameError, ValueError, KeyError) as exc:
            raise ActionError(index, action, str(exc)) from exc
    return game


def tiles_placed(action: Mapping[str, Any]) -> dict[str, int]:
    """The squares ('H8') a play action puts tiles on, each with its letter's place in the
    action's word (letters it plays through are left out); {} for any other action."""
    if action.get("type") != "play":
        return {}
    word = str(action["word"])
    cells = parse_coord(action["coord"]).cells(len(word))
    return {square_name(r, c): i for i, ((r, c), ch) in enumerate(zip(cells, word, strict=True))
            if ch != "."}
