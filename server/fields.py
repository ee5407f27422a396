"""The one-value overlay fields (a broadcaster puts each in its own OBS source) as plain text,
computed from a board's public state; the field pages and their `.txt` twins both show these."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import Any

State = dict[str, Any]


def _unseen(state: State) -> str:
    """'AAA BB E ?': each letter's tiles together, blanks last."""
    tiles = sorted(state["unseen"], key=lambda t: (t == "?", t))
    return " ".join("".join(group) for _, group in groupby(tiles))


def _last_play(state: State) -> str:
    moves = state["moves"]
    if not moves:
        return ""
    last = moves[-1]
    return f"{last['name']} {last.get('said', last['move'])} {last['score']}"


def _blanks(state: State) -> str:
    return ", ".join(f"{b['square']} {b['letter']}" for b in state["blanks"])


def _turn(state: State) -> str:
    """'Ann to move' while the game goes on; '' once it is over."""
    return f"{state['players'][state['to_move']]} to move" if state["phase"] == "playing" else ""


def _result(state: State) -> str:
    """'Ann wins by 42', 'Draw', or '' while the game goes on."""
    final = state.get("result")
    if state["phase"] == "scoreless":
        return "Six scoreless turns: racks to count"
    if not final:
        return ""
    if final["winner"] is None:
        return "Game over: a draw"
    forfeit = " (time forfeit)" if final.get("forfeited") is not None else ""
    return f"Game over: {state['players'][final['winner']]} wins by {final['spread']}{forfeit}"


FIELDS: dict[str, Callable[[State], str]] = {
    "score": lambda s: f"{s['scores'][0]} - {s['scores'][1]}",
    "score1": lambda s: str(s["scores"][0]),
    "score2": lambda s: str(s["scores"][1]),
    "name1": lambda s: s["players"][0],
    "name2": lambda s: s["players"][1],
    "unseen": _unseen,
    "unseen-count": lambda s: str(len(s["unseen"])),
    "bag": lambda s: str(s["bag"]),
    "last-play": _last_play,
    "blanks": _blanks,
    "turn": _turn,
    "result": _result,
}


def field_text(state: State | None, name: str) -> str:
    """The field's text; empty before the board has a public state."""
    return "" if state is None else FIELDS[name](state)
