"""A Game's turns as a GCG record: the one place that maps engine turns to GCG lines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .game import Game, Turn
from .gcg import GcgEvent, GcgPlayer, GcgRecord, format_gcg
from .tiles import BLANK, TileSet

STAND_IN_NOTE = "Tilecast: rack unknown; {tile} stands in for it so that other tools read the line"


def players(first: str, second: str) -> tuple[GcgPlayer, GcgPlayer]:
    """GCG players from display names; nicknames drop spaces and colons, and stay distinct.
    Whatever is not printable (a line break would start a forged line) becomes a space."""
    names = ["".join(ch if ch.isprintable() else " " for ch in name) for name in (first, second)]
    nick = [
        ("".join(ch for ch in name if ch not in " :") or f"Player{i + 1}")
        for i, name in enumerate(names)
    ]
    if nick[0] == nick[1]:
        nick = [nick[0] + "1", nick[1] + "2"]
    return GcgPlayer(1, nick[0], names[0]), GcgPlayer(2, nick[1], names[1])


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


def played_tiles(turn: Turn) -> str:
    """The faces a play put down, sorted ('?' for a blank): the part of the rack it shows."""
    return "".join(sorted(p.tile.face for p in turn.placed))


def shown_racks(turns: Sequence[Turn], known: Sequence[str] = ()) -> list[str]:
    """Each turn's rack field: the known rack, or else what the turn shows of it, as annotators
    write it (a play's tiles, the same for its withdrawal, an exchange's named tiles); other
    tools need a rack on every play, pass and exchange line. A pass leaves the rack as it was,
    so it shows what its player's next turn or final rack shows. '' where nothing is shown."""
    shown, last_play = [], ""
    for i, turn in enumerate(turns):
        rack = known[i] if i < len(known) else ""
        if turn.kind == "play":
            rack = rack or played_tiles(turn)
            last_play = rack
        elif turn.kind == "withdraw":
            rack = rack or last_play
        elif turn.kind == "exchange":
            rack = rack or turn.tiles
        shown.append(rack)
    ahead = ["", ""]  # what each player's next turn (or end-of-game rack line) shows
    for i in reversed(range(len(turns))):
        turn = turns[i]
        if turn.kind == "pass":
            shown[i] = shown[i] or ahead[turn.player]
        if turn.kind in ("play", "exchange", "pass"):
            ahead[turn.player] = shown[i]
        elif turn.kind in ("rack", "out"):  # 'out' shows the opponent's rack, 'rack' one's own
            ahead[turn.player if turn.kind == "rack" else 1 - turn.player] = turn.tiles
    return shown


def stand_ins(turns: Sequence[Turn], tileset: TileSet, shown: Sequence[str]) -> dict[int, str]:
    """For each pass or exchange line that shows nothing of its rack, one tile to stand in for
    it: Macondo's patterns need a rack on those lines, and real records always have one. The
    tile is the most plentiful face not on the board then (a letter before a blank), so a tool
    that sets the rack from the line finds it possible."""
    out: dict[int, str] = {}
    on_board: Counter[str] = Counter()
    plays: list[Turn] = []  # the plays standing, for a withdrawal to take the last one off
    for i, turn in enumerate(turns):
        if turn.kind in ("pass", "exchange") and not shown[i]:
            unseen = +(tileset.bag() - on_board)
            out[i] = min(unseen, key=lambda f: (-unseen[f], f == BLANK, f), default=BLANK)
        if turn.kind == "play":
            plays.append(turn)
            on_board.update(p.tile.face for p in turn.placed)
        elif turn.kind == "withdraw" and plays:
            on_board.subtract(p.tile.face for p in plays.pop().placed)
    return out


def game_record(
    game: Game,
    people: tuple[GcgPlayer, GcgPlayer],
    racks: Sequence[str] = (),
    pragmas: tuple[tuple[str, str], ...] = (),
    notes: Sequence[str] = (),
) -> GcgRecord:
    """The record of `game` so far. racks[i] and notes[i], where given, belong to turn i; a
    turn without a known rack shows what it reveals of it (see shown_racks), and a pass or an
    exchange that reveals nothing a stand-in tile, with a note saying so (see stand_ins)."""
    shown = shown_racks(game.turns, racks)
    said = [notes[i] if i < len(notes) else "" for i in range(len(game.turns))]
    for i, tile in stand_ins(game.turns, game.tileset, shown).items():
        shown[i] = tile
        said[i] = "\n".join(filter(None, (said[i], STAND_IN_NOTE.format(tile=tile))))
    events = tuple(
        turn_event(t, people[t.player].nickname, shown[i], said[i])
        for i, t in enumerate(game.turns)
    )
    return GcgRecord("<tilecast>", people, pragmas, events)


def count_notes(game: Game) -> list[str]:
    """Per turn, a note for each play that takes a letter past the set's count ('' if none):
    other GCG tools refuse such a play, and the note says why it stands (the camera read it)."""
    on_board: Counter[str] = Counter()
    standing: list[Turn] = []  # plays on the board, for a withdrawal to take the last one off
    notes = []
    for turn in game.turns:
        note = ""
        if turn.kind == "play":
            standing.append(turn)
            faces = [p.tile.face for p in turn.placed]
            on_board.update(faces)
            over = [f for f in sorted(set(faces)) if on_board[f] > game.tileset.counts.get(f, 0)]
            if over:
                held = ", ".join(f"{on_board[f]} {'blanks' if f == '?' else f}" for f in over)
                note = (f"Tilecast: the board now holds {held}, more than the {game.tileset.name} "
                        "set has; recorded as the camera read it (this play or an earlier one "
                        "is misread)")
        elif turn.kind == "withdraw" and standing:
            on_board.subtract(p.tile.face for p in standing.pop().placed)
        notes.append(note)
    return notes


def gcg_text(game: Game, names: tuple[str, str], board: str, lexicon: str = "") -> str:
    """The GCG text Tilecast writes for a board's game: the live file and `annotate -o` alike."""
    pragmas = [("description", "Tilecast")]
    if lexicon:
        pragmas.append(("lexicon", lexicon))
    pragmas.append(("id", f"tilecast {board}"))
    record = game_record(game, players(*names), pragmas=tuple(pragmas), notes=count_notes(game))
    return format_gcg(record)
