"""Built-in plugin `broadcast`: the public state of every board, ready for the server to stream.

For each board it keeps a JSON-able snapshot (the board, scores, moves, unseen tiles, result...)
and a log of events numbered 1, 2, 3... A viewer subscribes to a board and receives each event,
in order, through a bounded queue; a viewer whose queue is full is dropped (it must subscribe
again), so a slow client never holds up the game or the other viewers.

A board may have a broadcast delay: its events reach viewers, the log and the snapshot only
`delay` seconds after they happen, so players cannot learn from the stream during the game.

Each plugin manager holds its own `Broadcast` (tilecast.pluginmanager makes it), which the
server reads through tilecast.services.LiveState and serves under /api/boards. Every method is
safe to call from several threads.
"""

from __future__ import annotations

import json
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tilecast.engine.board import format_coord, square_name
from tilecast.engine.game import OVER, PLAYING, Game, Result, Turn, result, unseen
from tilecast.engine.positions import positions
from tilecast.engine.record import gcg_text
from tilecast.events import SessionInfo
from tilecast.hookspecs import hookimpl

LOG_SIZE = 1000  # events kept per board for viewers that reconnect
KEEPALIVE_S = 15.0


def move_text(turn: Turn) -> str:
    """The move as a GCG line writes it: '8D WINDY', '-', '-ABC', '--', '(challenge)'..."""
    if turn.kind == "play":
        assert turn.coord is not None
        return f"{format_coord(turn.coord)} {turn.word}"
    if turn.kind == "exchange":
        return "-" + (turn.tiles or str(turn.count))
    fixed = {"pass": "-", "withdraw": "--", "challenge": "(challenge)", "time": "(time)"}
    return fixed.get(turn.kind, f"({turn.tiles})")  # 'out' and 'rack': the tiles counted


def move_said(turn: Turn) -> str:
    """The move in words for viewers: the main word in full (played-through letters shown,
    blanks in lower case), exchanges and passes said, not GCG's '-', '--' or '(challenge)'."""
    if turn.kind == "play":
        assert turn.coord is not None
        return f"{format_coord(turn.coord)} {full_word(turn)}"
    if turn.kind == "exchange":
        return f"exchanged {turn.tiles}" if turn.tiles else \
            f"exchanged {turn.count} tile{'s' if turn.count != 1 else ''}"
    fixed = {"pass": "passed", "withdraw": "phony withdrawn", "challenge": "challenge bonus",
             "time": "time penalty", "out": f"went out: opponent's rack {turn.tiles} counted",
             "rack": f"rack {turn.tiles} left"}
    return fixed[turn.kind]


def full_word(turn: Turn) -> str:
    """A play's main word with the letters it plays through filled in ('.ONKED' -> 'HONKED')."""
    for word in turn.words:
        if len(word.text) == len(turn.word) and all(
                a == "." or a.upper() == b.upper() for a, b in zip(turn.word, word.text,
                                                                    strict=True)):
            return "".join(b.upper() if a == "." else a for a, b in zip(turn.word, word.text,
                                                                        strict=True))
    return turn.word


def move_entry(turn: Turn, session: SessionInfo) -> dict[str, Any]:
    return {
        "player": turn.player,
        "name": session.players[turn.player],
        "kind": turn.kind,
        "move": move_text(turn),
        "said": move_said(turn),
        "score": turn.score,
        "total": turn.total,
        "words": [w.text for w in turn.words],
    }


def last_play(game: Game) -> Turn | None:
    """The last move if it was a play that stands (challenge bonuses, end-of-game racks and time
    penalties are not moves)."""
    for turn in reversed(game.turns):
        if turn.kind == "play":
            return turn
        if turn.kind in ("withdraw", "pass", "exchange"):
            return None
    return None


def public_state(
    session: SessionInfo,
    game: Game,
    final: Result | None = None,
    clocks: tuple[float | None, float | None] | None = None,
) -> dict[str, Any]:
    """What viewers may see of a board: a dict of JSON types. `final` defaults to the game's
    result once it is over; `clocks` are seconds left per player, when the operator gave them."""
    last = last_play(game)
    if final is None and game.phase == OVER:
        final = result(game)
    return {
        "board": session.board,
        "players": list(session.players),
        "profile": session.profile,
        "rows": game.board.rows(),
        "blanks": [
            {"square": square_name(r, c), "letter": t.letter}
            for r, c, t in game.board.tiles()
            if t.blank
        ],
        "last_play": [square_name(p.row, p.col) for p in last.placed] if last else [],
        "scores": list(game.scores),
        "to_move": game.to_move,
        "moves": _moves(game, session),
        "unseen": "".join(sorted(unseen(game).elements())),
        "bag": game.bag,
        "clocks": None if clocks is None else list(clocks),
        "values": dict(sorted(game.tileset.values.items())),
        "phase": game.phase,
        "result": None
        if final is None
        else {
            "scores": list(final.scores),
            "winner": final.winner,
            "spread": final.spread,
            "forfeited": final.forfeited,
        },
    }


def _moves(game: Game, session: SessionInfo) -> list[dict[str, Any]]:
    """Every turn as move_entry says it, a play later withdrawn marked `withdrawn`."""
    moves = [move_entry(t, session) for t in game.turns]
    for before, turn in zip(moves, game.turns[1:], strict=False):
        if turn.kind == "withdraw" and before["kind"] == "play":
            before["withdrawn"] = True
    return moves


class SubscriptionClosed(Exception):
    """The subscription was unsubscribed, or dropped because its queue was full."""


class Subscription:
    """One viewer of one board. `snapshot` is the board's state when it subscribed (None when
    nothing was released yet); `get` returns the events after it. `missed` holds the events
    after the `after` sequence number asked for, or None when the log no longer has them all."""

    def __init__(
        self,
        owner: Broadcast,
        board: str,
        maxsize: int,
        snapshot: dict[str, Any] | None,
        missed: list[dict[str, Any]] | None,
    ) -> None:
        self.board = board
        self.snapshot = snapshot
        self.missed = missed
        self.closed = False
        self.dropped = False
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue(maxsize)
        self._owner = owner

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next event, waiting up to `timeout` seconds (None: for ever); None on timeout.
        Raises SubscriptionClosed once dropped or unsubscribed."""
        return self._owner._next(self, timeout)

    def close(self) -> None:
        self._owner.unsubscribe(self)


@dataclass
class _Feed:
    delay: float = 0.0
    seq: int = 0
    pending: deque[tuple[float, dict[str, Any], tuple[SessionInfo, Game]]] = field(
        default_factory=deque)
    snapshot: dict[str, Any] | None = None
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_SIZE))
    subscribers: list[Subscription] = field(default_factory=list)
    released: tuple[SessionInfo, Game] | None = None  # the game the snapshot shows


@dataclass
class _Clock:
    """A board's chess clock as the browser runs it: `left` holds at wall time `at`, and the
    `running` player's side counts down from there."""

    left: list[float | None]
    running: int | None
    at: float

    def tick(self, now: float) -> None:
        if self.running is not None and self.left[self.running] is not None:
            self.left[self.running] = round(self.left[self.running] - (now - self.at), 3)
        self.at = now

    def as_json(self, at: float | None = None) -> dict[str, Any]:
        return {"left": list(self.left), "running": self.running,
                "at": self.at if at is None else at}


class Broadcast:
    """Public board states and their event streams. `now` is the clock delays are measured by
    (seconds; injectable for tests)."""

    def __init__(
        self, now: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time
    ) -> None:
        self._now, self._wall = now, wall
        self._cond = threading.Condition()
        self._feeds: dict[str, _Feed] = {}
        self._clocks: dict[str, tuple[float | None, float | None]] = {}
        self._clock: dict[str, _Clock] = {}

    # --- for the server -------------------------------------------------------------------

    def boards(self) -> list[str]:
        """Boards with a released state, by name."""
        with self._cond:
            self._release()
            return sorted(name for name, feed in self._feeds.items() if feed.snapshot)

    def snapshot(self, board: str) -> dict[str, Any]:
        """The board's latest released state (its `seq` is the last event it includes); KeyError
        when there is none. Treat it as read-only: it is shared with every viewer."""
        with self._cond:
            self._release()
            feed = self._feeds.get(board)
            if feed is None or feed.snapshot is None:
                raise KeyError(board)
            return feed.snapshot

    def state(
        self,
        session: SessionInfo,
        game: Game,
        clocks: tuple[float | None, float | None] | None = None,
    ) -> dict[str, Any]:
        """`game`'s public state now, undelayed: what viewers will see once it is released."""
        state = public_state(session, game, clocks=clocks)
        with self._cond:
            clock = self._clock.get(session.board)
            state["clock"] = None if clock is None else clock.as_json()
        return state

    def replay(self, board: str) -> dict[str, Any]:
        """Every position of the released game, start first, with its moves; KeyError when
        nothing is released yet."""
        with self._cond:
            self._release()
            feed = self._feeds.get(board)
            if feed is None or feed.released is None or feed.snapshot is None:
                raise KeyError(board)
            moves, (_, game) = feed.snapshot["moves"], feed.released
        return {
            "players": feed.snapshot["players"],
            "moves": moves,
            "positions": [{"rows": list(p.rows), "scores": list(p.scores), "placed": list(p.placed)}
                          for p in positions(game)],
        }

    def gcg(self, board: str) -> str:
        """The GCG of the released game (what viewers have seen so far); KeyError as replay."""
        with self._cond:
            self._release()
            feed = self._feeds.get(board)
            if feed is None or feed.released is None:
                raise KeyError(board)
            session, game = feed.released
        return gcg_text(game, session.players, session.board, session.lexicon)

    def events(self, board: str, after: int = 0) -> list[dict[str, Any]]:
        """Released events with a sequence number above `after` that the log still holds."""
        with self._cond:
            self._release()
            feed = self._feeds.get(board)
            return [] if feed is None else [e for e in feed.log if e["seq"] > after]

    def set_delay(self, board: str, seconds: float) -> None:
        """Hold the board's events back `seconds` from now on; events already waiting keep their
        time, and events never overtake each other."""
        if not (math.isfinite(seconds) and seconds >= 0):
            raise ValueError(f"a broadcast delay is a number of seconds >= 0, got {seconds!r}")
        with self._cond:
            self._feed(board).delay = seconds

    def delay(self, board: str) -> float:
        with self._cond:
            feed = self._feeds.get(board)
            return 0.0 if feed is None else feed.delay

    def subscribe(self, board: str, maxsize: int = 100, after: int | None = None) -> Subscription:
        """Start receiving the board's events (also for a board that has not started yet)."""
        if maxsize < 1:
            raise ValueError("a subscription needs room for at least one event")
        with self._cond:
            self._release()
            feed = self._feed(board)
            missed = None
            released = 0 if feed.snapshot is None else feed.snapshot["seq"]
            if after == released:
                missed = []
            elif after is not None and after < released and feed.log[0]["seq"] <= after + 1:
                missed = [e for e in feed.log if e["seq"] > after]
            sub = Subscription(self, board, maxsize, feed.snapshot, missed)
            feed.subscribers.append(sub)
            return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._cond:
            sub.closed = True
            feed = self._feeds.get(sub.board)
            if feed is not None and sub in feed.subscribers:
                feed.subscribers.remove(sub)
            self._cond.notify_all()

    def stream(
        self, board: str, after: int | None = None, keepalive: float = KEEPALIVE_S
    ) -> Iterator[str]:
        """Server-sent events for one viewer: the missed events or the snapshot, then each
        event as it is released; a comment line every `keepalive` seconds of silence. Ends when
        the viewer is dropped (its browser reconnects and resumes from its last event id)."""
        sub = self.subscribe(board, after=after)
        try:
            if sub.missed is not None:
                for event in sub.missed:
                    yield _sse(event["seq"], event["type"], event)
            elif sub.snapshot is not None:
                yield _sse(sub.snapshot["seq"], "snapshot", sub.snapshot)
            while True:
                try:
                    event = sub.get(keepalive)
                except SubscriptionClosed:
                    return
                if event is None:
                    yield ": keepalive\n\n"
                else:
                    yield _sse(event["seq"], event["type"], event)
        finally:
            sub.close()

    def stream_all(self, boards: list[str], keepalive: float = KEEPALIVE_S) -> Iterator[str]:
        """Server-sent events of several boards on one stream (an index or a wall of boards):
        each board's snapshot, then every event as released. Events carry no id: a browser
        that reconnects starts again from the snapshots."""
        subs = [self.subscribe(board) for board in boards]
        try:
            for sub in subs:
                if sub.snapshot is not None:
                    yield _sse(None, "snapshot", sub.snapshot)
            while True:
                try:
                    event = self._next_any(subs, keepalive)
                except SubscriptionClosed:
                    return
                yield ": keepalive\n\n" if event is None else _sse(None, event["type"], event)
        finally:
            for sub in subs:
                sub.close()

    # --- inside ---------------------------------------------------------------------------

    def _feed(self, board: str) -> _Feed:
        feed = self._feeds.get(board)
        if feed is None:
            feed = self._feeds[board] = _Feed()
        return feed

    def _publish(
        self, session: SessionInfo, game: Game, kind: str, final: Result | None = None,
        **extra: Any,
    ) -> None:
        board = session.board
        state = public_state(session, game, final, self._clocks.get(board))
        with self._cond:
            feed = self._feed(board)
            feed.seq += 1
            state["seq"] = feed.seq
            event = {"seq": feed.seq, "board": board, "type": kind, **extra, "state": state}
            due = self._now() + feed.delay
            if feed.pending:
                due = max(due, feed.pending[-1][0])
            clock = self._clock.get(board)
            if clock is not None:
                clock.tick(self._wall())
                clock.running = game.to_move if game.phase == PLAYING else None
                # the clock as viewers see it when the event is released, after the delay
                state["clock"] = clock.as_json(clock.at + (due - self._now()))
            else:
                state["clock"] = None
            feed.pending.append((due, event, (session, game)))
            self._release()
            self._cond.notify_all()  # waiting viewers recompute how long to wait

    def _release(self) -> None:
        """Move every event that is due to the log, the snapshot and the subscribers."""
        now = self._now()
        released = False
        for feed in self._feeds.values():
            while feed.pending and feed.pending[0][0] <= now:
                _, event, feed.released = feed.pending.popleft()
                feed.snapshot = event["state"]
                feed.log.append(event)
                for sub in list(feed.subscribers):
                    try:
                        sub._queue.put_nowait(event)
                    except queue.Full:
                        sub.dropped = sub.closed = True
                        feed.subscribers.remove(sub)
                released = True
        if released:
            self._cond.notify_all()

    def _next(self, sub: Subscription, timeout: float | None) -> dict[str, Any] | None:
        return self._next_any([sub], timeout)

    def _next_any(self, subs: list[Subscription], timeout: float | None
                  ) -> dict[str, Any] | None:
        """The next event of any of `subs`, as Subscription.get says."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                self._release()
                for sub in subs:
                    if sub.closed:
                        why = "dropped: it fell behind" if sub.dropped else "unsubscribed"
                        raise SubscriptionClosed(f"subscription to {sub.board} {why}")
                    try:
                        return sub._queue.get_nowait()
                    except queue.Empty:
                        pass
                due = [self._feeds[s.board].pending[0][0] for s in subs
                       if self._feeds[s.board].pending]
                wait = min(due) - self._now() if due else None
                if deadline is not None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return None
                    wait = left if wait is None else min(wait, left)
                self._cond.wait(wait)

    # --- hooks ----------------------------------------------------------------------------

    @hookimpl
    def tilecast_session_start(self, session: SessionInfo, game: Game) -> None:
        self._publish(session, game, "session-start")

    @hookimpl
    def tilecast_clock(
        self, session: SessionInfo, game: Game, clocks: tuple[float | None, float | None]
    ) -> None:
        with self._cond:
            before = self._clocks.get(session.board, (None, None))
            self._clocks[session.board] = clocks
            clock = self._clock.setdefault(session.board, _Clock([None, None], None, self._wall()))
            clock.tick(self._wall())
            for player in (0, 1):
                if clocks[player] != before[player]:  # the side just entered
                    clock.left[player] = clocks[player]
        self._publish(session, game, "clock")

    @hookimpl
    def tilecast_move_recorded(self, session: SessionInfo, game: Game, turn: Turn) -> None:
        self._publish(session, game, "move", move=move_entry(turn, session))

    @hookimpl
    def tilecast_move_withdrawn(self, session: SessionInfo, game: Game, turn: Turn) -> None:
        self._publish(session, game, "withdrawn", move=move_entry(turn, session))

    @hookimpl
    def tilecast_record_changed(self, session: SessionInfo, game: Game, reason: str) -> None:
        self._publish(session, game, "record-changed", reason=reason)

    @hookimpl
    def tilecast_game_ended(self, session: SessionInfo, game: Game, result: Result) -> None:
        self._publish(session, game, "game-ended", result)

    @hookimpl
    def tilecast_session_end(self, session: SessionInfo, game: Game) -> None:
        self._publish(session, game, "session-end")


def _sse(seq: int | None, kind: str, data: dict[str, Any]) -> str:
    head = "" if seq is None else f"id: {seq}\n"
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"

