"""A committed camera reading interpreted against the record: which journal entries it calls
for (a play, a withdrawal, an amended or deleted play, alerts). Pure functions of the record
and the reading: nothing here journals, applies or remembers; the recorder applies what comes
back, so a resumed run that applies the same entries is in the same state.

Each function takes a `Record` (the game, the action list that made it, the lexicon, and what
the camera showed at its last journaled readings) and gives entries plus the `Memory` of what
the camera's readings have alerted, for the next reading to weigh.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tilecast.engine import game as g
from tilecast.engine.actions import ActionError, apply_action, fold
from tilecast.engine.board import SIZE, Board, square_name
from tilecast.engine.infer import (
    BLANK_CLASS,
    CLASSES,
    EMPTY_CLASS,
    Change,
    Inferred,
    Probs,
    board_change,
    expected_class,
    infer_phony,
    infer_play,
    line_groups,
    name_blanks,
    notation,
)
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.movegen import blank_letters, likeliest_blanks
from tilecast.engine.play import IllegalPlay, Placement, over_counted, validate
from tilecast.engine.tiles import BLANK, Tile

Entry = dict[str, Any]
Squares = tuple[tuple[int, int], ...]
# A lexicon word is preferred to the camera's best reading unless that reading is more than
# 1 / PHONY_ODDS times as probable; then it is recorded as read, a possible phony.
PHONY_ODDS = 0.01
# odds of a phony play making several words phony, against one making a single word phony
PHONY_WORDS_ODDS = 0.25
STRAY_FLOOR = 0.001  # a play may leave new squares out only if they are this likely empty
STRAY_ODDS = 0.02  # odds that a square surely read as a tile, off the play's line, is none
SURE_TILE = 0.9  # tile probability of every square of a play read after another in one reading
BLANK_ALONE = 0.1  # odds of a play of blanks alone, against one with letters
ORDER_GAP = 0.5  # seconds between two plays' laying that puts them in order
BLANK_GONE = 0.97  # a recorded blank counts as taken away only when this surely empty
# The camera's chance, on a square whose reading the set's counts refuse, of the other kind of
# tile (a blank read as a letter the set has no more of, or a recorded blank as its letter)
# that makes it that kind.
BLANK_SEEN = 0.02
BLANK_ODDS = 0.2  # game base rate of blanks over the classifier's training rate (see blank_prior)
# Seconds after the reading that recorded a play within which new tiles in its line are taken
# as its player still laying tiles (the camera saw a pause), not the next player's play.
STILL_LAYING = 3.0


@dataclass(frozen=True)
class Memory:
    """What the camera's readings have alerted, so that a board that stays as it is is not
    alerted again: the last disturbance (squares added, removed) and the recorded tiles last
    alerted as no longer seen. Journaled with each reading (the board entry's `alerted`)."""

    disturbed: tuple[Squares, Squares] | tuple[()] = ()
    removed: Squares = ()

    def as_json(self) -> list[list[list[int]]]:
        """The board entry's `alerted`: added, removed, missing."""
        added, removed = self.disturbed or ((), ())
        return [[list(sq) for sq in part] for part in (added, removed, self.removed)]

    @classmethod
    def from_json(cls, alerted: Sequence[Sequence[Sequence[int]]]) -> Memory:
        """The memory a board entry's `alerted` journaled."""
        added, removed, missing = alerted
        disturbed = (squares(added), squares(removed)) if added or removed else ()
        return cls(disturbed, squares(missing))

    def noting(self, alert: Entry) -> Memory:
        """With a journaled alert entry taken into account (a disturbance, an illegal play, or
        recorded tiles no longer seen, each as it was seen)."""
        data = alert.get("data") or {}
        removed = squares(data.get("removed") or [])
        if "added" in data:
            return replace(self, disturbed=(squares(data["added"]), removed))
        if alert.get("kind") == "board-disturbed" and removed:
            return replace(self, removed=removed)
        return self


@dataclass(frozen=True)
class Record:
    """What a reading is weighed against. `rows`: the camera's top label of each square at its
    last journaled reading; `play_rows`: the last play's action, and the rows and time of the
    first reading journaled after it (actions are compared by identity: the recorder's own)."""

    game: g.Game
    actions: tuple[Entry, ...]
    lexicon: Lexicon | None = None
    rows: tuple[str, ...] = ()
    play_rows: tuple[Entry | None, tuple[str, ...], float | None] = (None, (), None)
    memory: Memory = Memory()
    named: frozenset[tuple[int, int]] = frozenset()  # blanks whose letter an operator gave

    def without_last(self) -> Record:
        """The record before its last action (an out-play's implied end, or the play that a
        reading may amend)."""
        actions = self.actions[:-1]
        return replace(self, actions=actions, game=fold(self.game.rules, self.game.tileset,
                                                        actions))


def read(record: Record, probs: Probs, time: float, follow_on: bool = False,
         emptied: Any = None) -> tuple[list[Entry], Memory]:
    """The journal entries a committed camera reading calls for (not yet applied), and the
    memory of alerts after it.

    emptied: per square, when the camera last saw it empty (or None): of two clear plays
    in one reading, the one laid first is recorded first.

    follow_on: the reading has already given a play, now recorded; what else it shows
    is the next play only if it is clear (every new square surely a tile, one play of
    lexicon words): the camera missed the still moment between two turns, which happens
    when the next player lays tiles down at once. Anything less clear gives nothing.
    """
    game = record.game
    raw, probs = probs, blank_prior(probs, game.board)
    change = _doubting_blanks(board_change(game.board, probs), game.board, probs,
                              record.play_rows[1])
    steady = _steady_strays(record, change.added, raw, emptied)
    if steady:  # no tiles laid: a play beside them is read as if they were empty
        change = replace(change, added=tuple(sq for sq in change.added if sq not in steady))
        probs = _as_empty(probs, steady)
    memory = record.memory
    if change.none or game.phase == g.OVER:
        return [], memory
    last = game.last_play
    amended = _amended(record, change, raw, time) or _unblanked(record, change, raw, time)
    if amended:
        return amended, memory
    alerts: list[Entry] = []
    if change.removed:
        # The last play taken back is a withdrawn phony, whatever stray squares read too,
        # and whatever was already missing before.
        taken = {(p.row, p.col) for p in last.placed} if last else set()
        if taken & set(change.removed) \
                and taken <= set(change.removed) | _gone(last.placed, probs) \
                and set(change.removed) - taken <= set(memory.removed):
            if _never_played(record, last):
                return _deleted(record, len(record.actions) - 1, last, len(game.turns),
                                time, "its tiles are gone, and its words, read as recorded, "
                                "are no phony to challenge off"), memory
            return [{"type": "withdraw", "source": "camera", "time": time}], memory
        phantom = _phantom(record, change, probs, time)
        if phantom:
            return phantom, memory
        if change.added and _moved(change.removed, change.added):
            # Tiles knocked a square or so aside: a disturbance, not a play.
            return _disturbed(memory, change, len(game.turns), time, "tiles moved")
        # Older tiles gone: the TD is told (once), the record keeps them, and new tiles
        # are still read as plays, so one disturbance never stops the recording.
        if change.removed != memory.removed:
            memory = replace(memory, removed=change.removed)
            where = " ".join(square_name(*sq) for sq in change.removed)
            why = f"recorded tiles no longer seen: {where}"
            alert = _alert("board-disturbed", why, "violation", len(game.turns), time)
            alert["data"] = {"removed": [list(sq) for sq in change.removed]}
            alerts.append(alert)
    else:
        memory = replace(memory, removed=())
    if not change.added or game.phase not in (g.PLAYING, g.OUT):
        return alerts, memory
    if follow_on and any(_empty(probs, r, c) > 1.0 - SURE_TILE for r, c in change.added):
        return [], memory
    reading, note = _best_reading(record, probs, change.added, time,
                                  None if follow_on else emptied)
    if follow_on and (reading is None or note or any(
        (p.row, p.col) not in change.added for p in reading.placed  # a gap filled
    )):
        return [], memory
    if note is None:  # doubtful readings, no play: the next reading will tell
        return alerts, memory
    if reading is not None and _steady(record, reading.placed, change.added, emptied):
        return alerts, memory  # no tile laid: a steady misreading beside the tiles
    if reading is not None and not follow_on:
        joined = _joined_earlier(record, probs, reading, time, emptied)
        if joined:
            return alerts + joined, replace(memory, disturbed=())
    if not follow_on and any(a["kind"] == "phony" for a in note):
        renamed = _renamed_blank(record, probs, change.added, time, emptied)
        if renamed:
            return alerts + renamed, replace(memory, disturbed=())
    if game.phase == g.OUT:
        # The record has the last player out, yet the camera clearly reads a play of lexicon
        # words after it: the count that emptied that rack was wrong (an earlier play is
        # probably misread). The game goes on, the play recorded as read and the TD told;
        # ignored, it would lose every play to the end, and the result.
        if not _clear(reading, note, probs):
            return alerts, memory
        why = (f"{reading.coord} {reading.word}: the camera clearly reads a play after the "
               "record's out-play; the game goes on (an earlier play is probably misread, "
               "so the count that emptied that rack was wrong)")
        note.append(_alert("play-after-out", why, "warning", len(game.turns), time))
        return alerts + note + [{**_play_entry(reading, time), "uncounted": True}], \
            replace(memory, disturbed=())
    uncounted, over = False, []
    spent = reading is not None and any(a["kind"] == "too-many-of-letter" for a in note) \
        and not _spent_on_blanks(game, raw, reading)
    # A phony that leaves tiles out as strays is the counts' doing too, where the play of
    # them all, past the counts, is clear (13L ..ZI read where LIDO was laid, an L spent).
    strayed = reading is not None and {"phony", "stray-tiles"} <= {a["kind"] for a in note}
    if reading is None or spent or strayed:
        # Maybe only the set's counts stand against what the camera reads: an earlier
        # misreading spent the letter, or left the player fewer tiles than they hold (a
        # phantom tile recorded). Then the play is recorded as read and the TD told;
        # dropping it would give every later play to the wrong player, and reading the
        # next likeliest letters would carry the earlier misreading into this play.
        loose, loose_note = _best_reading(record, probs, change.added, time, emptied,
                                          counted=False)
        held = game.rack_sizes[game.to_move]
        if loose is not None and len(loose.placed) > held \
                and not _clear(loose, loose_note, probs):
            loose, loose_note = None, None  # only a clear play of lexicon words overdraws a rack
        over = over_counted(game.board, loose.placed, game.tileset) if loose else []
        if loose is not None and loose_note is not None and (
                over or len(loose.placed) > held) \
                and (not strayed or _clear(loose, loose_note, probs)):
            reading, note, uncounted = loose, loose_note, True
        elif not spent and not strayed:
            reading, note = loose, loose_note
        if uncounted:
            if over:
                what = ", ".join("a blank" if f == BLANK else f for f in over)
                why = (f"{reading.coord} {reading.word}: the camera clearly reads "
                       f"{what}, but the set has no more; recorded as read (an "
                       "earlier play is probably misread)")
                note.append(_alert("too-many-of-letter", why, "warning", len(game.turns),
                                   time))
                note[-1]["data"] = {"letters": list(over)}
            if len(reading.placed) > held:
                why = (f"{reading.coord} {reading.word}: the camera clearly reads "
                       f"{len(reading.placed)} new tiles, but the record leaves the player "
                       f"{held}; recorded as read (an earlier play is probably misread)")
                note.append(_alert("too-many-tiles", why, "warning", len(game.turns), time))
    if uncounted and over and len(reading.placed) <= held:
        phony = any(a["kind"] == "phony" for a in note)
        mended = _respent(record, change, raw, time, emptied, list(over), phony)
        if mended:
            return alerts + mended, replace(memory, disturbed=())
    unconnected = False
    if reading is None and emptied is not None:
        reading, note = _unseen_join(record, probs, change.added, time, emptied)
        unconnected = reading is not None
    if reading is None or note is None:
        why = _infer(game, probs, change.added).reason
        more, memory = _disturbed(memory, change, len(game.turns), time,
                                  f"not a legal play ({why})", kind="illegal-play")
        return alerts + more, memory
    entry = _play_entry(reading, time)
    if uncounted:
        entry["uncounted"] = True
    if unconnected:
        entry["unconnected"] = True
    late = [] if uncounted or unconnected else _laid_before(record, reading, time, emptied)
    return alerts + note + (late or [entry]), replace(memory, disturbed=())


def _laid_before(record: Record, reading: Inferred, time: float, emptied: Any) -> list[Entry]:
    """A play read only now that was laid before the record's last play: its tiles already
    stood, read as tiles, at the reading that recorded that play (left out then as strays, a
    blank read as a letter the set had no more of, say), and were last seen empty before that
    play's tiles were. It is inserted before that play by a journaled correction, with an
    alert, when the record stands so; appended, it would give that play and every later one
    to the wrong player. No entries when it was laid after."""
    action, then, seen = record.play_rows
    actions = record.actions
    if emptied is None or not then or seen is None or action is None \
            or not any(a is action for a in actions):
        return []
    index = next(i for i, a in enumerate(actions) if a is action)
    laid = max(emptied[p.row * SIZE + p.col] for p in reading.placed)
    if laid == -math.inf or laid >= seen \
            or any(then[p.row][p.col] == "." for p in reading.placed):
        return []
    before = fold(record.game.rules, record.game.tileset, actions[:index])
    after = apply_action(before, action)
    later = [p for t in after.turns[len(before.turns):] for p in t.placed]
    if not later or laid + ORDER_GAP >= min(emptied[p.row * SIZE + p.col] for p in later):
        return []
    play = _rewritten({"type": "play"}, before, reading.placed)
    if play is None:
        return []
    try:
        fold(record.game.rules, record.game.tileset,
             actions[:index] + (play,) + actions[index:])
    except ActionError:
        return []  # it leans on the later play's tiles, or the counts forbid it
    was = f"{action['coord']} {action['word']}"
    why = (f"{play['coord']} {play['word']} inserted before {was}: its tiles stood there, "
           "read but not recorded, before that play was laid")
    return [_alert("play-inserted", why, "warning", len(record.game.turns), time),
            {"type": "correct", "op": "insert", "index": index, "action": play,
             "reason": why, "source": "camera", "time": time}]


def _joined_earlier(record: Record, probs: Probs, reading: Inferred, time: float,
                    emptied: Any) -> list[Entry]:
    """An earlier play that a tile of the play read now belongs to: the tile was last seen
    empty when that play's tiles were (within ORDER_GAP), before the record's last play was
    laid, and it joins that play's line (left out then as a doubtful stray: RAXES read as
    AXES, its R then taken as a tile of ZAFFIR laid beside it five turns later). The earlier
    play gets the tile by a journaled correction, with an alert, when it is then words of
    the lexicon and the rest of the play read now is too; the play is then read again
    through it. Kept, the tile would be scored to the wrong player, in the wrong word."""
    game, lexicon = record.game, record.lexicon
    last = game.last_play
    if emptied is None or lexicon is None or last is None or not last.placed:
        return []

    def laid(sq: tuple[int, int]) -> float:
        return emptied[sq[0] * SIZE + sq[1]]

    last_laid = max(laid((p.row, p.col)) for p in last.placed)
    squares = [(p.row, p.col) for p in reading.placed]
    early = [sq for sq in squares if -math.inf < laid(sq) and laid(sq) + ORDER_GAP < last_laid]
    if not early:
        return []
    for index, before, placed in reversed(_plays(record)):
        if any(game.board.at(p.row, p.col) != p.tile for p in placed):
            continue  # withdrawn, or its tiles since corrected
        then = max(laid((p.row, p.col)) for p in placed)
        if then == -math.inf or any(abs(laid(sq) - then) > ORDER_GAP for sq in early):
            continue
        # The earlier play's own tiles as recorded, the joined ones as the camera reads them.
        fixed = list(probs)
        for p in placed:
            row = [0.0] * len(CLASSES)
            row[expected_class(p.tile)] = 1.0
            fixed[p.row * SIZE + p.col] = row
        whole = tuple(sorted({(p.row, p.col) for p in placed} | set(early)))
        grown = infer_play(before.board, fixed, whole, game.tileset, lexicon)
        if not grown.legal or not set(placed) <= set(grown.placed):
            return []
        action = _rewritten(record.actions[index], before, grown.placed)
        if action is None:
            return []
        actions = record.actions[:index] + (action,) + record.actions[index + 1:]
        try:
            now = fold(game.rules, game.tileset, actions)
        except ActionError:
            return []
        rest = tuple(sq for sq in squares if sq not in early)
        if rest and not _infer(now, probs, rest, lexicon).legal:
            return []
        was = f"{record.actions[index]['coord']} {record.actions[index]['word']}"
        where = " ".join(square_name(*sq) for sq in early)
        why = (f"{was} corrected to {action['coord']} {action['word']}: the tile on {where}, "
               f"read now in {reading.coord} {reading.word}, was laid with it")
        return _correction(index, action, why, len(game.turns), time)
    return []


def _steady(record: Record, placed: tuple, added: Squares, emptied: Any) -> bool:
    """Whether every square of a play that reads as new is a steady misreading, not a tile
    laid since the last play: never read surely empty in a still frame (a broadcast score
    bar's letters, print the network takes for a tile) and read as a tile already at the
    reading that recorded the last play. Beside a later play such squares would make a play
    of their own; a gap the inference fills between them and the board (a doubtful blank)
    is no sign of a tile laid."""
    _, then, _ = record.play_rows
    fresh = set(added)
    new = [p for p in placed if (p.row, p.col) in fresh]
    return emptied is not None and bool(then) and bool(new) and all(
        emptied[p.row * SIZE + p.col] == -math.inf and then[p.row][p.col] != "."
        for p in new)


def _steady_strays(record: Record, added: Squares, raw: Probs, emptied: Any) -> set:
    """The new squares that are a steady misreading, not a tile of the play now laid: read as
    a tile already at the reading that recorded the last play, and as the same tile now, and
    never seen surely empty in a still frame since before the play before it was laid (print
    or a shadow at the board's edge, a rack's corner, read as tiles through two recorded
    plays; a tile laid and missed one turn ago is _laid_before's). A play laid beside them is
    read as if they were empty; taken as tiles in its line, they would run into it (KAF read
    as KAFCACO)."""
    _, then, _ = record.play_rows
    if emptied is None or not then:
        return set()
    board = record.game.board
    standing = [t for t in record.game.turns if t.kind == "play" and t.placed
                and all(board.occupied(p.row, p.col) for p in t.placed)]
    since = min(emptied[p.row * SIZE + p.col] for p in standing[-2].placed) \
        if len(standing) >= 2 else -math.inf
    return {(r, c) for r, c in added
            if (emptied[r * SIZE + c] == -math.inf or emptied[r * SIZE + c] < since)
            and then[r][c] != "." and _top(raw, r, c) == then[r][c]}


def _as_empty(probs: Probs, squares: set) -> Probs:
    """The probabilities with these squares read surely empty."""
    out = list(probs)
    for r, c in squares:
        out[r * SIZE + c] = [0.0] * EMPTY_CLASS + [1.0]
    return out


def _clear(reading: Inferred | None, note: list[Entry] | None, probs: Probs) -> bool:
    """Whether a best reading is a clear play of lexicon words: every square surely a tile,
    and no phony alerted. Only such a play is recorded against the record's own counts."""
    return _sure(reading, note, probs) and not any(a["kind"] == "phony" for a in note)


def _sure(reading: Inferred | None, note: list[Entry] | None, probs: Probs) -> bool:
    """Whether a best reading's every square is surely a tile."""
    return reading is not None and note is not None \
        and all(_empty(probs, p.row, p.col) <= 1.0 - SURE_TILE for p in reading.placed)


def _play_entry(reading: Inferred, time: float) -> Entry:
    """The journal entry of a play the camera read."""
    entry = {
        "type": "play",
        "source": "camera",
        "time": time,
        "coord": str(reading.coord),
        "word": reading.word,
        "probability": round(reading.probability, 4),
    }
    if any(p.tile.blank for p in reading.placed):
        entry["blank_options"] = [list(o) for o in reading.blank_options]
    return entry


def _unseen_join(record: Record, probs: Probs, added: tuple, time: float, emptied: Any
                 ) -> tuple[Inferred | None, list[Entry] | None]:
    """A play of tiles read surely that would be legal but for touching no tile of the
    record: tiles the camera never saw (a play under a broadcast overlay, or behind a rack or
    a hand at the board's edge) join it. It is recorded as read, with a warning, when each of
    its squares read surely empty after the record's last play was read (so it is no steady
    misreading, like a score bar's letters): dropped, it would leave every later play that
    joins it unrecorded as well, and give the next one to the wrong player. A phony too (a
    letter misread, or a word the lexicon lacks): held back for a clear reading that never
    comes, its tiles would pile onto every later play. (None, None) when no such play fits."""
    reading, note = _best_reading(record, probs, added, time, emptied, connected=False)
    if not _sure(reading, note, probs):
        return None, None
    since = record.play_rows[2]
    for p in reading.placed:
        last_empty = emptied[p.row * SIZE + p.col]
        if last_empty == -math.inf or since is not None and last_empty < since:
            return None, None
    why = (f"{reading.coord} {reading.word}: joins no tile of the record; recorded as read "
           "(a play the camera did not see, under an overlay, a rack or a hand, probably "
           "joins it: enter it, and the scores are recomputed)")
    note.append(_alert("play-unconnected", why, "warning", len(record.game.turns), time))
    return reading, note


def _phantom(record: Record, change: Change, probs: Probs, time: float) -> list[Entry]:
    """An earlier play all of whose tiles are now surely gone, while the plays after it
    stand, was never played: the camera held a misreading for a while (a hand or a rack
    at the board's edge read as tiles) and the record gave it a turn. It is deleted from
    the record by a journaled correction, with an alert, when the record stands without
    it, so that the later plays go back to their players. Tiles never leave the board
    once the next turn has begun, so nothing else explains them all gone."""
    gone, actions = set(change.removed), record.actions
    rules, tileset = record.game.rules, record.game.tileset
    game = g.new_game(rules, tileset)
    for index, action in enumerate(actions):
        before = len(game.turns)
        game = apply_action(game, action)
        if action["type"] != "play" or index == len(actions) - 1:
            continue
        turn = game.turns[before]
        placed = {(p.row, p.col): p.tile for p in turn.placed}
        if not placed or not set(placed) <= gone or gone - set(placed) - set(
                record.memory.removed):
            continue
        if any(_empty(probs, r, c) < (BLANK_GONE if tile.blank else SURE_TILE)
               for (r, c), tile in placed.items()):
            continue
        try:
            fold(rules, tileset, actions[:index] + actions[index + 1:])
        except ActionError:
            continue  # a later play leans on its tiles: the TD must sort it out
        return _deleted(record, index, turn, before + 1, time, "its tiles are gone while "
                        "later plays stand")
    return []


def _never_played(record: Record, last: g.Turn) -> bool:
    """Whether the last play, its tiles now all gone, can have been no turn: its words are in
    the lexicon and the camera's last reading showed its tiles as recorded (no letter mended
    into a word), so no challenge can have taken it off. The camera misread something (a hand
    or a rack at the board's edge) or the player took the tiles back before ending the turn;
    either way, a withdrawal would give every later play to the wrong player."""
    lexicon, rows = record.lexicon, record.rows
    if lexicon is None or not rows or record.game.turns[-1] is not last \
            or record.actions[-1]["type"] != "play":
        return False
    shown = all(rows[p.row][p.col] == ("?" if p.tile.blank else p.tile.letter)
                for p in last.placed)
    return shown and all(word.text in lexicon for word in last.words)


def _deleted(record: Record, index: int, turn: g.Turn, number: int, time: float, why: str
             ) -> list[Entry]:
    """Action `index`, the play that made turn `number` (from 1), deleted from the record as
    a misreading by a journaled correction with an alert, so that the later plays go back to
    their players."""
    why = f"{turn.coord} {turn.word} (turn {number}) removed from the record: {why}, so it " \
          "was a misreading"
    alert = _alert("play-deleted", why, "warning", len(record.game.turns), time)
    alert["data"] = {"removed": [list(sq) for sq in sorted((p.row, p.col)
                                                          for p in turn.placed)]}
    return [alert, {"type": "correct", "op": "delete", "index": index, "reason": why,
                    "source": "camera", "time": time}]


def _amended(record: Record, change: Change, raw: Probs, time: float) -> list[Entry]:
    """The last play changed before the next turn (tiles slid, swapped, added or taken
    back while its player still thinks: the clock that ends a turn is out of view),
    replaced by what the board shows now when that is another play of lexicon words
    through every tile of it still there and none taken away (stray readings elsewhere
    aside), on the board as it was before. Taking every tile back is a withdrawal and
    moving older tiles a disturbance, so neither is an amendment. `raw`: the camera's
    probabilities, before blank_prior."""
    game, last, actions = record.game, record.game.last_play, record.actions
    if last is None or game.turns[-1] is not last or actions[-1]["type"] != "play":
        return []
    taken = {(p.row, p.col) for p in last.placed}
    gone = set(change.removed)
    # Tiles the camera now reads otherwise than at its last reading: a record that
    # already differs from the camera (letters the lexicon or the operator mended) is
    # no change on the board. One such tile is more likely a misreading than a change.
    rows = record.rows
    other = [(r, c) for r, c in taken - gone if rows and _top(raw, r, c) != rows[r][c]]
    # New tiles in line with the play that the camera now surely reads as tiles joined it
    # (its player laid them), phony or not, when the camera already read them, as now, in
    # the reading that recorded the play (left out then as doubtful). Not blanks: a plain
    # square read as a blank is the camera's commonest steady misreading. They join it too,
    # if the words are then in the lexicon, when read within STILL_LAYING seconds of that
    # reading: the player paused while laying tiles. Other new tiles are the next play.
    action, then, seen = record.play_rows
    ours = action is actions[-1]
    line = [sq for sq in _extensions(game.board, tuple(sorted(taken)), set(change.added))
            if _empty(raw, *sq) < 1.0 - SURE_TILE]
    early = {(r, c) for r, c in line if ours and then and _top(raw, r, c) == then[r][c] not in ".?"}
    phony_ok = True
    if ours and seen is not None and 0.0 < time - seen <= STILL_LAYING and set(line) - early:
        early, phony_ok = set(line), False
    grown = bool(early) and not gone
    if not (gone & taken or len(other) > 1 or grown) \
            or gone - taken - set(record.memory.removed) or taken <= gone:
        return []
    squares_now = tuple(sorted((taken - gone) | (early if grown else set(change.added))))
    uncounted = bool(actions[-1].get("uncounted"))
    before = record.without_last()
    reading, note = _best_reading(before, blank_prior(raw, before.game.board), squares_now,
                                  time, whole=grown, counted=not uncounted)
    was = notation(before.game.board, last.placed)
    if uncounted and reading is not None:  # still more than the set, or the rack, holds?
        uncounted = bool(over_counted(before.game.board, reading.placed, game.tileset)) \
            or len(reading.placed) > before.game.rack_sizes[before.game.to_move]
    if reading is None or note is None or any(a["kind"] == "phony" for a in note) and (
            not grown or not phony_ok and _infer(game, blank_prior(raw, game.board),
                                                 tuple(sorted(early)), record.lexicon).legal):
        # not a play of lexicon words (when paused, while the new tiles alone make the next
        # play of lexicon words): the usual reading decides
        return []
    kept = {(p.row, p.col) for p in reading.placed}
    if not taken - gone <= kept or kept & gone or set(reading.placed) == set(last.placed):
        return []  # not another play through what stays
    why = f"{was[0]} {was[1]} changed to {reading.coord} {reading.word} before the next turn"
    amended: Entry = {"type": "play", "coord": str(reading.coord), "word": reading.word}
    if uncounted:
        amended["uncounted"] = True
    entry = {"type": "correct", "op": "replace", "index": len(actions) - 1,
             "action": amended, "reason": why, "source": "camera", "time": time}
    if any(p.tile.blank for p in reading.placed):
        entry["blank_options"] = [list(o) for o in reading.blank_options]
    return note + [_alert("play-amended", why, "info", len(game.turns) - 1, time), entry]


def _unblanked(record: Record, change: Change, raw: Probs, time: float) -> list[Entry]:
    """A recorded blank that the camera read as an empty square at its last reading and now
    surely reads as a letter in line with new tiles was never there: the lexicon filled a gap
    or an end of an earlier play with it (a plain blank is easily missed), and the letter is
    a tile of the play now laid. The earlier play loses the blank by a journaled correction,
    with an alert, and the new play is read through the square; kept, the blank would turn
    that tile into one played through, and the new play's word and score would be wrong.
    `raw`: the camera's probabilities, before blank_prior."""
    game, rows, actions = record.game, record.rows, record.actions
    added = set(change.added)
    if not added or change.removed or not rows:
        return []
    for r, c in ((r, c) for r in range(SIZE) for c in range(SIZE)):
        tile, top = game.board.at(r, c), _top(raw, r, c)
        if tile is None or not tile.blank or rows[r][c] != "." or top in ".?" \
                or _square(raw, r, c)[CLASSES.index(top)] < SURE_TILE:
            continue
        line = added | {(r, c)}
        if len({sq[0] for sq in line}) > 1 and len({sq[1] for sq in line}) > 1:
            continue
        found = _placed_by(record, (r, c))
        if found is None:
            continue
        index, before, placed = found
        kept = tuple(p for p in placed if (p.row, p.col) != (r, c))
        if not kept:
            continue
        fixed = _rewritten(actions[index], before, kept)
        if fixed is None:
            continue
        edited = actions[:index] + (fixed,) + actions[index + 1:]
        try:
            now = fold(game.rules, game.tileset, edited)
        except ActionError:
            continue  # the blank joins the play's tiles, or a later play leans on it
        corrected = replace(record, game=now, actions=edited)
        reading, note = _best_reading(corrected, blank_prior(raw, now.board),
                                      tuple(sorted(line)), time, whole=True)
        if reading is None or note is None:
            continue
        was = f"{actions[index]['coord']} {actions[index]['word']}"
        why = (f"{was} recorded with a blank on {square_name(r, c)} that the camera never saw; "
               f"it now reads {top} there, a tile of {reading.coord} {reading.word}, so the "
               f"play was {fixed['coord']} {fixed['word']}")
        return [*_correction(index, fixed, why, len(game.turns), time), *note,
                _play_entry(reading, time)]
    return []


def _respent(record: Record, change: Change, raw: Probs, time: float, emptied: Any,
              faces: Sequence[str], phony: bool) -> list[Entry]:
    """A play the camera clearly reads with tiles the set has no more of, recorded with the
    counts kept after all: the earlier tile each of those kinds was spent on is the one misread
    when it is the only one of its kind that the camera now reads as another letter (or, a
    blank, as anything else: an empty square, where the lexicon filled one in). Each such
    tile's play is corrected to that reading by a journaled correction, with an alert, and
    the play is read against the corrected record. When the camera reads every such tile as
    before and the play, as read, is of lexicon words, the misread one is the tile that alone
    made its play a phony (see _phony_tile); a phony read now may hold the misread tile itself
    (`phony`: ENOW read as ENOH, when the H of an earlier BOH, a word of another lexicon, is
    no misreading).
    No entries unless every kind has exactly one such tile and the play then fits the
    counts. `raw`: before blank_prior."""
    game, actions = record.game, list(record.actions)
    entries: list[Entry] = []
    for face in faces:
        same = (face, "?") if face == BLANK else (face, ".", "?")
        misread = [(r, c) for r in range(SIZE) for c in range(SIZE)
                   if (tile := game.board.at(r, c)) is not None and tile.face == face
                   and _top(raw, r, c) not in same]
        now = replace(record, actions=tuple(actions))
        mended = None
        if not misread and not phony:
            mended = _lettered_blank(now, raw) if face == BLANK else _phony_tile(now, face, raw)
        if len(misread) != 1 and mended is None:
            return []
        (r, c), = misread or [mended[0]]
        found = _placed_by(now, (r, c))
        if found is None:
            return []
        index, before, placed = found
        letter = _top(raw, r, c)
        if mended or letter != ".":
            tile = mended[1] if mended else Tile(letter)
            placed = tuple(p if (p.row, p.col) != (r, c) else Placement(r, c, tile)
                           for p in placed)
        else:  # a blank the lexicon filled in where the camera saw none
            placed = tuple(p for p in placed if (p.row, p.col) != (r, c))
        if not placed:
            return []
        was = f"{actions[index]['coord']} {actions[index]['word']}"
        rewritten = _rewritten(actions[index], before, placed)
        if rewritten is None:
            return []
        actions[index] = rewritten
        fixed = f"{was} corrected to {rewritten['coord']} {rewritten['word']}"
        if mended and face == BLANK:
            why = (f"{fixed}: a blank the set had no more of was read again, and the camera "
                   f"gives {tile.letter} some chance on {square_name(r, c)}: a plain "
                   f"{tile.letter}, not a blank")
        elif mended:
            what = f"a blank as {tile.letter}" if tile.blank else tile.letter
            why = (f"{fixed}: a {face} the set had no more of was read again, and {what} on "
                   f"{square_name(r, c)} makes that play, a phony as recorded, words of the "
                   "lexicon")
        else:
            now_reads = "an empty square" if letter == "." else letter
            why = (f"{fixed}: the camera now reads {now_reads} on {square_name(r, c)}, and "
                   f"again a {face} the set had no more of")
        entries += _correction(index, rewritten, why, len(game.turns), time)
    try:
        now = fold(game.rules, game.tileset, actions)
    except ActionError:
        return []
    corrected = replace(record, game=now, actions=tuple(actions))
    reading, note = _best_reading(corrected, blank_prior(raw, now.board), change.added, time,
                                  emptied)
    if reading is None or note is None or any(a["kind"] == "too-many-of-letter" for a in note):
        return []
    return entries + note + [_play_entry(reading, time)]


def _lettered_blank(record: Record, raw: Probs) -> tuple[tuple[int, int], Tile] | None:
    """The square of the one recorded blank that the camera gives some chance (BLANK_SEEN) of
    being the letter it was named as, a letter the set still has, and that plain tile. The
    set's count says one blank is misread, and where the camera reads every blank as before,
    the likeliest is a plain letter the network took for a blank (NAZI read as NAZi): its
    words stay as they were. None unless exactly one such blank."""
    game = record.game
    left = Counter(game.tileset.counts)
    left.subtract(game.board.faces())
    found = [((r, c), Tile(t.letter)) for r, c, t in game.board.tiles()
             if t.blank and left[t.letter] > 0
             and _square(raw, r, c)[CLASSES.index(t.letter)] >= BLANK_SEEN]
    return found[0] if len(found) == 1 else None


def _phony_tile(record: Record, face: str, raw: Probs) -> tuple[tuple[int, int], Tile] | None:
    """The square of the one recorded `face` tile that, read as another tile, turns the play
    that laid it from a phony into words of the lexicon, and that tile (a blank named as
    likeliest, or the letter the camera now gives the most chance of the letters that fit);
    None unless exactly one such tile. The set's count says one tile of `face` is misread, and
    a phony that one other tile makes good (a plain blank u read as D) is the likeliest place
    for it, where the camera, reading the same tile as steadily as before, cannot tell."""
    lexicon, game = record.lexicon, record.game
    if lexicon is None or face == BLANK:
        return None
    left = Counter(game.tileset.counts)
    left.subtract(game.board.faces())
    found = []
    for r, c, tile in game.board.tiles():
        if tile.face != face or (placed_by := _placed_by(record, (r, c))) is None:
            continue
        _, before, placed = placed_by
        if blank_letters(lexicon, before.board, placed, ()):  # its words, as recorded, are good
            continue
        i = next(i for i, p in enumerate(placed) if (p.row, p.col) == (r, c))
        fit = [letters[0] for letters in blank_letters(lexicon, before.board, placed, [i])]
        read = _square(raw, r, c)
        options = [(read[CLASSES.index(x)], Tile(x)) for x in fit if left[x] > 0]
        if fit and left[BLANK] > 0:
            as_blank = tuple(Placement(p.row, p.col, Tile(fit[0], blank=True)) if k == i else p
                             for k, p in enumerate(placed))
            # The play's other blanks, if any, keep the letters they were recorded as.
            blanks = [k for k, p in enumerate(as_blank) if p.tile.blank]
            named = likeliest_blanks(lexicon, before.board, as_blank, [
                tuple(x if k == i else placed[k].tile.letter for k in blanks) for x in fit])
            letter = named[0][blanks.index(i)]
            options.append((read[BLANK_CLASS] * BLANK_ODDS, Tile(letter, blank=True)))
        if options:
            found.append(((r, c), max(options, key=lambda o: o[0])[1]))
    return found[0] if len(found) == 1 else None


def _renamed_blank(record: Record, probs: Probs, added: tuple, time: float, emptied: Any
                   ) -> list[Entry]:
    """A play read as a phony that is words of the lexicon once a recorded blank is named
    another letter its own play allows (MUTINIZE recorded where MUTINISE was played, and
    RAXES later laid through its S): the blank's play is corrected by a journaled correction,
    with an alert, and the play recorded as read against the corrected record. The lexicon
    had left that blank's letter open, so the first naming was a guess; a phony is rarer.
    No entries unless exactly one renaming does it, of a blank no operator named, without
    making any play a phony that was words."""
    lexicon, game = record.lexicon, record.game
    if lexicon is None:
        return []
    found = []
    for r, c, tile in game.board.tiles():
        if not tile.blank or (r, c) in record.named \
                or (placed_by := _placed_by(record, (r, c))) is None:
            continue
        index, before, placed = placed_by
        i = next(k for k, p in enumerate(placed) if (p.row, p.col) == (r, c))
        for (letter,) in blank_letters(lexicon, before.board, placed, [i]):
            if letter == tile.letter:
                continue
            named = tuple(Placement(r, c, Tile(letter, blank=True)) if k == i else p
                          for k, p in enumerate(placed))
            action = _rewritten(record.actions[index], before, named)
            if action is None:
                continue
            actions = list(record.actions)
            actions[index] = action
            try:
                now = fold(game.rules, game.tileset, actions)
            except ActionError:
                continue
            if _phonies(now, lexicon) - _phonies(game, lexicon):
                continue
            corrected = replace(record, game=now, actions=tuple(actions))
            reading, note = _best_reading(corrected, probs, added, time, emptied)
            if reading is None or note is None or any(
                    a["kind"] in ("phony", "too-many-of-letter") for a in note):
                continue
            found.append((index, action, (r, c), letter, reading, note))
    if len(found) != 1:
        return []
    (index, action, square, letter, reading, note), = found
    was = record.actions[index]
    why = (f"{was['coord']} {was['word']} corrected to {action['coord']} {action['word']}: "
           f"{reading.coord} {reading.word} is words of the lexicon with the blank on "
           f"{square_name(*square)} as {letter}, a phony as recorded")
    return (_correction(index, action, why, len(game.turns), time) + note
            + [_play_entry(reading, time)])


def _phonies(game: g.Game, lexicon: Lexicon) -> set[int]:
    """The turns that are plays forming a word the lexicon lacks."""
    return {i for i, t in enumerate(game.turns) if t.kind == "play"
            and any(w.text.upper() not in lexicon for w in t.words)}


def _rewritten(action: Entry, before: g.Game, placed: tuple) -> Entry | None:
    """A play action with its placements changed (a misread tile mended or dropped), written
    on the board it was played on; None when what is left is no play there (the tile dropped
    joined the others to the board)."""
    try:
        validate(before.board, placed, before.tileset, counted=False, connected=False)
    except IllegalPlay:
        return None
    coord, word = notation(before.board, placed)
    return {**action, "coord": str(coord), "word": word}


def _correction(index: int, action: Entry, why: str, turn: int, time: float) -> list[Entry]:
    """The camera's journaled replacement of action `index` by `action`, with its alert."""
    return [_alert("play-amended", why, "warning", turn, time),
            {"type": "correct", "op": "replace", "index": index, "action": action,
             "reason": why, "source": "camera", "time": time}]


def _plays(record: Record) -> list[tuple[int, g.Game, tuple]]:
    """Every play action of the record: its index, the game before it and its placements."""
    before = g.new_game(record.game.rules, record.game.tileset)
    out = []
    for index, action in enumerate(record.actions):
        after = apply_action(before, action)
        if action["type"] == "play":
            out.append((index, before,
                        tuple(p for t in after.turns[len(before.turns):] for p in t.placed)))
        before = after
    return out


def _placed_by(record: Record, square: tuple[int, int]
               ) -> tuple[int, g.Game, tuple] | None:
    """The play action that laid the tile standing on `square`: its index, the game before
    it and its placements (None when no play did). The last play on the square: an earlier
    one there was withdrawn."""
    found = [play for play in _plays(record) if any((p.row, p.col) == square for p in play[2])]
    return found[-1] if found else None


def _best_reading(
    record: Record, probs: Probs, added: tuple, time: float, emptied: Any = None,
    whole: bool = False, counted: bool = True, connected: bool = True,
) -> tuple[Inferred | None, list[Entry] | None]:
    """The most plausible play and the alerts it comes with; (None, []) when no legal play
    fits squares that are surely tiles; (None, None) when more likely nothing was played.

    Candidates: every new square as one play, the plays on part of them (the rest
    then stray readings: a square cut off at the frame's edge, a reflection, the side of
    a tile read on the square behind it), and a line of new squares with a gap or two
    filled or an end extended (a plain blank read as the square it covers). Each is
    weighed by how probable its letters are, times the chance that the squares it leaves
    out in its own line are really empty, times STRAY_ODDS for each other square it leaves
    out that surely holds a tile, times the tile probability of each gap it fills, times
    PHONY_ODDS when its words are not in the lexicon (a phony is rare; the lexicon may
    mend a doubtful letter but never turns a clearly read phony into another word).
    whole: every square is known to be a tile, so only the play of them all is weighed;
    counted, connected: whether the set's letter counts and the rule that a play joins the
    board's tiles bind.
    """
    game, own = record.game, record.lexicon
    turn = len(game.turns)
    checks = [None, own] if own is not None else [None]
    best: tuple[float, Inferred, tuple, bool, Probs] | None = None
    board = game.board
    clear: list[tuple[Inferred, tuple]] = []  # plays of sure tiles and lexicon words
    parts = [] if whole else _parts(board, added, probs) + _gaps_filled(board, added)
    for part in [tuple(added)] + parts:
        rest = set(added) - set(part)
        # Left-out squares that would have extended the play (joined to it along its
        # line) count against it unless they are probably empty; others are strays.
        inline = _extensions(board, part, set(added))
        weight = math.prod(_empty(probs, r, c) for r, c in inline)
        if weight < STRAY_FLOOR:
            continue  # clearly read tiles in line are not left out
        for r, c in rest - set(inline):
            p = _empty(probs, r, c)
            weight *= p + (1.0 - p) * STRAY_ODDS
        gaps = set(part) - set(added)
        for r, c in gaps:
            weight *= 1.0 - _empty(probs, r, c)
        if weight <= 0.0:
            continue  # a square read as surely empty is no hidden blank
        seen = _as_blanks(probs, gaps) if gaps else probs
        floor = 0.0  # readings of lexicon words less probable than this cannot win
        for lexicon in checks:
            most = weight * (1.0 if lexicon is not None or own is None else PHONY_ODDS)
            if gaps and best is not None and most <= best[0]:
                continue  # it cannot win, and a play with a gap filled is never clear
            reading = _infer(game, seen, part, lexicon, counted, floor, connected)
            if not reading.legal:
                continue
            if lexicon is None and own is not None:
                # A lexicon word must beat this phony by PHONY_ODDS (BLANK_ALONE: the
                # phony may be all blanks, the word not); a clear phony then costs a
                # few letter choices, not thousands.
                floor = reading.probability * PHONY_ODDS * BLANK_ALONE
            valid = lexicon is not None or own is None
            odds = reading.probability * weight * (1.0 if valid else PHONY_ODDS)
            if all(p.tile.blank for p in reading.placed):
                odds *= BLANK_ALONE  # blanks alone fit almost anywhere; players rarely do it
            if best is None or odds > best[0]:
                best = (odds, reading, tuple(sorted(rest)), valid, seen)
            if valid and part == tuple(sorted(part)) and all(
                _empty(probs, r, c) < 1.0 - SURE_TILE for r, c in part
            ):
                clear.append((reading, tuple(sorted(rest))))
    # Or nothing was played, and every new square is a misreading (a plain square taken
    # for a blank beside a tile's side): likelier than a lone phony of doubtful tiles.
    nothing = math.prod(_empty(probs, r, c) for r, c in added)
    if nothing >= STRAY_FLOOR and (best is None or best[0] < nothing):
        return None, None
    if best is None:
        return None, []
    _, reading, rest, valid, seen = best
    if emptied is not None and valid:
        reading, rest = _laid_first(reading, rest, clear, emptied)
    if not valid and own is not None:
        squares_read = tuple((p.row, p.col) for p in reading.placed)
        reading = infer_phony(board, seen, squares_read, game.tileset, own, PHONY_WORDS_ODDS,
                              counted=counted, connected=connected) or reading
    if not valid and own is not None and any(p.tile.blank for p in reading.placed):
        reading = _name_phony_blanks(own, board, reading)
    alerts = []
    if not valid:
        why = f"{reading.coord} {reading.word}: not in the lexicon"
        alerts.append(_alert("phony", why, "info", turn, time))
    if rest:
        stray = " ".join(square_name(*sq) for sq in rest)
        why = f"read as tiles but not part of {reading.coord} {reading.word}: {stray}"
        alerts.append(_alert("stray-tiles", why, "info", turn, time))
    used_up, faces = _used_up(game, probs, reading)
    if used_up:
        why = (f"{reading.coord} {reading.word}: the camera reads {used_up}, but the set "
               "has no more such tiles; an earlier play may be misread")
        alerts.append(_alert("too-many-of-letter", why, "warning", turn, time))
        alerts[-1]["data"] = {"letters": faces}
    return reading, alerts


def _used_up(game: g.Game, probs: Probs, reading: Inferred) -> tuple[str, list[str]]:
    """The squares of a play where the camera clearly reads another tile than the one
    recorded, of a kind the set has no more of (say 'a blank on 13E'; '' when none), and
    those kinds: the play is then read again past the set's counts (see read), as a count
    spent by an earlier misreading would otherwise bend this play and later ones."""
    spent = _spent(game, probs, reading)
    out = [f"{'a blank' if face == BLANK else repr(face)} on {square_name(p.row, p.col)}"
           for p, face in spent]
    return ", ".join(out), sorted({face for _, face in spent})


def _spent(game: g.Game, probs: Probs, reading: Inferred) -> list[tuple[Placement, str]]:
    """The placements of a play where the camera clearly reads another tile than the one
    placed, of a kind the set has no more of, each with that kind."""
    used = Counter(game.board.faces())
    used.update(p.tile.face for p in reading.placed)
    out = []
    for p in reading.placed:
        row = _square(probs, p.row, p.col)
        k = max(range(EMPTY_CLASS), key=row.__getitem__)  # its likeliest tile
        face = CLASSES[k]
        if row[k] > 0.5 and face != p.tile.face and game.tileset.counts.get(face, 0) <= used[face]:
            out.append((p, face))
    return out


def _spent_on_blanks(game: g.Game, raw: Probs, reading: Inferred) -> bool:
    """Whether every square where the camera reads a letter the set has no more of holds a
    blank in this counted reading, and is read as a blank with some chance (BLANK_SEEN): a
    blank still to be played, its plain face taken for a letter, is then likelier than an
    earlier play misread. `raw`: before blank_prior."""
    spent = _spent(game, raw, reading)
    return bool(spent) and all(
        p.tile.blank and _square(raw, p.row, p.col)[BLANK_CLASS] >= BLANK_SEEN
        for p, _ in spent)


def _name_phony_blanks(lexicon: Lexicon, board: Board, reading: Inferred) -> Inferred:
    """A phony's blanks named by the words through them alone (the other words are wrong
    whatever the blanks are), or, when those words allow no letters either (a word of
    another lexicon), by how word-like the letters make them."""
    options = blank_letters(lexicon, board, reading.placed, own_words=True)
    ranked = likeliest_blanks(lexicon, board, reading.placed, options or None)
    placed = name_blanks(reading.placed, ranked[0])
    _, word = notation(board, placed)
    return replace(reading, placed=placed, word=word,
                   blank_options=tuple(ranked) if options else ())


def _infer(game: g.Game, probs: Probs, squares_now: tuple, lexicon: Lexicon | None = None,
           counted: bool = True, floor: float = 0.0, connected: bool = True) -> Inferred:
    """infer_play, where a play of more tiles than the player holds is never legal while
    the set's counts bind."""
    held = game.rack_sizes[game.to_move]
    if counted and len(squares_now) > held:
        reading = infer_play(game.board, probs, squares_now, game.tileset)
        return replace(reading, legal=False, reason=f"{len(squares_now)} tiles from {held}")
    return infer_play(game.board, probs, squares_now, game.tileset, lexicon,
                      counted=counted, floor=floor, connected=connected)


def _disturbed(memory: Memory, change: Change, turn: int, time: float, what: str,
               kind: str = "board-disturbed") -> tuple[list[Entry], Memory]:
    """An alert for this change, unless it is the disturbance last alerted."""
    key = (change.added, change.removed)
    if key == memory.disturbed:
        return [], memory
    names = [square_name(*sq) for sq in change.added + change.removed]
    alert = _alert(kind, f"{what}: {' '.join(names)}", "violation", turn, time)
    alert["data"] = {"added": [list(sq) for sq in change.added],
                     "removed": [list(sq) for sq in change.removed]}
    return [alert], replace(memory, disturbed=key)


def squares(items: Sequence[Sequence[int]]) -> Squares:
    """Squares as journaled ([row, column] lists) as tuples."""
    return tuple((int(r), int(c)) for r, c in items)


def _gaps_filled(board: Board, added: tuple, most: int = 2) -> list[tuple]:
    """Runs of new squares along a row or column with the empty squares between them taken as
    tiles too, and an empty square between them and a tile already on the board (at most
    `most` such gaps per run; new squares further apart, a stray perhaps, start another run):
    a plain blank the camera took for the square it covers. A run of every new square may
    also take the first empty square beyond either end, past any board tiles."""
    parts = []
    for axis in (0, 1):
        lines: dict[int, list[int]] = {}
        for sq in added:
            lines.setdefault(sq[axis], []).append(sq[1 - axis])
        for fixed, along in lines.items():
            line = [(fixed, a) if axis == 0 else (a, fixed) for a in range(SIZE)]
            empty = [not board.occupied(*sq) and sq not in added for sq in line]
            runs = [[min(along)]]
            for a in sorted(along)[1:]:
                if sum(empty[runs[-1][-1] + 1 : a]) > most:
                    runs.append([])
                runs[-1].append(a)
            for run in runs:
                lo, hi = run[0], run[-1]
                inner = [a for a in range(lo, hi + 1) if empty[a]]
                ends = [[]]  # with neither, either or both squares beyond the ends
                for end, step in ((lo, -1), (hi, 1)):
                    gap = end + step
                    while 0 <= gap < SIZE and board.occupied(*line[gap]):
                        gap += step
                    beyond = gap + step
                    hooked = gap == end + step and 0 <= beyond < SIZE \
                        and board.occupied(*line[beyond])
                    if 0 <= gap < SIZE and empty[gap] and (hooked or len(run) == len(added)):
                        ends += [e + [gap] for e in ends]
                for end_gaps in ends:
                    gaps = inner + end_gaps
                    if 0 < len(gaps) <= most:
                        parts.append(tuple(sorted(line[a] for a in run + gaps)))
    return parts


def _as_blanks(probs: Probs, gaps: set) -> Probs:
    """The probabilities with these squares' empty readings counted as blanks too (at the
    game rate, BLANK_ODDS, as blank_prior counts the blank readings): a tile the camera took
    for its square is most likely a plain blank, unless a letter clearly showed."""
    out = list(probs)
    for r, c in gaps:
        row = list(_square(probs, r, c))
        row[BLANK_CLASS] += row[EMPTY_CLASS] * BLANK_ODDS
        out[r * SIZE + c] = row
    return out


def _top(probs: Probs, r: int, c: int) -> str:
    """The square's likeliest class as the board rows show it ('A'-'Z', '?', '.')."""
    read = _square(probs, r, c)
    return CLASSES[max(range(len(CLASSES)), key=read.__getitem__)]


def _laid_first(reading: Inferred, rest: tuple, clear: list, emptied: Any
                ) -> tuple[Inferred, tuple]:
    """Of the chosen play and the clear plays on other squares of the same reading, the one
    whose squares were last seen empty earliest (by ORDER_GAP or more): two turns the camera
    saw only together are recorded in the order they were laid."""
    def laid(r: Inferred) -> float:
        return float(sorted(emptied[p.row * SIZE + p.col] for p in r.placed)[len(r.placed) // 2])

    squares = {(p.row, p.col) for p in reading.placed}
    first, first_rest = reading, rest
    for other, other_rest in clear:
        if squares.isdisjoint((p.row, p.col) for p in other.placed) \
                and laid(other) + ORDER_GAP < laid(first):
            first, first_rest = other, other_rest
    if first is reading:
        return reading, rest
    # the chosen play's squares are the next turn's, not strays
    return first, tuple(sq for sq in first_rest if sq not in squares)


def _doubting_blanks(change: Change, board: Board, probs: Probs,
                     then: Sequence[str]) -> Change:
    """The change without recorded blanks read as empty but not surely so: a plain blank
    looks much like the square under it, and a tile is rarely taken off the board. Nor those
    the camera read as empty at the reading that recorded the last play (`then`, its rows): a
    blank it never told from its square (the lexicon filled it in) is not taken away when it
    reads as the square again; taken for gone, it made the next tile laid beside it a tile
    knocked aside."""
    removed = tuple(
        (r, c) for r, c in change.removed
        if not board.at(r, c).blank
        or _empty(probs, r, c) >= BLANK_GONE and not (then and then[r][c] == ".")
    )
    return replace(change, removed=removed)


def _gone(placed, probs: Probs, fair: float = 0.2, other: float = 0.05
          ) -> set[tuple[int, int]]:
    """The squares of these placements whose tile the camera no longer sees: read more likely
    empty than not; or (a lettered tile's; a blank looks much like its square) fairly likely
    empty and more so than as their own tile; or read as anything but their own tile. A
    premium label (the centre star, a corner's print) can half or wholly read as some letter
    once its tile has gone, but not as the tile that went."""
    def gone(p) -> bool:
        read = _square(probs, p.row, p.col)
        empty, own = read[EMPTY_CLASS], read[expected_class(p.tile)]
        if empty > 0.5:
            return True
        if not p.tile.blank and empty >= fair and empty > own:
            return True
        return own < other
    return {(p.row, p.col) for p in placed if gone(p)}


def _extensions(board: Board, part: tuple, added: set) -> list[tuple[int, int]]:
    """New squares outside `part` that join it along its line, through tiles on the board
    or other new squares: had they been tiles, the play would have run over them."""
    rows, cols = {r for r, _ in part}, {c for _, c in part}
    axes = [(0, 1)] if len(rows) == 1 and len(cols) > 1 else []
    axes += [(1, 0)] if len(cols) == 1 and len(rows) > 1 else []
    found = []
    for dr, dc in axes or [(0, 1), (1, 0)]:
        for sign, (r, c) in ((-1, min(part)), (1, max(part))):
            r, c = r + sign * dr, c + sign * dc
            while 0 <= r < SIZE and 0 <= c < SIZE and (board.occupied(r, c) or (r, c) in added):
                if (r, c) in added and (r, c) not in part:
                    found.append((r, c))
                r, c = r + sign * dr, c + sign * dc
    return found


def _moved(removed: tuple, added: tuple) -> bool:
    """Whether the new squares are the missing tiles pushed aside: as many, each new one
    next to (or diagonally by) a missing one."""
    return len(removed) == len(added) and all(
        any(max(abs(r - q), abs(c - d)) <= 1 for q, d in removed) for r, c in added
    )


def blank_prior(probs: Probs, board: Board) -> list[list[float]]:
    """The classifier's probabilities with a blank made as rare as it is in a game, on the
    squares still empty in the record (a recorded blank is known to be there).

    The classifier learnt from crops with three blanks for every letter; a set has two blanks
    in a hundred tiles, fewer than the average letter, so its raw blank odds are about
    BLANK_ODDS too high, and a plain square (which a blank resembles) suffers for it.
    """
    weighted = [list(row) for row in probs]
    for i, row in enumerate(weighted):
        if board.occupied(*divmod(i, SIZE)):
            continue
        row[BLANK_CLASS] *= BLANK_ODDS
        total = sum(row)
        row[:] = [p / total for p in row]
    return weighted


def _parts(board: Board, added: tuple, probs: Probs, most: int = 16) -> list[tuple]:
    """Runs of the new squares that could be the real play when not all of them are: each
    run that line_groups() finds, and each run trimmed by a square or two at either end,
    most strongly seen first."""
    parts = set()
    for group in line_groups(board, added):
        run = tuple(group)
        for head in range(3):
            for tail in range(3):
                part = run[head : len(run) - tail]
                if part and len(part) < len(added):
                    parts.add(part)

    def seen(part: tuple) -> float:
        return sum(1.0 - _empty(probs, r, c) for r, c in part)

    return sorted(parts, key=seen, reverse=True)[:most]


def _square(probs: Probs, r: int, c: int) -> Sequence[float]:
    """A square's class probabilities (a reading's rows run row-major, row 1 first)."""
    return probs[r * SIZE + c]


def _empty(probs: Probs, r: int, c: int) -> float:
    """How likely the square is empty."""
    return probs[r * SIZE + c][EMPTY_CLASS]


def _alert(kind: str, message: str, severity: str, turn: int, time: float) -> dict[str, Any]:
    return {
        "type": "alert",
        "kind": kind,
        "message": message,
        "severity": severity,
        "turn": turn,
        "time": time,
    }
