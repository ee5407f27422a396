"""The stillness gate: a board reading is committed once it has rested, as the mean of the
still frames, and motion is told from a flickering square."""

import numpy as np

from tilecast.engine.infer import EMPTY_CLASS
from tilecast.vision.stillness import StillConfig, StillnessGate


def test_stillness_commits_once_per_still_period_with_the_mean():
    gate = StillnessGate(StillConfig(still_s=1.0, motion=4.0))
    a = np.full((225, 28), 0.0)
    a[:, EMPTY_CLASS] = 1.0
    assert gate.feed(0.0, 50.0, a) is None  # moving
    assert gate.feed(0.2, 1.0, a) is None
    assert gate.feed(0.8, 1.0, a) is None  # not still long enough
    committed = gate.feed(1.3, 1.0, a)
    assert committed is not None and np.allclose(committed, a)
    assert gate.feed(1.6, 1.0, a) is None  # already committed this still period
    assert gate.feed(2.0, 9.0, a) is None
    b = a.copy()
    b[100:120] = 0
    b[100:120, 0] = 1.0  # 20 squares change their reading
    for t in (2.1, 2.5, 2.9):
        gate.feed(t, 0.0, b if t > 2.4 else a)  # too many squares flicker: not steady yet
    assert gate.feed(3.2, 0.0, b) is None
    assert gate.emptied[99] == 3.2 and gate.emptied[100] == 2.1  # last read as empty
    assert gate.feed(4.0, 0.0, b) is None  # the window restarted at 3.2
    assert gate.feed(4.3, 0.0, b) is not None


def test_a_video_that_ends_soon_after_the_last_play_still_gives_it():
    gate, a = gate_with_empty_board_committed()
    b = a.copy()
    b[100:103] = 0
    b[100:103, 0] = 1.0  # three tiles
    assert gate.feed(2.0, 9.0, b) is None  # the hand lays them
    assert gate.feed(2.2, 1.0, b) is None
    assert gate.flush(2.4) is None  # rested 0.2 s when the video ends: too short to trust
    assert gate.feed(2.6, 1.0, b) is None
    assert gate.feed(2.8, 1.0, b) is None
    committed = gate.flush(2.8)  # rested 0.6 s, over half the still second
    assert committed is not None and np.allclose(committed, b)
    assert gate.flush(2.8) is None  # committed once


def gate_with_empty_board_committed():
    """A gate that has committed an empty board after a still second (no motion)."""
    gate = StillnessGate(StillConfig(still_s=1.0, motion=4.0))
    a = np.zeros((225, 28))
    a[:, EMPTY_CLASS] = 1.0
    assert gate.feed(0.0, 1.0, a) is None
    assert gate.feed(1.0, 1.0, a) is not None
    return gate, a


def test_stillness_commits_again_when_tiles_appear_without_motion():
    gate, a = gate_with_empty_board_committed()
    flicker = a.copy()
    flicker[7] = 0
    flicker[7, 3] = 1.0
    for t in (1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4, 2.6):  # one square flickers, no motion
        assert gate.feed(t, 1.0, flicker if int(t * 5) % 2 else a) is None
    for t in (2.8, 3.2, 4.0):
        assert gate.feed(t, 1.0, a) is None  # back to the committed reading: nothing new
    # three tiles laid at the edge, 0.4 s apart: too few squares change to be motion
    laid = [a.copy() for _ in range(3)]
    for n, board in enumerate(laid):
        board[112:113 + n] = 0
        board[112:113 + n, 0] = 1.0
    for t, board in ((4.2, 0), (4.4, 0), (4.6, 1), (4.8, 1), (5.0, 2), (5.2, 2), (5.6, 2)):
        assert gate.feed(t, 1.0, laid[board]) is None  # not before all are down and still
    committed = gate.feed(6.2, 1.0, laid[2])
    assert committed is not None and (committed[112:115].argmax(1) == 0).all()
    assert gate.feed(6.6, 1.0, laid[2]) is None  # once


def test_a_quiet_commit_waits_while_another_square_flickers():
    gate, a = gate_with_empty_board_committed()
    laid, flicker = a.copy(), a.copy()
    laid[112] = flicker[112] = 0
    laid[112, 0] = flicker[112, 0] = 1.0  # a tile laid with no motion seen
    flicker[7] = 0
    flicker[7, 1] = 1.0  # and square 7 reads B in most frames, not in the last
    frames = [(1.2 + 0.2 * i, flicker) for i in range(5)] + [(2.2, laid)]
    assert all(gate.feed(t, 1.0, p) is None for t, p in frames)
    for t in (2.4, 2.8):
        assert gate.feed(t, 1.0, laid) is None
    committed = gate.feed(3.2, 1.0, laid)  # once square 7 has stayed empty a whole window
    assert committed is not None and committed[112].argmax() == 0
    assert committed[7].argmax() == EMPTY_CLASS


def test_motion_ignores_one_flickering_square_but_not_a_hand():
    from tilecast.vision.stillness import StillConfig, motion_score

    board = np.full((120, 120), 100, np.uint8)
    flicker = board.copy()
    flicker[:8, :8] = 200  # one square
    hand = board.copy()
    hand[40:64, 40:64] = 180  # a hand over a 3x3 block of squares
    assert motion_score(None, board) == float("inf")
    assert motion_score(board, flicker) < StillConfig().motion  # not motion
    assert motion_score(board, hand) > 40.0
