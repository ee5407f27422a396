"""The frame loop: the first play's words settle the camera view where the tiles cannot."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tilecast.engine.board import Board, parse_coord
from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.play import placements_for
from tilecast.recorder import Recorder
from tilecast.vision.reader import in_view
from tilecast.watch import _first_view


def board_probs(coord: str, word: str) -> np.ndarray:
    board = Board()
    placed = placements_for(board, parse_coord(coord), word)
    board = board.with_tiles((p.row, p.col, p.tile) for p in placed)
    probs = np.zeros((225, len(CLASSES)))
    for i in range(225):
        tile = board.at(*divmod(i, 15))
        probs[i, EMPTY_CLASS if tile is None else CLASSES.index(tile.letter)] = 1.0
    return probs


@dataclass
class Seen:
    """What _first_view needs of a reading: its view and each board square's place in the cut."""

    view: int
    crop_of: np.ndarray


class Voter:
    def __init__(self, votes: list[float]) -> None:
        self.votes, self.adopted = np.array(votes, float), None

    def adopt(self, view: int) -> None:
        self.adopted = view


def test_a_first_play_read_backwards_turns_the_view_to_the_one_its_words_read_in(
        wespa, english):
    true, wrong = 5, 1  # mirrored, and the tiles' votes said unmirrored
    truth = board_probs("8D", "ZINNIA")
    cut = np.empty_like(truth)
    cut[in_view(np.arange(225), true)] = truth  # the frame as the camera cut it
    seen = Seen(wrong, in_view(np.arange(225), wrong))
    assert not np.array_equal(in_view(cut, wrong), truth)  # read in the wrong view...
    recorder = Recorder(wespa, english, Lexicon(["ZINNIA"]))
    voter = Voter([0, 3, 0, 0, 0, 2, 0, 0])
    probs, view = _first_view(voter, seen, in_view(cut, wrong), recorder)
    # ZINNIA reads in the true view and in its transpose (down from H4); the votes choose
    assert view == voter.adopted == true
    assert np.array_equal(probs, truth)


def test_the_readers_view_stays_when_its_first_play_is_of_words(wespa, english):
    truth = board_probs("8D", "ZINNIA")
    seen = Seen(0, np.arange(225))
    voter = Voter([5, 0, 0, 0, 0, 0, 0, 0])
    recorder = Recorder(wespa, english, Lexicon(["ZINNIA", "AINNIZ"]))  # both ways words
    probs, view = _first_view(voter, seen, truth, recorder)
    assert view == 0 and voter.adopted is None and probs is truth
