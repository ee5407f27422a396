"""The record of one game, whose state is derived only from the journal entries applied to it:
camera commits (as tilecast.interpret turns them into entries) and operator input.

The game is a fold of `actions` (plays, passes, exchanges, withdrawals, challenges, end, time)
over engine functions (tilecast.engine.actions), so a correction anywhere (an inserted pass, a
renamed blank, a fixed misread) just edits the list and recomputes every score. Each call to
`apply` returns the notifications the session should send to plugins, after the entry is safely
journaled; replaying a journal's entries, or any prefix of them, gives the same state again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tilecast import checks, interpret
from tilecast.engine import game as g
from tilecast.engine.actions import ActionError, fold
from tilecast.engine.board import parse_coord, square_name
from tilecast.engine.infer import Probs
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.rules import Rules
from tilecast.engine.tiles import TileSet
from tilecast.entries import InputError
from tilecast.events import Alert

Note = tuple[str, dict[str, Any]]  # (hook name without the tilecast_ prefix, arguments)
# Entries that may follow an out-play before its end is final: a challenge, a withdrawal, a
# failed double challenge's pass, a correction or a named blank, the operator's own `end`, or
# a play the camera clearly reads after it (flagged uncounted: the out-play's count was wrong).
REOPENING = frozenset({"pass", "withdraw", "challenge", "end", "correct", "blank", "play"})


@dataclass
class Recorder:
    """One game's record. Every field past the lexicon is set only by `apply`, so replaying the
    journal restores it; what a camera reading calls for is `interpret`'s answer, applied only
    once the session has journaled it."""

    rules: Rules
    tileset: TileSet
    lexicon: Lexicon | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    game: g.Game = field(init=False)
    memory: interpret.Memory = interpret.Memory()  # what the camera's readings alerted
    rows: tuple = ()  # the camera's top label of each square at its last journaled reading
    # (the last play's action, the rows and time of the first reading journaled after it)
    play_rows: tuple = (None, (), None)
    clocks: tuple[float | None, float | None] = (None, None)  # seconds left, as last entered
    settled: dict[str, Any] | None = None  # the `end` action the record implied itself
    raised: checks.Raised = checks.Raised()  # what tilecast.checks alerts were journaled
    seen_at: tuple[float | None, int | None] = (None, None)  # the last reading's time, frame
    doubted: dict[str, Any] | None = None  # the alert an operator's phony calls for, not yet raised
    named: frozenset = frozenset()  # the squares of blanks an operator named or entered

    def __post_init__(self) -> None:
        self.game = g.new_game(self.rules, self.tileset)

    # -- rebuilding ----------------------------------------------------------------------

    def rebuild(self, actions: list[dict[str, Any]]) -> g.Game:
        """Fold actions over the engine; raises InputError naming the first that fails."""
        try:
            return fold(self.rules, self.tileset, actions)
        except ActionError as exc:
            raise InputError(str(exc)) from exc

    def _commit(self, actions: list[dict[str, Any]]) -> g.Game:
        game = self.rebuild(actions)
        self.actions, self.game = actions, game
        return game

    # -- the game's own end --------------------------------------------------------------

    def implied(self, players: tuple[str, str] = ("Player 1", "Player 2")
                ) -> dict[str, Any] | None:
        """The entry the record now implies by itself, for the session to journal like any
        other: `end` once a play has emptied its player's rack with the bag empty (the engine's
        tile count: the set, less the board, less the opponent's rack), settled under the
        profile's out-play procedure with the tiles not on the board as the opponent's rack;
        `end` with both racks after the scoreless-turn limit when the tile count gives them
        (else a `scoreless-end` alert asks for them); else the next alert the record calls
        for (tilecast.checks)."""
        if self.game.phase == g.OUT:
            return {"type": "end", "source": "recorder"}
        racks = g.known_racks(self.game) if self.game.phase == g.SCORELESS else None
        if racks is not None:
            return {"type": "end", "racks": list(racks), "source": "recorder"}
        if self.doubted is not None:
            return self.doubted
        return checks.due(self.game, self.rows, self.raised, players, *self.seen_at)

    def _reopenable(self) -> bool:
        """Whether the last action is the end the record implied: the out-play may still be
        challenged, withdrawn or corrected (and the racks it or the tile count settled
        corrected), so what follows it is weighed without that end."""
        return bool(self.actions) and self.actions[-1] is self.settled

    def _reopened(self, handler, entry: dict[str, Any]) -> list[Note]:
        """`entry` applied to the game before the implied end (the session then implies the
        end again if the out-play still stands)."""
        saved = self.actions, self.game
        self._commit(self.actions[:-1])
        try:
            notes = handler(entry)
        except Exception:
            self.actions, self.game = saved
            raise
        return [("record_changed", {"game": self.game, "reason": "out-play reopened"})] + notes

    # -- entries -------------------------------------------------------------------------

    def apply(self, entry: dict[str, Any]) -> list[Note]:
        """Apply one journal entry (its `type` says which kind) and say what happened."""
        kind = entry.get("type")
        handler = getattr(self, f"_on_{str(kind).replace('-', '_')}", None)
        if handler is None:
            raise InputError(f"unknown event type {kind!r}")
        if kind in REOPENING and self._reopenable():
            return self._reopened(handler, entry)
        return handler(entry)

    def _moved(self, before: int) -> list[Note]:
        notes: list[Note] = []
        for turn in self.game.turns[before:]:
            hook = "move_withdrawn" if turn.kind == "withdraw" else "move_recorded"
            notes.append((hook, {"game": self.game, "turn": turn}))
        if self.game.phase == g.OVER:
            notes.append(("game_ended", {"game": self.game, "result": g.result(self.game)}))
        return notes

    def _act(self, action: dict[str, Any]) -> list[Note]:
        before = len(self.game.turns)
        self._commit(self.actions + [action])
        return self._moved(before)

    def _on_play(self, e: dict[str, Any]) -> list[Note]:
        action = {"type": "play", "coord": e["coord"], "word": e["word"]}
        for flag in ("uncounted", "unconnected"):
            if e.get(flag):
                action[flag] = True
        notes = self._act(action)
        if e.get("source") != "camera":
            self.named |= _blank_squares(action)
        if e.get("source") == "operator":
            self.doubted = self._phony_alert(e.get("time"))
        return notes + self._blank_question(e["coord"], e["word"], e.get("blank_options"))

    def _phony_alert(self, time: float | None) -> dict[str, Any] | None:
        """The alert for the play just entered by hand when a word it forms is not in the
        lexicon (the camera's readings are weighed and alerted in tilecast.interpret)."""
        turn = self.game.turns[-1]
        phonies = [w.text.upper() for w in turn.words if w.text.upper() not in self.lexicon] \
            if self.lexicon is not None and turn.kind == "play" else []
        if not phonies:
            return None
        message = (f"{turn.coord} {turn.word}: not in the lexicon ({', '.join(phonies)}), "
                   "as the operator entered it")
        alert = {"type": "alert", "kind": "phony", "message": message, "severity": "info",
                 "turn": len(self.game.turns) - 1, "time": time, "source": "recorder"}
        return {k: v for k, v in alert.items() if v is not None}

    def _blank_question(self, coord: str, word: str, options: list | None) -> list[Note]:
        """The operator asked to name the blank of the last play, read by the camera, when
        the lexicon allows no letter or several (`options`; None when not asked)."""
        if options is None or len(options) == 1 or not any(ch.islower() for ch in word):
            return []
        blank = next(i for i, ch in enumerate(word) if ch.islower())
        square = square_name(*parse_coord(coord).cells(blank + 1)[-1])
        return [("blank_needs_letter", {"game": self.game, "turn_index": len(self.game.turns) - 1,
                                        "square": square,
                                        "options": ["".join(o) for o in options]})]

    def _on_pass(self, e: dict[str, Any]) -> list[Note]:
        return self._act({"type": "pass"})

    def _on_exchange(self, e: dict[str, Any]) -> list[Note]:
        tiles = e.get("tiles") or int(e.get("count", 0))
        if self.game.bag < self.rules.exchange_min_bag:
            alert = Alert(
                "exchange-bag",
                f"exchange with {self.game.bag} tiles in the bag",
                "violation",
                len(self.game.turns),
                e.get("time", 0.0),
            )
            return [("alert", {"alert": alert})]
        return self._act({"type": "exchange", "tiles": tiles})

    def _on_withdraw(self, e: dict[str, Any]) -> list[Note]:
        return self._act({"type": "withdraw"})

    def _on_challenge(self, e: dict[str, Any]) -> list[Note]:
        """The operator's challenge outcome: an invalid play comes off; a valid one pays the
        challenged player (points) or costs the challenger the turn (double)."""
        if not e.get("valid", True):
            return self._act({"type": "withdraw"})
        if self.rules.challenge == "points":
            return self._act({"type": "challenge", "words": int(e.get("words", 1))})
        if self.rules.challenge == "double":
            return self._act({"type": "pass"})
        return []

    def _on_end(self, e: dict[str, Any]) -> list[Note]:
        racks = e.get("racks")
        notes = self._act({"type": "end", **({"racks": racks} if racks else {})})
        self.settled = self.actions[-1] if e.get("source") == "recorder" else None
        return notes

    def _on_time(self, e: dict[str, Any]) -> list[Note]:
        return self._act(
            {"type": "time", "player": int(e["player"]), "seconds_over": int(e["seconds_over"])}
        )

    def _on_announce(self, e: dict[str, Any]) -> list[Note]:
        """A player's announced score for their last play, checked against the rules."""
        last = next((t for t in reversed(self.game.turns) if t.kind == "play"), None)
        said = int(e["score"])
        if last is None or last.score == said:
            return []
        alert = Alert(
            "score-discrepancy",
            f"announced {said} for {last.word}, rules give {last.score}",
            "warning",
            len(self.game.turns) - 1,
            e.get("time", 0.0),
            {"announced": said, "computed": last.score, "player": last.player},
        )
        return [("alert", {"alert": alert})]

    def _on_slip(self, e: dict[str, Any]) -> list[Note]:
        """The results slip's scores against the computed final scores."""
        slip = tuple(int(x) for x in e["scores"])
        if slip == self.game.scores:
            return []
        alert = Alert(
            "slip-discrepancy",
            f"results slip says {slip[0]}-{slip[1]}, record "
            f"gives {self.game.scores[0]}-{self.game.scores[1]}",
            "warning",
            None,
            e.get("time", 0.0),
            {"slip": list(slip), "computed": list(self.game.scores)},
        )
        return [("alert", {"alert": alert})]

    def _on_correct(self, e: dict[str, Any]) -> list[Note]:
        """Edit the action list: insert, replace or delete action `index`; scores are
        recomputed from the start and the change is kept in the journal."""
        actions = list(self.actions)
        index, op = int(e["index"]), e["op"]
        if not 0 <= index <= len(actions) - (op != "insert"):
            raise InputError(f"no action {index} to {op}")
        if op == "insert":
            actions.insert(index, e["action"])
        elif op == "replace":
            actions[index] = e["action"]
        elif op == "delete":
            del actions[index]
        else:
            raise InputError(f"unknown correction {op!r}")
        last = self.actions[-1] if self.actions else None
        self._commit(actions)
        if e.get("source") != "camera" and op != "delete":
            self.named |= _blank_squares(e["action"])
        if op == "replace" and index == len(actions) - 1 and self.play_rows[0] is last \
                and e.get("source") != "camera":
            # The operator's edit of the last play (a blank named, a letter fixed) leaves the
            # camera's rows from the reading that recorded it; a camera amendment is read anew.
            self.play_rows = (self.actions[-1], *self.play_rows[1:])
        notes: list[Note] = [("record_changed", {"game": self.game, "reason": e.get("reason", op)})]
        if "blank_options" in e:  # the camera's amendment of the last play
            notes += self._blank_question(e["action"]["coord"], e["action"]["word"],
                                          e["blank_options"])
        return notes

    def _on_blank(self, e: dict[str, Any]) -> list[Note]:
        """Name the blank(s) of play action `index` (letters in order of the blanks)."""
        index, letters = int(e["index"]), str(e["letters"]).upper()
        if not 0 <= index < len(self.actions) or self.actions[index]["type"] != "play":
            raise InputError(f"action {index} is not a play")
        action = dict(self.actions[index])
        word, it = action["word"], iter(letters)
        action["word"] = "".join(next(it, ch).lower() if ch.islower() else ch for ch in word)
        return self._on_correct(
            {"op": "replace", "index": index, "action": action, "reason": f"blank named {letters}"}
        )

    def _on_clock(self, e: dict[str, Any]) -> list[Note]:
        player = int(e["player"])
        if player not in (0, 1):
            raise InputError(f"player must be 0 or 1, got {player}")
        clocks = list(self.clocks)
        clocks[player] = float(e["seconds_left"])
        self.clocks = (clocks[0], clocks[1])
        return [("clock", {"game": self.game, "clocks": self.clocks})]

    def _on_board(self, e: dict[str, Any]) -> list[Note]:
        """An audit copy of what the camera read (its moves are journaled apart), with what the
        recorder had alerted so far, so that a resumed run goes on exactly as this one would."""
        if "alerted" in e:
            self.memory = interpret.Memory.from_json(e["alerted"])
        self.rows = tuple(e.get("rows") or ())
        self.seen_at = (e.get("time"), e.get("frame"))
        # a letter alerted as too many that this reading no longer shows over is alerted anew
        self.raised = self.raised.keeping(checks.over_now(self.game, self.rows))
        actions = self.actions[:-1] if self._reopenable() else self.actions
        last = actions[-1] if actions else None
        if last is not None and last["type"] == "play" and self.play_rows[0] is not last:
            self.play_rows = (last, self.rows, e.get("time"))
        return []

    # -- camera --------------------------------------------------------------------------

    def interpret(self, probs: Probs, time: float, follow_on: bool = False, emptied: Any = None,
                  memory: interpret.Memory | None = None
                  ) -> tuple[list[dict[str, Any]], interpret.Memory]:
        """The entries a committed camera reading calls for (tilecast.interpret.read), and the
        alerts' memory after it, which the board entry that follows journals. `memory`: the
        one an earlier interpretation of the same reading gave (default: the record's own).

        After an out-play the record implied the end of, the reading is weighed against the
        game before that end: the out-play may yet be taken back.
        """
        record = interpret.Record(self.game, tuple(self.actions), self.lexicon, self.rows,
                                  self.play_rows, self.memory if memory is None else memory,
                                  self.named)
        if self._reopenable():
            record = record.without_last()
        return interpret.read(record, probs, time, follow_on, emptied)

    def _on_alert(self, e: dict[str, Any]) -> list[Note]:
        # A resumed run knows what it has already alerted, so it alerts it only once too.
        self.raised = self.raised.noting(e)
        self.memory = self.memory.noting(e)
        if self.doubted is not None and (e.get("kind"), e.get("turn")) == (
                "phony", self.doubted["turn"]):
            self.doubted = None
        fields = {
            k: e[k] for k in ("kind", "message", "severity", "turn", "time", "data") if k in e
        }
        return [("alert", {"alert": Alert(**fields)})]


def _blank_squares(action: dict[str, Any]) -> frozenset:
    """The squares a play action lays blanks on (none for other actions)."""
    if action.get("type") != "play":
        return frozenset()
    cells = parse_coord(action["coord"]).cells(len(action["word"]))
    return frozenset(sq for sq, ch in zip(cells, action["word"], strict=True) if ch.islower())
