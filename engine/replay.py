"""Replaying a GCG record through the engine: the TD's score checker.

Each line is checked twice: its recorded score against what the rules give (the engine's
computed score), and its recorded total against the previous recorded total plus the recorded
score (the arithmetic on the score sheet). Keeping the two apart reports each mistake once instead
of every later total. Rule violations (off-turn moves, illegal placements, racks that cannot
exist, exchanges with too few tiles in the bag) are reported as they are met.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .game import (
    OUT,
    OVER,
    SCORELESS,
    Game,
    GameError,
    challenge_bonus,
    check_rack,
    deduct_rack,
    end_out,
    exchange,
    new_game,
    out_player,
    pass_turn,
    play,
    racks_left,
    time_penalty,
    withdraw,
)
from .gcg import GcgError, GcgEvent, GcgRecord
from .rules import Rules
from .tiles import TileSet


@dataclass(frozen=True)
class Discrepancy:
    """One finding. kind: 'score', 'total', 'illegal' or 'unsupported'."""

    line: int | None
    player: str
    kind: str
    reason: str
    recorded: int | None = None
    computed: int | None = None


@dataclass(frozen=True)
class Replay:
    game: Game | None
    discrepancies: tuple[Discrepancy, ...]
    events: int


_RACK_RULES = ("not-in-rack", "rack-not-in-bag", "rack-size")


class _Stop(Exception):
    """The record cannot be followed further (an unplayable move)."""


def unsupported_reason(record: GcgRecord, tileset: TileSet) -> str | None:
    """Why this record is not for this tile set, or None when it is."""
    for key, value in record.pragmas:
        if key == "tile-distribution" and value.strip().lower() != tileset.name:
            return f"tile distribution {value.strip()!r} is not supported (have {tileset.name!r})"
    for ev in record.events:
        for ch in ev.rack + ev.word + ev.exchanged + ev.tiles:
            if ch not in ".?" and not tileset.has_face(ch.upper()):
                return f"letter {ch!r} is not in the {tileset.name} tile set"
    return None


def replay(record: GcgRecord, rules: Rules, tileset: TileSet) -> Replay:
    """Replay every event of `record`, collecting discrepancies rather than stopping at one."""
    why = unsupported_reason(record, tileset)
    if why:
        return Replay(None, (Discrepancy(None, "", "unsupported", why),), 0)
    checker = _Checker(record, rules, tileset)
    done = 0
    for ev in record.events:
        try:
            checker.event(ev)
        except _Stop:
            break
        except GcgError as exc:
            checker.report(ev, "illegal", exc.reason)
            break
        done += 1
    else:
        checker.final_racks()
    return Replay(checker.game, tuple(checker.found), done)


class _Checker:
    def __init__(self, record: GcgRecord, rules: Rules, tileset: TileSet) -> None:
        self.record = record
        first = record.player_index(record.events[0].player) if record.events else 0
        self.game = new_game(rules, tileset, first)
        self.recorded = [0, 0]
        self.found: list[Discrepancy] = []
        self.pending: list[tuple[int, int]] = []  # (player, score) of end lines still expected
        self.play_rack = ""  # the rack recorded with the last play, to match its withdrawal
        self.timed: set[int] = set()  # players who already had a time penalty

    def report(self, ev: GcgEvent, kind: str, reason: str, computed: int | None = None) -> None:
        recorded = ev.score if kind == "score" else ev.total if kind == "total" else None
        self.found.append(Discrepancy(ev.line, ev.player, kind, reason, recorded, computed))

    def event(self, ev: GcgEvent) -> None:
        player = self.record.player_index(ev.player)
        expected_total = self.recorded[player] + ev.score
        if ev.total != expected_total:
            self.report(ev, "total", f"total should be {expected_total}", expected_total)
        self.recorded[player] = ev.total
        computed = getattr(self, f"_{ev.kind}")(ev, player)
        if computed is not None and computed != ev.score:
            self.report(ev, "score", f"{ev.kind} scores {computed} under the rules", computed)

    def _illegal(self, ev: GcgEvent, exc: GameError, stop: bool = True) -> None:
        self.report(ev, "illegal", f"{exc.rule}: {exc}")
        if stop:
            raise _Stop

    def _on_turn(self, ev: GcgEvent, player: int) -> None:
        if self.game.phase == OVER:
            self._illegal(ev, GameError("after-end", "move after the game ended"))
        if player != self.game.to_move:
            self._illegal(ev, GameError("off-turn", "it is the other player's turn"), stop=False)
            self.game = replace(self.game, to_move=player)

    def _check_rack(self, ev: GcgEvent, player: int) -> None:
        if ev.rack:
            try:
                check_rack(self.game, player, ev.rack)
            except GameError as exc:
                self._illegal(ev, exc, stop=False)

    def final_racks(self) -> None:
        """#rack1/#rack2 give the racks at the end of the record: they must be possible."""
        for player in (0, 1):
            rack = self.record.final_rack(player)
            if rack:
                try:
                    check_rack(self.game, player, rack)
                except GameError as exc:
                    name = self.record.players[player].nickname
                    self.found.append(
                        Discrepancy(None, name, "illegal", f"#rack{player + 1}: {exc}")
                    )

    def _play(self, ev: GcgEvent, player: int) -> int:
        self._on_turn(ev, player)
        self.play_rack = ev.rack
        self._act(ev, play, ev.coord, ev.word)
        return self.game.turns[-1].score

    def _pass(self, ev: GcgEvent, player: int) -> int:
        self._on_turn(ev, player)
        self._check_rack(ev, player)
        self._apply(ev, pass_turn)
        return 0

    def _exchange(self, ev: GcgEvent, player: int) -> int:
        self._on_turn(ev, player)
        try:
            self._act(ev, exchange, ev.exchanged or ev.exchange_count)
        except _Stop:
            self.game = pass_turn(self.game)  # reported; the turn still scored nothing
        return 0

    def _act(self, ev: GcgEvent, action, *args) -> None:
        """Apply a move checked against the recorded rack; a rack that cannot be right is
        reported and the move replayed without it."""
        try:
            self.game = action(self.game, *args, ev.rack or None)
        except GameError as exc:
            self._illegal(ev, exc, stop=exc.rule not in _RACK_RULES)
            self._apply(ev, action, *args)

    def _apply(self, ev: GcgEvent, action, *args) -> None:
        try:
            self.game = action(self.game, *args)
        except GameError as exc:
            self._illegal(ev, exc)

    def _withdraw(self, ev: GcgEvent, player: int) -> int:
        last = self.game.last_play
        if last is None or last.player != player:
            self._illegal(ev, GameError("no-play", "no play of this player to withdraw"))
        if ev.rack and self.play_rack and sorted(ev.rack) != sorted(self.play_rack):
            why = f"withdrawn with rack {ev.rack}, played from {self.play_rack}"
            self._illegal(ev, GameError("withdraw-rack", why), stop=False)
        self._apply(ev, withdraw)
        return self.game.turns[-1].score

    def _challenge_bonus(self, ev: GcgEvent, player: int) -> int:
        last = self.game.last_play
        if last is None or last.player != player:
            self._illegal(ev, GameError("no-play", "no play of this player was challenged"))
        rules = self.game.rules
        if rules.challenge != "points" or rules.challenge_points <= 0:
            return 0
        words = max(1, min(len(last.words), ev.score // rules.challenge_points))
        self._apply(ev, challenge_bonus, words)
        return self.game.turns[-1].score

    def _end_rack(self, ev: GcgEvent, player: int) -> int:
        phase = self.game.phase
        if phase == OUT:
            return self._settle_out(ev, player)
        if phase == OVER and self.pending:
            return self._take_pending(ev, player)
        if phase == SCORELESS:
            self._apply(ev, deduct_rack, player, ev.tiles)
            return self.game.turns[-1].score
        self._illegal(ev, GameError("not-ended", "end-of-game rack line before the game ended"))
        return 0

    def _settle_out(self, ev: GcgEvent, player: int) -> int:
        game = self.game
        out = out_player(game)
        left = racks_left(game)
        if sorted(ev.tiles) != sorted(left):
            self._illegal(ev, GameError("end-rack-tiles", f"the rack left is {left}"), stop=False)
        value = game.tileset.rack_value(left)
        # The record's own procedure: +x for the out-player, or a -x line for the opponent,
        # means the standard one; the profile decides when the record cannot tell.
        standard = value > 0 and (
            (player == out and ev.score == value) or (player != out and ev.score == -value)
        )
        procedure = "standard" if standard else game.rules.end_procedure
        self._apply(ev, _end_out_with, procedure)
        self.pending = [(t.player, t.score) for t in self.game.turns[len(game.turns) :]]
        return self._take_pending(ev, player)

    def _take_pending(self, ev: GcgEvent, player: int) -> int:
        for i, (who, points) in enumerate(self.pending):
            if who == player:
                del self.pending[i]
                return points
        self._illegal(ev, GameError("after-end", "no end-of-game line expected from this player"))
        return 0

    def _time(self, ev: GcgEvent, player: int) -> int:
        rules = self.game.rules
        minutes = -ev.score // rules.time_penalty if rules.time_penalty and ev.score < 0 else 0
        # Only a forfeit (the limit reached) ends a game early; the record shows points, not
        # time, so under a penalty cap a mid-game forfeit cannot be told from the record.
        if (self.game.phase != OVER or self.pending) and not rules.forfeits_on_time(minutes * 60):
            self._illegal(ev, GameError("phase", "time penalties come after the game ends"))
        if player in self.timed:
            self._illegal(ev, GameError("time-twice", "a second time penalty for this player"))
        self.timed.add(player)
        before = len(self.game.turns)
        self._apply(ev, time_penalty, player, minutes * 60)
        added = self.game.turns[before:]
        return added[0].score if added else 0


def _end_out_with(game: Game, procedure: str) -> Game:
    return end_out(replace(game, rules=replace(game.rules, end_procedure=procedure)))
