"""The frame loop: the first play's words settle the camera view where the tiles cannot."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tests.conftest import FIX
from tilecast.engine.board import Board, parse_coord
from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.engine.lexicon import Lexicon
from tilecast.engine.play import placements_for
from tilecast.recorder import Recorder
from tilecast.vision.reader import BoardReader, Reading, in_view
from tilecast.watch import _first_view, words_read


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


def test_a_first_play_with_a_letter_misread_turns_the_view_by_the_word_with_it_in_doubt(
        wespa, english):
    true, wrong = 5, 1
    truth = board_probs("8D", "DNINN")  # DJINN, its J read as N...
    truth[in_square("E8"), [CLASSES.index("N"), CLASSES.index("J")]] = 0.9, 0.08  # ...mostly
    truth[in_square("E8"), EMPTY_CLASS] = 0.02
    truth[in_square("K12")] = np.eye(len(CLASSES))[CLASSES.index("E")]  # a stray reading
    cut = np.empty_like(truth)
    cut[in_view(np.arange(225), true)] = truth
    seen = Seen(wrong, in_view(np.arange(225), wrong))
    # backwards, NNIND reads as USING only by reading other letters: no evidence; nor is
    # DNINN as DJINN if its J is all but ruled out
    recorder = Recorder(wespa, english, Lexicon(["DJINN", "USING"]))
    voter = Voter([0, 3, 0, 0, 0, 2, 0, 0])
    probs, view = _first_view(voter, seen, in_view(cut, wrong), recorder)
    assert view == voter.adopted == true and np.array_equal(probs, truth)
    truth[in_square("E8"), [CLASSES.index("N"), CLASSES.index("J")]] = 0.979, 0.001
    cut[in_view(np.arange(225), true)] = truth
    voter = Voter([0, 3, 0, 0, 0, 2, 0, 0])
    probs, view = _first_view(voter, seen, in_view(cut, wrong), recorder)
    assert view == wrong and voter.adopted is None


def test_tiles_that_make_no_play_in_any_view_leave_the_view_to_the_next_reading(
        wespa, english):
    probs = board_probs("8H", "A")  # one tile on the centre square...
    probs[in_square("K12")] = np.eye(len(CLASSES))[CLASSES.index("E")]  # ...and a stray
    voter = Voter([5, 0, 0, 0, 0, 0, 0, 0])
    recorder = Recorder(wespa, english, Lexicon(["AD"]))
    assert _first_view(voter, Seen(0, np.arange(225)), probs, recorder) is None
    assert voter.adopted is None


def test_words_read_counts_the_boards_lexicon_words_along_rows_and_columns():
    probs = board_probs("8D", "WINDY")
    probs[in_square("G7")] = np.eye(len(CLASSES))[CLASSES.index("A")]  # AD down from G7
    lexicon = Lexicon(["WINDY", "AD"])
    assert words_read(probs, lexicon) == 2
    assert words_read(probs[::-1], lexicon) == 0  # the board turned half round: not words
    probs[in_square("H8")] = np.eye(len(CLASSES))[CLASSES.index("?")]  # a blank: no word
    assert words_read(probs, lexicon) == 1


def in_square(name: str) -> int:
    coord = parse_coord(name)
    return coord.row * 15 + coord.col


class Scripted(BoardReader):
    """The real reader's view keeping, with its readings of a video scripted: the tiles of
    WINDY, then, from frame 8 on, the same cut voted into another view."""

    def __init__(self, cut: np.ndarray, turn_to: int) -> None:
        super().__init__(classifier=None)
        self.cut, self.turn_to = cut, turn_to

    def read(self, frame: int) -> Reading:
        if frame == 8:
            self.view = self.turn_to
        order = in_view(np.arange(225), self.view)
        return Reading(in_view(self.cut, self.view), 0.0, np.float32(FIX),
                       0, False, self.view, np.float32(FIX), order)


def test_the_tiles_votes_do_not_turn_the_view_mid_game_against_the_boards_words(
        tmp_path, wespa, english):
    from tilecast.events import SessionInfo
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import Session
    from tilecast.vision.stillness import StillConfig, StillnessGate
    from tilecast.watch import watch

    truth = board_probs("8D", "WINDY")  # view 0: the cut is the board
    lexicon = Lexicon(["WINDY"])
    for turn_to, kept in ((2, 0), (flipping_view(), None), (transposing_view(), None)):
        info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path / str(turn_to)))
        s = Session(info, Recorder(wespa, english, lexicon), plugin_manager(entry_points=False))
        reader = Scripted(truth, turn_to)
        frames = [(i, i * 0.5, i) for i in range(16)]
        watch(s, reader, frames, StillnessGate(StillConfig(still_s=1.0)))
        assert [t.word for t in s.game.turns] == ["WINDY"]
        # read backwards in view 2 (half round), the board's words hold view 0; turned upside
        # down about row 8, WINDY reads as well and stays where it was recorded, and in the
        # transpose it reads the same word: the tiles' votes turn those (only they can tell)
        assert reader.view == (turn_to if kept is None else kept)


class Staged(BoardReader):
    """Scripted readings of WINDY, then of AD laid down through its D (frame 8 on), then, from
    frame 16 on, the same cut voted into another view."""

    def __init__(self, turn_to: int) -> None:
        super().__init__(classifier=None)
        first = board_probs("8D", "WINDY")
        second = first.copy()
        second[in_square("G7")] = np.eye(len(CLASSES))[CLASSES.index("A")]
        self.cuts, self.turn_to = [first] * 8 + [second] * 16, turn_to

    def read(self, frame: int) -> Reading:
        if frame == 16:
            self.view = self.turn_to
        order = in_view(np.arange(225), self.view)
        return Reading(in_view(self.cuts[frame], self.view), 0.0, np.float32(FIX),
                       0, False, self.view, np.float32(FIX), order)


def test_a_view_reading_as_many_words_but_moving_recorded_tiles_is_held(
        tmp_path, wespa, english):
    from tilecast.events import SessionInfo
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import Session
    from tilecast.vision.stillness import StillConfig, StillnessGate
    from tilecast.watch import watch

    # upside down about row 8, AD down from G7 reads DA down from G8: two words either way,
    # but the recorded A would move from G7 to G9, so only the votes speak for the new view
    lexicon = Lexicon(["WINDY", "AD", "DA"])
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, lexicon), plugin_manager(entry_points=False))
    reader = Staged(flipping_view())
    watch(s, reader, [(i, i * 0.5, i) for i in range(24)], StillnessGate(StillConfig(1.0)))
    assert [(str(t.coord), t.word) for t in s.game.turns] == [("8D", "WINDY"), ("G7", "A.")]
    assert reader.view == 0


class Laying(BoardReader):
    """Frames of a first play being laid, in a camera turned half round (view 2): D and Y of
    WINDY first, under a moving hand, read in view 0 until the tiles' votes turn it (frame 2);
    then the whole play, still."""

    def __init__(self) -> None:
        super().__init__(classifier=None)
        whole = board_probs("8D", "WINDY")
        part = whole.copy()
        part[[in_square(s) for s in ("8D", "8E", "8F")]] = np.eye(len(CLASSES))[EMPTY_CLASS]
        self.cuts = [in_view(part, 2)] * 4 + [in_view(whole, 2)] * 12  # (a half turn undoes)

    def read(self, frame: int) -> Reading:
        if frame == 2:
            self.view = 2
        return Reading(in_view(self.cuts[frame], self.view), 100.0 if frame < 4 else 0.0,
                       np.float32(FIX), 0, False, self.view,
                       np.float32(FIX), in_view(np.arange(225), self.view))


def test_a_play_half_laid_does_not_hold_the_view_before_the_first_play_is_read(
        tmp_path, wespa, english):
    from tilecast.events import SessionInfo
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import Session
    from tilecast.vision.stillness import StillConfig, StillnessGate
    from tilecast.watch import watch

    # DY read backwards in view 0 is YD, a word; the play itself is a phony either way, so
    # its words cannot settle the view: the tiles' votes must
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    lexicon = Lexicon(["YD", "AD"])
    s = Session(info, Recorder(wespa, english, lexicon), plugin_manager(entry_points=False))
    reader = Laying()
    watch(s, reader, [(i, i * 0.5, i) for i in range(16)], StillnessGate(StillConfig(1.0)))
    assert reader.view == 2
    assert [(str(t.coord), t.word) for t in s.game.turns] == [("8D", "WINDY")]


def transposing_view() -> int:
    grid = np.arange(225).reshape(15, 15)
    return next(v for v in range(1, 8) if np.array_equal(in_view(grid.ravel(), v), grid.T.ravel()))


def flipping_view() -> int:
    grid = np.arange(225).reshape(15, 15)
    return next(v for v in range(1, 8) if np.array_equal(in_view(grid.ravel(), v),
                                                         grid[::-1].ravel()))


class AfterAStray(BoardReader):
    """Scripted readings in a wrong view of a mirrored feed: first a tile on the centre square
    and a stray reading, then ZINNIA."""

    def __init__(self, first: np.ndarray, then: np.ndarray, view: int) -> None:
        super().__init__(classifier=None)
        self.cuts, self.view = (first, then), view
        self.votes[view] = 3

    def read(self, frame: int) -> Reading:
        order = in_view(np.arange(225), self.view)
        return Reading(in_view(self.cuts[frame >= 8], self.view), 0.0, np.float32(FIX), 0,
                       False, self.view, np.float32(FIX), order)


def test_the_view_waits_for_a_reading_whose_tiles_make_a_play(tmp_path, wespa, english):
    from tilecast.events import SessionInfo
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import Session
    from tilecast.vision.stillness import StillConfig, StillnessGate
    from tilecast.watch import watch

    true, wrong = 5, 1
    cuts = []
    for board in (board_probs("8H", "Z"), board_probs("8D", "ZINNIA")):
        board[in_square("K12")] = np.eye(len(CLASSES))[CLASSES.index("E")]  # a stray
        cut = np.empty_like(board)
        cut[in_view(np.arange(225), true)] = board
        cuts.append(cut)
    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, Lexicon(["ZINNIA"])),
                plugin_manager(entry_points=False))
    reader = AfterAStray(*cuts, wrong)
    watch(s, reader, [(i, i * 0.5, i) for i in range(16)], StillnessGate(StillConfig(still_s=1.0)))
    assert [(str(t.coord), t.word) for t in s.game.turns] == [("8D", "ZINNIA")]
    assert reader.view == true


class Spun(BoardReader):
    """Scripted readings of a board its players turn on its turntable: each frame's cut, and
    the view the tiles now on it vote for (the running votes, cast before the turn, for 0)."""

    def __init__(self, cuts: list[np.ndarray], ways: list[int]) -> None:
        super().__init__(classifier=None)
        self.cuts, self.ways, self.frame = cuts, ways, 0
        self.votes[0] = 20.0

    def read(self, frame: int) -> Reading:
        self.frame = frame
        return Reading(in_view(self.cuts[frame], self.view), 0.0, np.float32(FIX), 0, False,
                       self.view, np.float32(FIX), in_view(np.arange(225), self.view))

    def tiles_votes(self) -> np.ndarray:
        return np.eye(8)[self.ways[self.frame]] * 5


def cut_in(board: np.ndarray, view: int) -> np.ndarray:
    """The cut a camera makes of `board` when the board reads in `view`."""
    cut = np.empty_like(board)
    cut[in_view(np.arange(225), view)] = board
    return cut


def watched(tmp_path, wespa, english, reader: BoardReader):
    from tilecast.events import SessionInfo
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import Session
    from tilecast.vision.stillness import StillConfig, StillnessGate
    from tilecast.watch import watch

    info = SessionInfo("b1", ("Ann", "Bob"), "wespa", str(tmp_path))
    s = Session(info, Recorder(wespa, english, Lexicon(["WINDY", "AD"])),
                plugin_manager(entry_points=False))
    frames = [(i, i * 0.5, i) for i in range(len(reader.cuts))]
    watch(s, reader, frames, StillnessGate(StillConfig(1.0)))
    return s


def test_a_board_turned_on_its_turntable_mid_game_is_read_turned(tmp_path, wespa, english):
    windy = board_probs("8D", "WINDY")
    ad = windy.copy()
    ad[in_square("G7")] = np.eye(len(CLASSES))[CLASSES.index("A")]
    # WINDY, then the board turned half round, then AD laid through its D
    reader = Spun([windy] * 8 + [cut_in(windy, 2)] * 8 + [cut_in(ad, 2)] * 8,
                  [0] * 8 + [2] * 16)
    s = watched(tmp_path, wespa, english, reader)
    assert [(str(t.coord), t.word) for t in s.game.turns] == [("8D", "WINDY"), ("G7", "A.")]
    assert reader.view == 2
    kinds = {e.get("kind") for e in s.journal.entries if e["type"] == "alert"}
    assert "board-disturbed" not in kinds


def test_a_board_turned_before_its_first_play_is_recorded_reads_as_its_tiles_vote(
        tmp_path, wespa, english):
    windy = board_probs("8D", "WINDY")
    # turned a quarter before the gate read WINDY: the stale view reads it down from H4, a
    # word too; the tiles on the board vote for the view that reads it across
    turned = next(v for v in (1, 3) if np.array_equal(
        in_view(cut_in(windy, v), 0), board_probs("H4", "WINDY")))
    reader = Spun([windy] * 2 + [cut_in(windy, turned)] * 8, [0] * 2 + [turned] * 8)
    s = watched(tmp_path, wespa, english, reader)
    assert [(str(t.coord), t.word) for t in s.game.turns] == [("8D", "WINDY")]
    assert reader.view == turned


def test_a_view_the_tiles_do_not_vote_for_is_no_turn_of_the_board(tmp_path, wespa, english):
    windy = board_probs("8D", "WINDY")
    # the board read half round with the tiles voting as before: a misfit, not a turn
    reader = Spun([windy] * 8 + [cut_in(windy, 2)] * 8, [0] * 16)
    watched(tmp_path, wespa, english, reader)
    assert reader.view == 0


def test_a_phony_taken_back_while_the_board_turns_is_withdrawn_in_the_turned_view(
        tmp_path, wespa, english):
    windy = board_probs("8D", "WINDY")
    phony = windy.copy()
    for square, letter in (("G6", "Q"), ("G7", "I")):  # QID down from G6: no word
        phony[in_square(square)] = np.eye(len(CLASSES))[CLASSES.index(letter)]
    ad = windy.copy()
    ad[in_square("G7")] = np.eye(len(CLASSES))[CLASSES.index("A")]
    # QI taken back and the board turned half round before the camera saw it gone: two of
    # the six recorded tiles off the centre square are no longer on the board at all
    reader = Spun([windy] * 8 + [phony] * 8 + [cut_in(windy, 2)] * 8 + [cut_in(ad, 2)] * 8,
                  [0] * 16 + [2] * 16)
    s = watched(tmp_path, wespa, english, reader)
    assert [(t.kind, str(t.coord), t.word) for t in s.game.turns] == [
        ("play", "8D", "WINDY"), ("play", "G6", "QI."), ("withdraw", "G6", "QI."),
        ("play", "G7", "A.")]
