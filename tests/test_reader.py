"""The board reader on rendered stills: 1A found, mirrored feeds undone, squares read."""

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecast.commands.readboard import rows_of
from tilecast.vision import TileClassifier
from tilecast.vision.classify import CLASSES
from tilecast.vision.reader import READER, BoardReader
from tilecast.vision.rectify import cell_size_px
from tilecast.vision.stillness import StillConfig

READS = READER.reads  # still frames a changed square is read in
STILLS = Path(__file__).resolve().parents[1] / "fixtures" / "render"


@pytest.fixture(scope="module")
def readings():
    clf = TileClassifier.load()
    out = []
    for record in json.loads((STILLS / "stills.json").read_text()):
        image = cv2.imread(str(STILLS / "stills" / record["file"]))
        out.append((record, BoardReader(clf).read(image)))
    return out


def patched(image, corners, half, colour):
    """A copy of the frame with a filled square, `half` squares from the board's centre to
    each side, painted over the middle of the board."""
    centre = np.mean(corners, axis=0).astype(int)
    side = int(half * cell_size_px(corners))
    out = image.copy()
    cv2.rectangle(out, tuple(centre - side), tuple(centre + side), colour, -1)
    return out


def camera_rows(board):
    return ["".join("?" if ch.islower() else ch for ch in row) for row in board]


def corner_error(rec, reading) -> float:
    truth = np.float32(rec["corners"])
    return float(np.linalg.norm(reading.corners - truth, axis=1).max() / cell_size_px(truth))


def test_corner_1a_orientation_and_mirroring_match_the_truth(readings):
    found = [(rec, r) for rec, r in readings if r is not None]
    assert len(found) >= 12  # of 16; the rest are reported as no board, never misread
    for rec, r in found:
        assert (r.orientation, r.mirrored) == (rec["rotation"], rec["mirrored"]), rec["file"]
        assert corner_error(rec, r) < 1.0, rec["file"]  # never a whole row or column off
    close = [corner_error(rec, r) < 0.25 for rec, r in found]
    assert sum(close) >= 0.75 * len(found)  # hands over the board pull some fits off


def test_settled_boards_are_read_square_by_square(readings):
    settled = [(rec, r) for rec, r in readings if r is not None and not rec["hand"]]
    scores = []
    for rec, r in settled:
        got, want = "".join(rows_of(r.probs)), "".join(camera_rows(rec["board"]))
        scores.append(sum(a == b for a, b in zip(got, want, strict=True)))
    assert len(settled) >= 6
    assert sum(right >= 223 for right in scores) >= len(settled) - 1, scores
    assert min(scores) >= 200, scores


def test_a_still_board_keeps_its_fix_and_a_bumped_one_is_followed():
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    reader = BoardReader(TileClassifier.load())
    first = reader.read(image)
    assert first is not None
    cell = cell_size_px(first.corners)

    def shifted(dx: float) -> np.ndarray:
        m = np.float32([[1, 0, dx], [0, 1, 0]])
        return cv2.warpAffine(image, m, image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)

    nudged = reader.read(shifted(0.05 * cell))  # fit jitter: the view stays put
    assert np.array_equal(nudged.corners, first.corners)
    assert nudged.motion < StillConfig().motion / 2  # sway is not motion
    bumped = reader.read(shifted(0.6 * cell))  # the board moved: follow it
    moved = (bumped.corners - first.corners)[:, 0]
    assert np.allclose(moved, 0.6 * cell, atol=0.15 * cell)


class CountingClassifier:
    """The shipped classifier, counting the squares it is asked to read."""

    def __init__(self) -> None:
        self.inner, self.counts = TileClassifier.load(), []

    def predict(self, cells, still=None):
        self.counts.append(len(cells))
        return self.inner.predict(cells, still)


def test_only_squares_that_changed_are_read_again():
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    clf = CountingClassifier()
    reader = BoardReader(clf)
    first = reader.read(image)
    for _ in range(READS):
        again = reader.read(image.copy())
    # Read in READS still frames, then no more while the view stays the same.
    assert clf.counts == [225] * READS
    assert np.allclose(again.probs, first.probs, atol=1e-6)
    # Paint a tile-sized patch over the middle square: that square (and at most its
    # neighbours, which the patch may overlap) is read again, and reads differently.
    changed = patched(image, reader.fix.corners, 0.4, (30, 30, 200))
    later = reader.read(changed)
    assert 1 <= clf.counts[-1] <= 9
    assert not np.array_equal(later.probs[7 * 15 + 7], first.probs[7 * 15 + 7])
    reader.read(changed)
    assert clf.counts[-1] == clf.counts[-2]  # the same squares, confirmed


@dataclass
class OneHot:
    probabilities: np.ndarray
    orientation: np.ndarray


class GlitchOnce:
    """Reads every cell as a blank the first time it is asked, as empty ever after."""

    def __init__(self) -> None:
        self.calls = 0

    def predict(self, cells, still=None):
        self.calls += 1
        probs = np.zeros((len(cells), 28), np.float32)
        probs[:, 26 if self.calls == 1 else 27] = 1.0
        return OneHot(probs, np.full((len(cells), 8), 1 / 8, np.float32))


def test_one_frames_glitch_is_outvoted_by_the_still_frames_after_it():
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    reader = BoardReader(GlitchOnce(), corners=np.float32(record["corners"]))
    first = reader.read(image)
    assert (first.probs.argmax(1) == 26).all()
    for _ in range(READS - 1):
        last = reader.read(image.copy())
    assert (last.probs.argmax(1) == 27).all()
    assert np.allclose(last.probs[:, 26], 1 / READS)


def test_a_reading_is_not_changed_by_later_frames():
    # The stillness gate keeps a window of readings; each must stay as it was read, also in
    # a view that needs no turning or unmirroring (where the reader's own array could leak).
    clf = TileClassifier.load()
    for record in json.loads((STILLS / "stills.json").read_text()):
        image = cv2.imread(str(STILLS / "stills" / record["file"]))
        reader = BoardReader(clf)
        first = reader.read(image)
        if first is not None and first.orientation == 0 and not first.mirrored:
            break
    else:
        pytest.fail("no still is read upright and unmirrored")
    kept = first.probs.copy()
    changed = patched(image, reader.fix.corners, 0.4, (30, 30, 200))
    later = reader.read(changed)
    assert not np.array_equal(later.probs, kept)
    assert np.array_equal(first.probs, kept)


def test_a_poor_fix_after_tracking_fails_is_refused_for_a_while(monkeypatch):
    from tilecast.vision import reader as module
    from tilecast.vision.locate import BoardFix, BoardNotFound

    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    board = BoardReader(TileClassifier.load())
    good = board.read(image)
    old = board.fix
    poor = BoardFix(old.corners + 40, 0.5 * old.quality)

    def lost(*args):
        raise BoardNotFound("hidden")

    monkeypatch.setattr(module, "track", lost)
    monkeypatch.setattr(module, "locate_board", lambda frame, cfg=None: poor)
    board._tracked = None  # make the reader fit again
    for _ in range(READER.refix_patience - 1):
        board._tracked = None
        assert board.read(image) is None  # the poorer fit is not believed...
        assert board.fix is old
    board._tracked = None
    moved = board.read(image)  # ... until the old one has failed long enough
    assert board.fix is poor
    assert not np.array_equal(moved.corners, good.corners)


class AlwaysEmpty:
    """Reads every cell as an empty square, counting the cells it is asked to read and
    keeping which of them the reader called still."""

    def __init__(self) -> None:
        self.counts, self.still = [], []

    def predict(self, cells, still=None):
        self.counts.append(len(cells))
        self.still.append(still)
        probs = np.zeros((len(cells), 28), np.float32)
        probs[:, 27] = 1.0
        return OneHot(probs, np.full((len(cells), 8), 1 / 8, np.float32))


def test_a_square_that_reads_as_before_after_a_change_is_not_read_again():
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    clf = AlwaysEmpty()
    reader = BoardReader(clf, corners=np.float32(record["corners"]))
    for _ in range(READS + 1):
        reader.read(image)
    assert clf.counts == [225] * READS  # new readings: read in READS still frames
    shadow = patched(image, np.float32(record["corners"]), 0.4, (30, 30, 30))
    reader.read(shadow)  # a hand's shadow: the squares under it are read again, and once
    reader.read(shadow)  # more as the view has settled (the first read was while it moved)...
    assert 1 <= clf.counts[-1] <= 9 and clf.counts[-1] == clf.counts[-2]
    # the classifier is told which were read moving (no second look for those)
    assert not clf.still[-2].any() and clf.still[-1].all()
    calls = len(clf.counts)
    reader.read(shadow)
    assert len(clf.counts) == calls  # ...and they read as before: no more reads


def test_squares_moving_in_a_frame_the_gate_ignores_are_read_once_they_settle():
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    corners = np.float32(record["corners"])
    clf = AlwaysEmpty()
    reader = BoardReader(clf, corners=corners)
    for _ in range(READS):
        reader.read(image)
    hand = patched(image, corners, 1.5, (60, 90, 150))
    assert reader.read(hand).motion > StillConfig().motion  # the gate ignores this frame
    reader.read(image)  # the hand passed: nothing under it was read, nothing needs reading
    assert clf.counts == [225] * READS
    reader.read(hand)
    rested = reader.read(hand)  # a hand that rests is read, as still
    assert 9 <= clf.counts[-1] <= 25 and clf.still[-1].all() and len(clf.counts) == READS + 1
    assert rested.motion == 0
    eager = AlwaysEmpty()
    reader = BoardReader(eager, corners=corners, skip_motion=np.inf)
    for frame in [image] * READS + [hand]:
        reader.read(frame)
    assert len(eager.counts) == READS + 1 and not eager.still[-1].any()  # read while moving


class BlurThenEmpty:
    """Empty for the first READS calls, then E twice (a hand's blur, while it moves and just
    after), then empty ever after."""

    def __init__(self) -> None:
        self.calls = 0

    def predict(self, cells, still=None):
        self.calls += 1
        probs = np.zeros((len(cells), 28), np.float32)
        probs[:, 4 if self.calls in (READS + 1, READS + 2) else 27] = 1.0
        return OneHot(probs, np.full((len(cells), 8), 1 / 8, np.float32))


def test_a_reading_taken_while_the_square_moved_is_not_what_the_next_is_compared_with():
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    corners = np.float32(record["corners"])
    reader = BoardReader(BlurThenEmpty(), corners=corners)
    for _ in range(READS):
        reader.read(image)
    shadow = patched(image, corners, 0.4, (30, 30, 30))
    reader.read(shadow)  # moving: E, provisionally
    for _ in range(READS + 1):
        last = reader.read(shadow)  # settled: E once more, then empty
    assert last.probs[7 * 15 + 7].argmax() == 27  # E was new against the settled reading


class ByLook:
    """Reads a crop by what its middle shows: a dark mark on cream is surely an A, plain
    cream an unsure empty square (0.6, against 0.4 for a blank), anything else surely empty."""

    def predict(self, cells, still=None):
        probs = np.full((len(cells), 28), 1e-4, np.float32)
        for i, crop in enumerate(cells):
            h, w = crop.shape[:2]
            middle = crop[h // 3:2 * h // 3, w // 3:2 * w // 3].reshape(-1, 3)
            cream = np.median(middle, axis=0)[2] > 200
            if cream and middle.min() < 60:
                probs[i, 0] = 1
            elif cream:
                probs[i, 26], probs[i, 27] = 0.4, 0.6
            else:
                probs[i, 27] = 1
        probs /= probs.sum(1, keepdims=True)
        return OneHot(probs, np.full((len(cells), 8), 1 / 8, np.float32))


def test_a_square_in_the_tiles_colour_is_read_as_a_blank():
    # a green board, 20 px a square, with five cream tiles: four lettered, one plain
    image = np.full((400, 400, 3), (90, 140, 60), np.uint8)
    corners = np.float32([[50, 50], [350, 50], [350, 350], [50, 350]])
    for row, col in ((7, 7), (7, 8), (7, 9), (7, 10), (9, 3)):
        x, y = 50 + 20 * col, 50 + 20 * row
        cv2.rectangle(image, (x + 2, y + 2), (x + 17, y + 17), (200, 230, 240), -1)
        if (row, col) != (9, 3):
            cv2.circle(image, (x + 10, y + 10), 3, (20, 20, 20), -1)
    reader = BoardReader(ByLook(), corners=corners)
    for _ in range(READS):
        reading = reader.read(image)
    labels = reading.probs.argmax(1)
    assert list(labels[[7 * 15 + 7, 7 * 15 + 10]]) == [0, 0]
    assert labels[9 * 15 + 3] == 26  # the classifier alone said empty, 0.6 to 0.4
    assert labels[0] == 27 and (labels == 27).sum() == 225 - 5


def test_a_letter_turned_against_the_board_is_its_rotation_pair():
    from tilecast.vision.classify import CLASSES
    from tilecast.vision.reader import turned_pairs

    n, z, m, w = (CLASSES.index(c) for c in "NZMW")
    probs = np.full((5, 28), 0.01, np.float32)
    probs[:2, n] = 0.8  # read N: one turned a quarter from the board's way, one not
    probs[2, m] = 0.8  # read M, half round
    probs[3:, n] = 0.8  # read N a quarter off, but the classifier unsure of the turn...
    orient = np.zeros((5, 8), np.float32)
    board = 4 + 1  # a mirrored feed whose tiles all lie turned one quarter in the crops
    orient[0, 4 + 2] = 0.9
    orient[1, 4 + 1] = 0.9
    orient[2, 4 + 3] = 0.9
    orient[3, [4 + 2, 4 + 1]] = 0.5
    orient[4, [4 + 2, 4 + 0, 4 + 1]] = 0.5, 0.35, 0.15  # ...or only of which quarter (an N
    out = turned_pairs(probs, orient, board)  # reads the same half round): sideways, a Z
    assert [CLASSES[k] for k in out.argmax(1)] == ["Z", "N", "W", "N", "Z"]
    assert out[0, z] == probs[0, n] and out[0, n] == probs[0, z]
    assert out[2, w] == probs[2, m]


class AllA:
    """Reads every cell it is shown as the letter A, and counts them."""

    def __init__(self) -> None:
        self.shown = 0

    def predict(self, cells, still=None):
        self.shown += len(cells)
        probs = np.zeros((len(cells), 28), np.float32)
        probs[:, 0] = 1.0
        return OneHot(probs, np.eye(8, dtype=np.float32)[np.zeros(len(cells), int)])


def test_squares_outside_the_frame_are_empty_and_never_classified():
    """A board the camera cuts off: the top three rows' centres lie above the frame. Their
    crops would be the frame's top row smeared down, which a classifier reads as tiles."""
    frame = np.full((480, 640, 3), 120, np.uint8)
    cell = 30.0
    top = -3 * cell + 5  # row 3's centre lies above the frame, row 4's inside
    corners = np.float32([[50, top], [50 + 15 * cell, top], [50 + 15 * cell, top + 15 * cell],
                          [50, top + 15 * cell]])
    clf = AllA()
    reading = BoardReader(clf, corners=corners).read(frame)
    rows = rows_of(reading.probs)
    assert rows[:3] == ["." * 15] * 3 and rows[3:] == ["A" * 15] * 12
    assert clf.shown == 12 * 15


@pytest.mark.parametrize("manual", [False, True])
def test_a_frame_that_shrinks_mid_source_is_read_or_refused_without_error(manual):
    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    corners = np.float32(record["corners"]) if manual else None
    reader = BoardReader(TileClassifier.load(), corners=corners)
    assert reader.read(image) is not None
    small = image[: image.shape[0] // 3, : image.shape[1] // 4].copy()
    for _ in range(3):  # found again, followed, or said to be missing: never an exception
        reading = reader.read(small)
        assert reading is not None or reader.why
    if manual:  # the given corners now lie mostly outside the frame: those squares read empty
        assert reading is not None and rows_of(reading.probs).count("." * 15) >= 10


def test_the_reader_finds_the_board_with_its_own_locate_settings():
    from tilecast.vision.locate import LocateConfig

    record = json.loads((STILLS / "stills.json").read_text())[0]
    image = cv2.imread(str(STILLS / "stills" / record["file"]))
    assert BoardReader(TileClassifier.load()).read(image) is not None
    strict = BoardReader(TileClassifier.load(), locate=LocateConfig(min_contrast=1e9))
    assert strict.read(image) is None and strict.why


def votes_for(letters: str, way: int) -> OneHot:
    """Sure readings of `letters`, each seen turned `way` (4 * mirrored + quarter turns)."""
    probs = np.zeros((len(letters), 28), np.float32)
    probs[np.arange(len(letters)), [CLASSES.index(ch) for ch in letters]] = 1.0
    return OneHot(probs, np.eye(8, dtype=np.float32)[[way] * len(letters)])


def test_a_close_vote_does_not_flip_the_view_back_and_forth():
    """Once the tiles have voted for a way, another takes over only when clearly ahead: a
    view that flips moves every recorded tile to another square each time."""
    reader = BoardReader(AllA())
    reader._vote(votes_for("FRGP", 5))
    assert reader.view == 5
    reader._vote(votes_for("FRGPL", 1))  # 5 against 4: not clear enough
    assert reader.view == 5
    reader._vote(votes_for("FRGPLJ", 1))  # 11 against 4
    assert reader.view == 1
    reader._vote(votes_for("??????????", 5))  # blanks have no way up
    assert reader.view == 1
    reader.adopt(5)  # the first play's words say otherwise
    reader._vote(votes_for("FRGPLJFRGP", 1))
    assert reader.view == 5


class Labeller:
    """Reads the i-th cell of each batch as letter i % 26, every tile turned `way`."""

    def __init__(self, way: int) -> None:
        self.way = way

    def predict(self, cells, still=None):
        n = len(cells)
        probs = np.zeros((n, 28), np.float32)
        probs[np.arange(n), np.arange(n) % 26] = 1.0
        return OneHot(probs, np.eye(8, dtype=np.float32)[[self.way] * n])


@pytest.mark.parametrize("way", [0, 1, 5, 6])
def test_in_view_orders_the_cut_as_the_reader_does(way):
    from tilecast.vision.reader import in_view

    frame = np.full((480, 640, 3), 120, np.uint8)
    corners = np.float32([[100, 20], [550, 20], [550, 470], [100, 470]])
    reading = BoardReader(Labeller(way), corners=corners).read(frame)
    cut = np.zeros((225, 28), np.float32)
    cut[np.arange(225), np.arange(225) % 26] = 1.0
    assert reading.view == way
    assert np.array_equal(reading.probs, in_view(cut, way))
    assert np.array_equal(reading.crop_of, in_view(np.arange(225), way))


@pytest.mark.parametrize("seed", [3, 9])  # looks whose turning views once moved the fix by
def test_a_board_turned_on_its_turntable_is_found_where_it_stands(seed):  # 9 and 2.5 squares
    from dataclasses import replace

    from tilecast.engine.board import Board, parse_coord
    from tilecast.engine.play import placements_for
    from tilecast.vision.render.camera import turned
    from tilecast.vision.render.scene import draw_scene_look
    from tilecast.vision.render.video import render_still

    board = Board()
    for coord, word in (("8D", "WINDY"), ("G7", "AD"), ("K3", "QUOTA")):
        board = board.with_tiles((p.row, p.col, p.tile)
                                 for p in placements_for(board, parse_coord(coord), word))
    look = replace(draw_scene_look(np.random.default_rng(seed), (960, 540)), shake=0.0)
    reader = BoardReader(TileClassifier.load())
    # a quarter turn, eased in and out: the view shifts by whole squares while it turns
    for degrees in (0, 0, 0, 15, 40, 65, 80, 88, 90, 90):
        frame, truth = render_still(board, seed, hand=False,
                                    look=replace(look, camera=turned(look.camera, degrees)))
        reading = reader.read(frame)
    corners = np.float32(truth["corners"])
    off = np.linalg.norm(reading.fix[:, None] - corners[None], axis=2).min(1).max()
    assert off < 0.25 * cell_size_px(corners)
