"""The timeline: every tile goes down (and a phony comes back up) under a hand, in script order."""

import numpy as np

from tilecast.vision.render.hands import draw_hand_look
from tilecast.vision.render.script import RenderTurn, add_phonies, selfplay_script
from tilecast.vision.render.timeline import plan, spread


def test_changes_follow_the_script_under_a_hand():
    rng = np.random.default_rng(0)
    game = selfplay_script(4)
    turns = add_phonies(game[:5], rng, share=0.3) + [RenderTurn((), player=1)] + game[5:]
    assert any(t.withdrawn for t in turns) and any(not t.placed for t in turns)
    looks = (draw_hand_look(rng), draw_hand_look(rng))
    timeline = plan(turns, (2, 0), looks, rng)
    expected = []
    for i, turn in enumerate(turns):
        expected += [(i, True, p.row, p.col, p.tile) for p in turn.placed]
        if turn.withdrawn:
            expected += [(i, False, p.row, p.col, p.tile) for p in reversed(turn.placed)]
    got = [(c.put, c.row, c.col, c.tile) for c in timeline.changes]
    assert got == [e[1:] for e in expected]
    starts = list(timeline.turn_starts) + [timeline.duration]
    for c, e in zip(timeline.changes, expected, strict=True):
        assert starts[e[0]] <= c.t < starts[e[0] + 1]  # during its own turn
        hands = [r for r in timeline.reaches if r.at(c.t) is not None]
        assert hands and all(r.player == turns[e[0]].player % 2 for r in hands)
        pos = hands[0].at(c.t)
        assert abs(pos[0] - (c.col + 0.5)) < 1e-6 and abs(pos[1] - (c.row + 0.5)) < 1e-6
        assert pos[2] < 0.3  # the tile is at the board when it lands
    assert timeline.duration > max(c.t for c in timeline.changes) + 0.9  # the board rests


def test_some_hands_cross_without_changing_anything():
    rng = np.random.default_rng(1)
    turns = [RenderTurn(()) for _ in range(60)]
    timeline = plan(turns, (1, 3), (draw_hand_look(rng), draw_hand_look(rng)), rng)
    assert not timeline.changes
    phases = {r.phase for r in timeline.reaches}
    assert phases == {"cross", "exchange"}
    crossing = [r for r in timeline.reaches if r.phase == "cross"]
    over = [r.at(t) for r in crossing for t in np.linspace(r.keys[0][0], r.keys[-1][0], 20)]
    assert any(0 < p[0] < 15 and 0 < p[1] < 15 for p in over)  # it passes over the board


def test_spread_lengthens_the_rests_and_keeps_every_tile_under_its_hand():
    rng = np.random.default_rng(2)
    turns = add_phonies(selfplay_script(5)[:8], rng, share=0.3) + [RenderTurn((), player=1)]
    assert any(t.withdrawn for t in turns)
    timeline = plan(turns, (3, 1), (draw_hand_look(rng), draw_hand_look(rng)), rng)
    assert spread(timeline, timeline.duration / 2) == timeline  # never shorter
    long = spread(timeline, 600.0)
    assert long.duration == 600.0
    extra = (600.0 - timeline.duration) / len(turns)
    gaps = np.diff(list(timeline.turn_starts) + [timeline.duration])
    long_gaps = np.diff(list(long.turn_starts) + [long.duration])
    assert np.allclose(long_gaps, gaps + extra)  # each turn's rest grew by the same amount
    assert [(c.put, c.row, c.col, c.tile) for c in long.changes] == [
        (c.put, c.row, c.col, c.tile) for c in timeline.changes]
    starts = list(long.turn_starts) + [long.duration]
    for before, c in zip(timeline.changes, long.changes, strict=True):
        turn = int(np.searchsorted(timeline.turn_starts, before.t, side="right")) - 1
        assert starts[turn] <= c.t < starts[turn + 1]
        hands = [r for r in long.reaches if r.at(c.t) is not None]
        assert len(hands) == 1 and hands[0].turn == turn
        pos = hands[0].at(c.t)
        assert abs(pos[0] - (c.col + 0.5)) < 1e-6 and abs(pos[1] - (c.row + 0.5)) < 1e-6
        if c.put:
            assert hands[0].held(c.t - 1e-3) == c.tile  # carried until it lands


def test_shorter_rests_shorten_only_the_pauses_after_turns():
    turns = selfplay_script(6)[:8]
    looks = (draw_hand_look(np.random.default_rng(3)), draw_hand_look(np.random.default_rng(4)))
    usual = plan(turns, (0, 2), looks, np.random.default_rng(5))
    quick = plan(turns, (0, 2), looks, np.random.default_rng(5), rests=(0.5, 0.5))
    # each turn's own movements are drawn alike; only the pause after it shrinks
    assert [(c.put, c.row, c.col, c.tile) for c in quick.changes] == [
        (c.put, c.row, c.col, c.tile) for c in usual.changes]
    gaps = np.diff(list(usual.turn_starts) + [usual.duration])
    quick_gaps = np.diff(list(quick.turn_starts) + [quick.duration])
    assert np.all(gaps - quick_gaps >= 1.5 - 1e-9) and np.all(gaps - quick_gaps <= 3.5 + 1e-9)


def test_a_rethought_play_is_laid_with_two_tiles_swapped_then_put_right_under_a_hand():
    turns = selfplay_script(7)[:10]
    looks = (draw_hand_look(np.random.default_rng(3)), draw_hand_look(np.random.default_rng(4)))
    usual = plan(turns, (0, 2), looks, np.random.default_rng(5))
    assert plan(turns, (0, 2), looks, np.random.default_rng(5), rethinks=0.0) == usual
    timeline = plan(turns, (0, 2), looks, np.random.default_rng(5), rethinks=1.0)
    starts = list(timeline.turn_starts) + [timeline.duration]
    boards = {}
    for c in timeline.changes:  # the board as each turn ends: the script's, swaps put right
        turn = int(np.searchsorted(timeline.turn_starts, c.t, side="right")) - 1
        board = boards.setdefault(turn, dict(boards.get(turn - 1, {})))
        if c.put:
            board[(c.row, c.col)] = c.tile
        else:
            del board[(c.row, c.col)]
        hands = [r for r in timeline.reaches if r.at(c.t) is not None]
        assert len(hands) == 1 and hands[0].turn == turn
        if c.put:
            assert hands[0].held(c.t - 1e-3) == c.tile
    placed = {}
    for i, turn in enumerate(turns):
        if turn.placed and not turn.withdrawn:
            placed.update({(p.row, p.col): p.tile for p in turn.placed})
            assert boards[i] == placed
    swapped = [i for i, t in enumerate(turns)
               if len([c for c in timeline.changes if starts[i] <= c.t < starts[i + 1]])
               > len(t.placed)]
    assert len(swapped) >= 5  # every play of two or more distinct tiles is rethought
    for i in swapped:  # and the wrong version rests on the board before it is put right
        own = [c for c in timeline.changes if starts[i] <= c.t < starts[i + 1]]
        first_pick = next(c for c in own if not c.put)
        assert first_pick.t - own[len(turns[i].placed) - 1].t > 2.0


def test_a_board_is_turned_on_its_turntable_between_turns_with_no_hand_over_it():
    turns = selfplay_script(4)[:6]
    looks = (draw_hand_look(np.random.default_rng(1)), draw_hand_look(np.random.default_rng(2)))
    plain = plan(turns, (2, 0), looks, np.random.default_rng(0))
    assert plain.spins == () and plain.turned(plain.duration) == 0
    timeline = plan(turns, (2, 0), looks, np.random.default_rng(0), spins=1.0)
    assert len(timeline.spins) == len(turns)  # one after every turn
    total = 0.0
    for spin in timeline.spins:
        assert spin.by in (90.0, -90.0, 180.0)
        during = np.linspace(spin.t0, spin.t1, 12)
        assert not any(r.at(t) is not None for r in timeline.reaches for t in during)
        assert not any(spin.t0 <= c.t <= spin.t1 for c in timeline.changes)
        assert abs(timeline.turned((spin.t0 + spin.t1) / 2) - total - spin.by / 2) < 1e-6
        total += spin.by
        assert timeline.turned(spin.t1) == total
    slow = spread(timeline, timeline.duration * 3)
    starts = np.array(timeline.turn_starts)
    for spin, later in zip(timeline.spins, slow.spins, strict=True):
        turn = np.searchsorted(starts, spin.t0) - 1
        assert np.searchsorted(np.array(slow.turn_starts), later.t0) - 1 == turn
        assert abs((later.t1 - later.t0) - (spin.t1 - spin.t0)) < 1e-9
