"""A Game's turns as a GCG record: the one place that maps engine turns to GCG lines."""

from __future__ import annotations

from collections.abc import Sequence

from .game import Game, Turn
from .gcg import GcgEvent, GcgPlayer, GcgRecord


def players(first: str, second: str) -> tuple[GcgPlayer, GcgPlayer]:
    """GCG players from display names; nicknames drop spaces and colons, and stay distinct."""
    nick = [
        ("".join(ch for ch in name if ch not in " :") or f"Player{i + 1}")
        for i, name in enumerate((first, second))
    ]
    if nick[0] == nick[1]:
        nick = [nick[0] + "1", nick[1] + "2"]
    return GcgPlayer(1, nick[0], first), GcgPlayer(2, nick[1], second)


def turn_event(turn: Turn, nickname: str, rack: str = "", note: str = "") -> GcgEvent:
    """The GCG line of one turn; `rack` is the player's rack before it, when known."""
    common = dict(line=0, player=nickname, score=turn.score, total=turn.total, note=note)
    kind = turn.kind
    if kind == "play":
        return GcgEvent(**common, rack=rack, kind="play", coord=turn.coord, word=turn.word)
    if kind == "exchange":
        return GcgEvent(
            **common, rack=rack, kind="exchange", exchanged=turn.tiles, exchange_count=turn.count
        )
    if kind in ("pass", "withdraw", "time"):
        return GcgEvent(**common, rack=rack, kind=kind)
    if kind == "challenge":
        return GcgEvent(**common, rack=rack, kind="challenge_bonus")
    # 'out' is the out-player's bonus line, written without a rack; 'rack' a rack deducted.
    return GcgEvent(
        **common, rack=turn.tiles if kind == "rack" else "", kind="end_rack", tiles=turn.tiles
    )


def game_record(
    game: Game,
    people: tuple[GcgPlayer, GcgPlayer],
    racks: Sequence[str] = (),
    pragmas: tuple[tuple[str, str], ...] = (),
    notes: Sequence[str] = (),
) -> GcgRecord:
    """The record of `game` so far. racks[i] and notes[i], where given, belong to turn i."""
    events = tuple(
        turn_event(
            t,
            people[t.player].nickname,
            racks[i] if i < len(racks) else "",
            notes[i] if i < len(notes) else "",
        )
        for i, t in enumerate(game.turns)
    )
    return GcgRecord("<tilecast>", people, pragmas, events)
