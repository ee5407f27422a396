"""The stillness gate: a board reading is committed once it has rested, as the mean of the
still frames, and motion is told from a flickering square."""

import numpy as np

from tilecast.engine.infer import BLANK_CLASS, EMPTY_CLASS
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


def test_tiles_whose_letters_flicker_do_not_keep_a_full_board_from_being_read():
    """A shaking camera reads a doubtful face now as one letter, now as another. On a board
    of 60 tiles, 20 flickering is far more than the 5% of squares that may change in a still
    window; they are tiles in every frame, as at the last commit, so the board is steady and
    the new tile is read. A new tile's own flicker still holds the reading back."""
    gate = StillnessGate(StillConfig(still_s=1.0, motion=4.0))
    board = np.zeros((225, 28))
    board[:, EMPTY_CLASS] = 1.0
    board[:60] = 0
    board[:60, 4] = 1.0  # 60 tiles read E
    assert gate.feed(0.0, 1.0, board) is None
    assert gate.feed(1.0, 1.0, board) is not None
    laid = board.copy()
    laid[100] = 0
    laid[100, 0] = 1.0  # the next play: an A on square 100
    rng = np.random.default_rng(1)

    def shaken(p):
        out = p.copy()
        for sq in rng.choice(60, 20, replace=False):
            out[sq] = 0
            out[sq, rng.integers(26)] = 1.0
        return out

    assert gate.feed(1.5, 20.0, laid) is None  # the hand lays it
    frames = [(1.7 + 0.2 * i, shaken(laid)) for i in range(6)]
    results = [gate.feed(t, 1.0, p) for t, p in frames]
    assert all(r is None for r in results[:-1]) and results[-1] is not None
    assert results[-1][100].argmax() == 0
    assert np.allclose(results[-1], np.mean([p for _, p in frames], axis=0))
    # ... while as many squares empty at the last commit flickering to letters are no
    # steady board
    gate = StillnessGate(StillConfig(still_s=1.0, motion=4.0))
    gate.feed(0.0, 1.0, board)
    gate.feed(1.0, 1.0, board)
    gate.feed(1.5, 20.0, laid)
    flicker = [laid.copy() for _ in range(6)]
    for p in flicker:
        for sq in rng.choice(np.arange(120, 180), 20, replace=False):
            p[sq] = 0
            p[sq, 4] = 1.0  # an empty square read as an E in this frame
    assert all(gate.feed(1.7 + 0.2 * i, 1.0, p) is None for i, p in enumerate(flicker))


def test_a_square_read_as_a_blank_that_turns_into_a_letter_is_read_again():
    """A tile laid at the board's edge, read at first as a blank (not yet clear), then as an
    A with no motion seen: the board has changed, unlike a letter read as another letter."""
    gate, a = gate_with_empty_board_committed()
    doubtful = a.copy()
    doubtful[100] = 0
    doubtful[100, BLANK_CLASS] = 1.0
    assert gate.feed(1.5, 20.0, doubtful) is None
    assert gate.feed(1.7, 1.0, doubtful) is None
    assert gate.feed(2.8, 1.0, doubtful) is not None
    clear = a.copy()
    clear[100] = 0
    clear[100, 0] = 1.0
    results = [gate.feed(3.0 + 0.2 * i, 1.0, clear) for i in range(7)]
    assert any(r is not None and r[100].argmax() == 0 for r in results)
    other = clear.copy()
    other[100] = 0
    other[100, 1] = 1.0  # ... but the A then read as a B is the same tile
    assert all(gate.feed(4.6 + 0.2 * i, 1.0, other) is None for i in range(7))
