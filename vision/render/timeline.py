"""Turning a script of turns into timed hand movements and board changes.

Positions are board coordinates in squares (u along row 1, v down the columns) plus a height h
above the board in squares. Each player sits at one side of the board; their hand comes in from
there, puts tiles down one by one, and leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tilecast.engine.board import SIZE
from tilecast.engine.tiles import Tile

from .hands import HandLook
from .script import RenderTurn


def eased(x: float) -> float:
    """0 to 1 as x goes 0 to 1, starting and stopping gently (a hand, a turning board)."""
    return x * x * (3 - 2 * x)


@dataclass(frozen=True)
class Reach:
    """One appearance of a hand: fingertip waypoints and the tiles it carries."""

    turn: int
    player: int
    side: int  # board side the arm comes from: 0 top, 1 right, 2 bottom, 3 left
    phase: str  # 'place', 'withdraw', 'exchange' or 'cross'
    look: HandLook
    keys: tuple[tuple[float, float, float, float], ...]  # (t, u, v, h)
    holds: tuple[tuple[float, float, Tile], ...]  # (from, until, tile) held under the fingers

    def at(self, t: float) -> np.ndarray | None:
        """Where the carried tile's centre (or the fingertip) is at time t: (u, v, h)."""
        ts = [k[0] for k in self.keys]
        if t < ts[0] or t > ts[-1]:
            return None
        i = min(int(np.searchsorted(ts, t, side="right")) - 1, len(ts) - 2)
        a, b = np.array(self.keys[i][1:]), np.array(self.keys[i + 1][1:])
        span = ts[i + 1] - ts[i]
        x = 0.0 if span <= 0 else (t - ts[i]) / span
        return a + (b - a) * eased(x)

    def held(self, t: float) -> Tile | None:
        for t0, t1, tile in self.holds:
            if t0 <= t < t1:
                return tile
        return None


@dataclass(frozen=True)
class Change:
    """A tile arriving on (put) or leaving (not put) the board."""

    t: float
    put: bool
    row: int
    col: int
    tile: Tile


@dataclass(frozen=True)
class Spin:
    """The board turned on its turntable by `by` degrees between t0 and t1, as players turn
    it to read it or to face the one to move."""

    t0: float
    t1: float
    by: float

    def turned(self, t: float) -> float:
        """Degrees turned by time t (eased in and out)."""
        x = min(max((t - self.t0) / (self.t1 - self.t0), 0.0), 1.0)
        return self.by * eased(x)


@dataclass(frozen=True)
class Timeline:
    reaches: tuple[Reach, ...]
    changes: tuple[Change, ...]
    turn_starts: tuple[float, ...]
    duration: float
    spins: tuple[Spin, ...] = ()

    def turned(self, t: float) -> float:
        """Degrees the board stands turned on its turntable at time t."""
        return sum(s.turned(t) for s in self.spins)


def off_board(side: int, along: float, reach: float = 9.0) -> np.ndarray:
    """A point past the board's edge on a side, `along` that edge (squares)."""
    return np.array({0: (along, -reach), 1: (SIZE + reach, along), 2: (along, SIZE + reach),
                     3: (-reach, along)}[side], float)


def shoulder(side: int, along: float) -> np.ndarray:
    """Where the arm comes from: the player's shoulder, far past their side and well above."""
    mid = SIZE / 2 + (along - SIZE / 2) * 0.3
    return np.append(off_board(side, mid, 26.0), 14.0)


def plan(turns: list[RenderTurn], sides: tuple[int, int], looks: tuple[HandLook, HandLook],
         rng: np.random.Generator, rests: tuple[float, float] = (2.0, 4.0),
         rethinks: float = 0.0, spins: float = 0.0) -> Timeline:
    """Timing of every hand movement and tile change for a script, with rests in between
    (`rests`: the shortest and longest pause after a turn, in seconds). A share `rethinks` of
    the plays that stand is first laid with two of its tiles the wrong way round; the player
    looks at it for a rest, then swaps them, all before the turn ends. After a share `spins`
    of the turns the board is turned on its turntable, a quarter or half turn."""
    reaches: list[Reach] = []
    changes: list[Change] = []
    spun: list[Spin] = []
    starts: list[float] = []
    t = float(rng.uniform(0.5, 1.2))
    speed = rng.uniform(14, 24)  # squares per second when travelling

    def travel(keys: list, to: np.ndarray, h: float) -> None:
        last = np.array(keys[-1][1:3])
        dist = float(np.linalg.norm(to - last))
        keys.append((keys[-1][0] + dist / speed + rng.uniform(0.08, 0.2), to[0], to[1], h))

    def come_in(side: int) -> tuple[list, float]:
        along = float(rng.uniform(2, 13))
        start = off_board(side, along)
        return [(t, start[0], start[1], float(rng.uniform(3, 6)))], along

    def leave(keys: list, side: int, along: float) -> None:
        travel(keys, off_board(side, along + rng.uniform(-3, 3)), float(rng.uniform(3, 6)))

    for i, turn in enumerate(turns):
        starts.append(t)
        player = turn.player % 2
        side = sides[player]
        if turn.placed:
            laid = list(turn.placed)
            swap = None
            if rethinks and not turn.withdrawn and len(laid) > 1 and rng.random() < rethinks:
                a, b = sorted(int(x) for x in rng.choice(len(laid), 2, replace=False))
                if laid[a].tile != laid[b].tile:
                    swap = a, b
                    laid[a] = replace(laid[a], tile=turn.placed[b].tile)
                    laid[b] = replace(laid[b], tile=turn.placed[a].tile)
            keys, along = come_in(side)
            holds = []
            held_from = t
            for p in laid:
                cell = np.array([p.col + 0.5, p.row + 0.5])
                travel(keys, cell, float(rng.uniform(0.5, 1.0)))
                k = keys[-1][0] + rng.uniform(0.08, 0.16)
                keys.append((k, cell[0], cell[1], 0.22))
                changes.append(Change(k, True, p.row, p.col, p.tile))
                holds.append((held_from, k, p.tile))
                held_from = k + rng.uniform(0.05, 0.15)
                keys.append((held_from, cell[0], cell[1], 0.22))
            leave(keys, side, along)
            reaches.append(Reach(i, player, side, "place", looks[player], tuple(keys),
                                 tuple(holds)))
            t = keys[-1][0]
            if swap is not None:
                t += rng.uniform(*rests)  # a second look at the board, the clock not yet hit
                keys, along = come_in(side)
                a, b = (turn.placed[k] for k in swap)
                cells = [np.array([p.col + 0.5, p.row + 0.5]) for p in (a, b)]
                moves = []  # pick up the tile on a, then the one on b; put b's right, then a's
                for cell, square, put, tile in ((cells[0], a, False, b.tile),
                                                (cells[1], b, False, a.tile),
                                                (cells[1], b, True, b.tile),
                                                (cells[0], a, True, a.tile)):
                    travel(keys, cell, float(rng.uniform(0.5, 1.0)))
                    k = keys[-1][0] + rng.uniform(0.08, 0.16)
                    keys.append((k, cell[0], cell[1], 0.22))
                    changes.append(Change(k, put, square.row, square.col, tile))
                    moves.append(k)
                leave(keys, side, along)
                holds = [(moves[0], moves[2], b.tile), (moves[2], moves[3], a.tile)]
                reaches.append(Reach(i, player, side, "place", looks[player], tuple(keys),
                                     tuple(holds)))
                t = keys[-1][0]
            if turn.withdrawn:
                t += rng.uniform(1.5, 3.5)  # the challenge
                keys, along = come_in(side)
                holds = []
                for p in reversed(turn.placed):
                    cell = np.array([p.col + 0.5, p.row + 0.5])
                    travel(keys, cell, float(rng.uniform(0.5, 1.0)))
                    k = keys[-1][0] + rng.uniform(0.08, 0.16)
                    keys.append((k, cell[0], cell[1], 0.22))
                    changes.append(Change(k, False, p.row, p.col, p.tile))
                    holds.append((k, np.inf, p.tile))
                leave(keys, side, along)
                holds = [(a, holds[j + 1][0] if j + 1 < len(holds) else keys[-1][0], tile)
                         for j, (a, _, tile) in enumerate(holds)]
                reaches.append(Reach(i, player, side, "withdraw", looks[player], tuple(keys),
                                     tuple(holds)))
                t = keys[-1][0]
        elif rng.random() < 0.5:  # exchange or pass: a hand comes to the near edge and goes
            keys, along = come_in(side)
            edge = off_board(side, along + rng.uniform(-2, 2), rng.uniform(-1.5, 0.5))
            travel(keys, edge, float(rng.uniform(1, 3)))
            leave(keys, side, along)
            reaches.append(Reach(i, player, side, "exchange", looks[player], tuple(keys), ()))
            t = keys[-1][0]
        if rng.random() < 0.15:  # a hand crosses the board and changes nothing
            t += rng.uniform(0.3, 1.0)
            who = int(rng.integers(2))
            keys, along = come_in(sides[who])
            travel(keys, rng.uniform(1, 14, 2), float(rng.uniform(2, 5)))
            exit_side = sides[who] if rng.random() < 0.6 else int(rng.integers(4))
            travel(keys, off_board(exit_side, rng.uniform(0, 15)), float(rng.uniform(3, 6)))
            reaches.append(Reach(i, who, sides[who], "cross", looks[who], tuple(keys), ()))
            t = keys[-1][0]
        if spins and rng.random() < spins:
            t += rng.uniform(0.4, 1.0)
            span = float(rng.uniform(0.8, 1.6))
            spun.append(Spin(t, t + span, float(rng.choice([90.0, -90.0, 180.0]))))
            t += span
        t += rng.uniform(*rests)  # the next player thinks (real rests are longer still)
    return Timeline(tuple(reaches), tuple(sorted(changes, key=lambda c: c.t)), tuple(starts),
                    t, tuple(spun))


def spread(timeline: Timeline, duration: float) -> Timeline:
    """The same game lasting `duration` seconds: every rest after a turn is lengthened by the
    same amount, as when players think for minutes (a real game runs about 40) rather than the
    plan's 2-4 s. Nothing changes when the timeline is already that long."""
    starts = timeline.turn_starts
    extra = (duration - timeline.duration) / len(starts) if starts else 0.0
    if extra <= 0:
        return timeline

    def later(turn: int, t: float) -> float:
        return t + extra * turn

    reaches = tuple(
        replace(r, keys=tuple((later(r.turn, k[0]), *k[1:]) for k in r.keys),
                holds=tuple((later(r.turn, a), later(r.turn, b), tile) for a, b, tile in r.holds))
        for r in timeline.reaches)
    def turn_of(t: float) -> int:
        return int(np.searchsorted(starts, t, side="right")) - 1

    changes = tuple(replace(c, t=later(turn_of(c.t), c.t)) for c in timeline.changes)
    spins = tuple(replace(s, t0=later(turn_of(s.t0), s.t0), t1=later(turn_of(s.t0), s.t1))
                  for s in timeline.spins)
    return Timeline(reaches, changes, tuple(later(i, t) for i, t in enumerate(starts)), duration,
                    spins)
