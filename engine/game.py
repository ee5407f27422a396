"""The two-player game as a state machine: each action takes a Game and returns a new one.

Racks are not needed to keep score: rack sizes and the bag count follow from the tiles played,
and once the bag is empty the tiles not on the board are exactly the racks. Actions that know a
rack (from a record or an operator) may pass it so it is checked too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from .board import Board, Coord
from .play import RACK_SIZE, IllegalPlay, Placement, Word, placements_for, score, validate
from .rules import Rules
from .tiles import TileSet

PLAYING, OUT, SCORELESS, OVER = "playing", "out", "scoreless", "over"


class GameError(ValueError):
    """An action the rules do not allow now; `rule` names which rule."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class Turn:
    """One scored entry of the game record.

    kind: 'play', 'pass', 'exchange', 'withdraw' (a phony taken back), 'challenge' (bonus for a
    play challenged in vain), 'out' (rack bonus for going out), 'rack' (a player's own rack
    deducted, or the opponent's under the standard procedure), 'time' (overtime penalty).
    """

    player: int
    kind: str
    score: int
    total: int
    coord: Coord | None = None
    word: str = ""
    placed: tuple[Placement, ...] = ()
    words: tuple[Word, ...] = ()
    tiles: str = ""
    count: int = 0  # tiles exchanged, also when which ones is unknown


@dataclass(frozen=True)
class Game:
    rules: Rules
    tileset: TileSet
    board: Board = Board()
    scores: tuple[int, int] = (0, 0)
    to_move: int = 0
    rack_sizes: tuple[int, int] = (RACK_SIZE, RACK_SIZE)
    bag: int = 0
    scoreless: int = 0
    phase: str = PLAYING
    turns: tuple[Turn, ...] = ()
    forfeited: int | None = None
    # The state just before the last play, so a withdrawn phony restores it exactly.
    before_play: Game | None = field(default=None, repr=False, compare=False)

    @property
    def last_play(self) -> Turn | None:
        """The most recent play if nothing but bonus lines came after it."""
        for t in reversed(self.turns):
            if t.kind == "play":
                return t
            if t.kind != "challenge":
                return None
        return None


def new_game(rules: Rules, tileset: TileSet, first: int = 0) -> Game:
    """A game before the first move; `first` is the index (0 or 1) of the player who starts."""
    if first not in (0, 1):
        raise ValueError("first must be 0 or 1")
    drawn = min(RACK_SIZE, tileset.size // 2)
    return Game(
        rules, tileset, to_move=first, rack_sizes=(drawn, drawn), bag=tileset.size - 2 * drawn
    )


def unseen(game: Game, rack: str = "") -> Counter[str]:
    """Tiles a player cannot see (bag plus opponent's rack), given their own rack of faces."""
    left = game.tileset.bag()
    left.subtract(game.board.faces())
    left = +left  # none left of a letter the board holds too many of (a play recorded uncounted)
    left.subtract(rack)
    if any(n < 0 for n in left.values()):
        extra = sorted(f for f, n in left.items() if n < 0)
        raise GameError("rack-not-in-bag", f"rack {rack!r} holds tiles already used up: {extra}")
    return +left


def check_rack(game: Game, player: int, rack: str) -> None:
    """A known rack must fit the player's rack size and the tiles not yet on the board."""
    if len(rack) > game.rack_sizes[player]:
        raise GameError(
            "rack-size",
            f"rack {rack!r} has {len(rack)} tiles, player {player + 1} holds "
            f"{game.rack_sizes[player]}",
        )
    unseen(game, rack)


def _require(game: Game, phase: str, action: str) -> None:
    if game.phase != phase:
        raise GameError("phase", f"cannot {action}: the game is in phase {game.phase!r}")


def _with_turn(game: Game, player: int, kind: str, points: int, **kw) -> Game:
    scores = list(game.scores)
    scores[player] += points
    turn = Turn(player, kind, points, scores[player], **kw)
    return replace(game, scores=(scores[0], scores[1]), turns=game.turns + (turn,))


def _next_turn(game: Game, zero: bool) -> Game:
    scoreless = game.scoreless + 1 if zero else 0
    phase = SCORELESS if scoreless >= game.rules.scoreless_turns else game.phase
    return replace(game, to_move=1 - game.to_move, scoreless=scoreless, phase=phase)


def play(
    game: Game, coord: Coord, word: str, rack: str | None = None, counted: bool = True,
    connected: bool = True,
) -> Game:
    """Place a word in GCG notation ('.' or the letter itself over existing tiles);
    `counted`, `connected`: whether the set's counts (its letters, and so the tiles a rack
    holds) and the rule that a play joins the board's tiles bind (see play.validate); a rack
    played past its size is left empty, and a play after an out-play (the count that emptied
    that rack was wrong) goes on with the game."""
    if not counted and game.phase == OUT:
        game = replace(game, phase=PLAYING)
    _require(game, PLAYING, "play")
    player = game.to_move
    try:
        placed = placements_for(game.board, coord, word)
        validate(game.board, placed, game.tileset, counted, connected)
    except IllegalPlay as exc:
        raise GameError(exc.rule, str(exc)) from exc
    if counted and len(placed) > game.rack_sizes[player]:
        raise GameError(
            "rack-size", f"{len(placed)} tiles played from a rack of {game.rack_sizes[player]}"
        )
    if rack is not None:
        check_rack(game, player, rack)
        short = Counter(p.tile.face for p in placed) - Counter(rack)
        if short:
            raise GameError(
                "not-in-rack", f"played {''.join(sorted(short.elements()))} not on rack {rack}"
            )
    result = score(game.board, placed, game.tileset)
    drawn = min(len(placed), game.bag)
    sizes = list(game.rack_sizes)
    sizes[player] = max(0, sizes[player] + drawn - len(placed))
    after = _with_turn(
        game,
        player,
        "play",
        result.total,
        coord=coord,
        word=word,
        placed=placed,
        words=result.words,
    )
    after = replace(
        after,
        board=game.board.with_tiles((p.row, p.col, p.tile) for p in placed),
        bag=game.bag - drawn,
        rack_sizes=(sizes[0], sizes[1]),
        before_play=game,
    )
    after = _next_turn(after, zero=result.total == 0)
    if sizes[player] == 0:
        after = replace(after, phase=OUT)
    return after


def withdraw(game: Game) -> Game:
    """The last play was a phony and is taken back: its tiles leave the board, it scores 0."""
    last = game.last_play
    if last is None or game.before_play is None:
        raise GameError("no-play", "there is no play to withdraw")
    before = game.before_play
    restored = replace(
        game,
        board=before.board,
        bag=before.bag,
        rack_sizes=before.rack_sizes,
        phase=PLAYING,
        before_play=None,
    )
    restored = _with_turn(
        restored, last.player, "withdraw", -last.score, coord=last.coord, word=last.word
    )
    scoreless = before.scoreless + 1
    phase = SCORELESS if scoreless >= game.rules.scoreless_turns else PLAYING
    return replace(restored, scoreless=scoreless, phase=phase)


def challenge_bonus(game: Game, words: int = 1) -> Game:
    """A challenge of the last play failed: under 'points' its player gains the penalty."""
    last = game.last_play
    if last is None:
        raise GameError("no-play", "a challenge bonus needs a play to follow")
    if game.rules.challenge != "points":
        raise GameError(
            "challenge-mode", f"no challenge bonus under {game.rules.challenge!r} challenge"
        )
    if not 1 <= words <= len(last.words):
        raise GameError(
            "challenge-words", f"the play formed {len(last.words)} words, {words} challenged"
        )
    return _with_turn(game, last.player, "challenge", game.rules.challenge_points * words)


def pass_turn(game: Game) -> Game:
    """A pass; also how a turn lost to a failed double challenge is recorded, which can follow
    an out-play (the game then still waits for the out-play to be settled)."""
    if game.phase not in (PLAYING, OUT):
        raise GameError("phase", f"cannot pass: the game is in phase {game.phase!r}")
    after = _next_turn(_with_turn(game, game.to_move, "pass", 0), zero=True)
    return replace(after, phase=OUT) if game.phase == OUT else after


def exchange(game: Game, tiles: str | int, rack: str | None = None) -> Game:
    """Exchange tiles (faces, or just a count when they are unknown); needs enough in the bag."""
    _require(game, PLAYING, "exchange")
    player = game.to_move
    count = tiles if isinstance(tiles, int) else len(tiles)
    if game.bag < game.rules.exchange_min_bag:
        raise GameError(
            "exchange-bag",
            f"exchange needs {game.rules.exchange_min_bag} tiles in the bag, it holds {game.bag}",
        )
    if not 1 <= count <= game.rack_sizes[player]:
        raise GameError("exchange-count", f"cannot exchange {count} tiles")
    if rack is not None:
        check_rack(game, player, rack)
        if isinstance(tiles, str) and Counter(tiles) - Counter(rack):
            raise GameError("not-in-rack", f"exchanged {tiles} not on rack {rack}")
    shown = tiles if isinstance(tiles, str) else ""
    return _next_turn(_with_turn(game, player, "exchange", 0, tiles=shown, count=count), zero=True)


def racks_left(game: Game) -> str:
    """Once the bag is empty, the faces not on the board: both racks together."""
    return "".join(sorted(unseen(game).elements()))


def known_racks(game: Game) -> tuple[str, str] | None:
    """Both racks when the tile count alone gives them: the bag is empty and every tile not on
    the board is the same face, so however they are split each rack is known. None otherwise
    (then only the players can say)."""
    left = unseen(game)
    if game.bag or len(left) > 1 or sum(left.values()) != sum(game.rack_sizes):
        return None
    face = next(iter(left), "")
    return face * game.rack_sizes[0], face * game.rack_sizes[1]


def out_player(game: Game) -> int | None:
    """The player whose rack is empty, once someone has played out: the last play's player
    where both racks count empty (a play recorded after an out-play, as the camera read it)."""
    last = game.last_play
    if last is not None and game.rack_sizes[last.player] == 0:
        return last.player
    return game.rack_sizes.index(0) if 0 in game.rack_sizes else None


def end_out(game: Game) -> Game:
    """The play that went out stands: settle the opponent's rack under the event's procedure."""
    _require(game, OUT, "settle the out-play")
    out = out_player(game)
    assert out is not None
    left = racks_left(game)
    value = game.tileset.rack_value(left)
    if game.rules.end_procedure == "wespa":
        game = _with_turn(game, out, "out", 2 * value, tiles=left)
    else:
        game = _with_turn(game, out, "out", value, tiles=left)
        game = _with_turn(game, 1 - out, "rack", -value, tiles=left)
    return replace(game, phase=OVER)


def deduct_rack(game: Game, player: int, rack: str) -> Game:
    """After the scoreless-turn limit a player deducts their own rack; the game is over once
    both have."""
    _require(game, SCORELESS, "deduct a rack")
    check_rack(game, player, rack)
    done = {t.player for t in game.turns[-2:] if t.kind == "rack"}
    if player in done:
        raise GameError("rack-deducted", f"player {player + 1} already deducted their rack")
    game = _with_turn(game, player, "rack", -game.tileset.rack_value(rack), tiles=rack)
    return replace(game, phase=OVER) if done else game


def end_scoreless(game: Game, racks: tuple[str, str]) -> Game:
    """Both players deduct their own racks at once."""
    unseen(game, racks[0] + racks[1])
    return deduct_rack(deduct_rack(game, 0, racks[0]), 1, racks[1])


def time_penalty(game: Game, player: int, seconds_over: int) -> Game:
    """Overtime: penalty points for `seconds_over`; past the forfeit limit the game ends lost."""
    points = game.rules.overtime_penalty(seconds_over)
    if game.rules.forfeits_on_time(seconds_over):
        game = replace(game, phase=OVER, forfeited=player)
    else:
        _require(game, OVER, "apply a time penalty before the game ends")
    return _with_turn(game, player, "time", -points) if points else game


@dataclass(frozen=True)
class Result:
    scores: tuple[int, int]
    winner: int | None
    spread: int
    forfeited: int | None = None


def result(game: Game) -> Result:
    """Final scores, winner and the winner's spread after the event's spread cap.

    A time forfeit loses whatever the scores; the winner's spread is then their margin, floored at
    0 (our copy of WESPA 5.3.3 is cut short, so this is an assumption to confirm).
    """
    _require(game, OVER, "report a result")
    a, b = game.scores
    if game.forfeited is not None:
        winner = 1 - game.forfeited
        margin = max(0, game.scores[winner] - game.scores[game.forfeited])
    elif a == b:
        return Result(game.scores, None, 0)
    else:
        winner = 0 if a > b else 1
        margin = abs(a - b)
    cap = game.rules.spread_cap
    return Result(game.scores, winner, margin if cap is None else min(margin, cap), game.forfeited)
