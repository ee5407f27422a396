"""Enrolment: the layout, the set check, the CLI, and prototypes helping on an unseen style."""

import argparse
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tilecast.commands import enroll as enroll_command
from tilecast.engine.board import SIZE, Board
from tilecast.engine.tiles import Tile
from tilecast.vision import TileClassifier
from tilecast.vision.classify import CLASSES, CLASSIFY, Prototypes
from tilecast.vision.enroll import (
    board_cells,
    board_orders,
    check_layout,
    enroll_board,
    enrolment_layout,
)
from tilecast.vision.rectify import cell_crops, rectify
from tilecast.vision.render.scene import CORNERS, Scene, draw_scene_look
from tilecast.vision.render.styles import draw_tile_style

FAMILY = "yellow_red"  # a tile style held out of the classifier's training
Q_SQUARE = (13, 4)  # where the layout puts the Q: E14


def board_of(layout: np.ndarray) -> Board:
    return Board().with_tiles(
        (r, c, Tile("A", blank=True) if layout[r, c] == "?" else Tile(str(layout[r, c])))
        for r in range(SIZE) for c in range(SIZE) if layout[r, c] != ".")


@pytest.fixture(scope="module")
def layout(english):
    return enrolment_layout(english)


@pytest.fixture(scope="module")
def scene():
    rng = np.random.default_rng(12)
    look = draw_scene_look(rng, (800, 600))
    # a printed face and no score bar over the feed: these tests are about enrolment, not
    # about reading hand-lettered tiles or tiles the bar hides
    tiles = replace(draw_tile_style(rng, FAMILY), font="urw_gothic_demi", hand=0.0)
    look = replace(look, tiles=tiles, mirrored=False, overlay=False)
    return Scene(look, 12)


def photo(scene: Scene, layout: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    frame = scene.finish(scene.background(board_of(layout)), 0)
    return frame, scene.look.camera.project(CORNERS).astype(np.float32)


def cells_of(frame, corners):
    return list(cell_crops(rectify(frame, corners, 40), margin=0.25, size=64))


def test_layout_follows_the_set(layout, english):
    assert (layout != ".").sum() == 100
    assert "".join(layout[0, :5]) == "AAAAA" and layout[4, 4] == "E"
    assert layout[0, 10] == "E" and layout[14, 13] == "?" and layout[14, 14] == "?"
    assert layout[Q_SQUARE] == "Q"
    assert (layout[5:10] == ".").all() and (layout[:, 5:10] == ".").all()
    faces, counts = np.unique(layout[layout != "."], return_counts=True)
    assert dict(zip(faces, counts, strict=True)) == dict(english.counts)


def test_board_orders_are_the_eight_symmetries():
    orders = board_orders()
    assert len({o.tobytes() for o in orders}) == 8
    assert all(sorted(o) == list(range(225)) for o in orders)
    assert np.array_equal(orders[0], np.arange(225))


def test_check_layout_names_missing_extra_and_misread(layout, english):
    read = layout.copy()
    read[Q_SQUARE] = "."
    read[7, 7] = "Z"
    read[0, 0] = "R"
    lines = check_layout(read, layout, english)
    assert "E14: empty, expected Q (missing tile)" in lines
    assert "H8: Z where no tile belongs (extra tile)" in lines
    assert "A1: read R, expected A" in lines
    assert "A: 8 of 9 in the set (missing 1)" in lines
    assert "Q: 0 of 1 in the set (missing 1)" in lines
    assert "Z: 2, the set has 1 (extra 1)" in lines
    assert check_layout(layout, layout, english) == []


def test_enrolment_never_makes_an_unseen_style_worse(scene, layout, english):
    clf = TileClassifier.load()
    frame, corners = photo(scene, layout)
    # Corners from another starting corner and the other way round: the layout decides.
    check = enroll_board(clf, cells_of(frame, corners[[2, 1, 0, 3]]), english)
    # Found the orientation, and the complete set is reported complete: an unseen style may
    # still have a few squares misread (which enrolment is for), but none so clearly that the
    # layout's tile is ruled out.
    assert check.problems == []
    assert (check.read == layout).mean() > 0.95
    # The same 100 tiles spread over other squares: other neighbours, light and perspective.
    game = np.full((SIZE, SIZE), ".", "<U1")
    squares = np.random.default_rng(3).permutation(225)[:100]
    game.ravel()[squares] = layout[layout != "."]
    cells = cells_of(*photo(scene, game))
    truth = np.array([CLASSES.index(c) for c in game.ravel()])
    before = clf.probabilities(cells)
    after = clf.with_prototypes(check.prototypes).probabilities(cells)
    nll = [-np.log(p[np.arange(225), truth]).mean() for p in (before, after)]
    wrong = [(p.argmax(1) != truth).sum() for p in (before, after)]
    # Enrolment never makes reading worse: where the network already reads the venue's tiles,
    # the weight chosen on the layout itself leaves its readings as they were.
    assert nll[1] <= nll[0] * 1.01 and wrong[1] <= wrong[0], (nll, wrong)
    assert 0 <= check.prototypes.weight <= max(CLASSIFY.weights)


def test_enroll_command_reports_a_missing_tile(scene, layout, tmp_path, capsys):
    gap = layout.copy()
    gap[Q_SQUARE] = "."
    frame, corners = photo(scene, gap)
    cv2.imwrite(str(tmp_path / "set.png"), frame)
    parser = argparse.ArgumentParser()
    enroll_command.register(parser.add_subparsers())
    text = ",".join(f"{v:.2f}" for v in np.roll(corners, 1, axis=0).ravel())
    args = parser.parse_args(["enroll", str(tmp_path / "set.png"), "--corners", text,
                              "-o", str(tmp_path / "venue.npz")])
    assert args.func(args) == 1
    out = capsys.readouterr().out
    assert "E14: empty, expected Q (missing tile)" in out
    assert "Q: 0 of 1 in the set (missing 1)" in out
    protos = Prototypes.load(tmp_path / "venue.npz")
    assert protos.counts[CLASSES.index("Q")] == 0 and protos.counts[CLASSES.index("E")] >= 11
    assert protos.counts[CLASSES.index(".")] >= 120


def test_enroll_cuts_the_photo_as_the_reader_cuts_a_frame(scene, layout):
    from tilecast.vision.reader import CELL_PX, CROP

    frame, corners = photo(scene, layout)
    cells = board_cells(frame, corners)
    reader = cell_crops(rectify(frame, corners, CELL_PX), margin=0.25, size=CROP)
    assert np.array_equal(np.asarray(cells), reader)
    # A phone's photo, four times finer and with pixel-fine grain, is shrunk before it is cut:
    # read point by point at CELL_PX, the grain would show in every crop.
    fine = cv2.resize(frame, None, fx=4, fy=4, interpolation=cv2.INTER_LINEAR) // 2 + 64
    grain = fine.copy()  # (64-191: the grain never clips)
    grain[::2, ::2] += 60
    grain[1::2, 1::2] -= 60
    at = (corners + 0.5) * 4 - 0.5  # the same corners in the finer photo
    clean, grainy = (np.asarray(board_cells(p, at), np.float32)
                     for p in (fine, grain))
    assert np.abs(grainy - clean).mean() < 4  # 2.5 shrunk, 7.9 if cut point by point


RECORD = """#character-encoding UTF-8
#player1 ann Ann
#player2 bob Bob
>ann: ?ATEEIO 8H cAT +4 4
>bob: DOGEEIU H8 .OG +3 3
>ann: EEIOLNR I7 L. +2 6
>ann: EEIOLNR -- -2 4
"""


def replayed(text: str):
    from tilecast.config import load_profile
    from tilecast.engine.gcg import parse_gcg
    from tilecast.engine.replay import replay

    return replay(parse_gcg(text), load_profile("wespa"), enroll_command.load_tileset()).game


def test_a_record_gives_every_position_its_board_went_through():
    from tilecast.vision.enroll import record_positions

    positions = record_positions(replayed(RECORD))
    assert len(positions) == 5 and (positions[0] == ".").all()
    assert "".join(positions[1][7, 7:10]) == "?AT"  # the blank as '?', whatever it stands for
    assert "".join(positions[2][7:10, 7]) == "?OG"
    assert positions[3][6, 8] == "L" and positions[3][7, 8] == "A"
    assert np.array_equal(positions[4], positions[2])  # the phony taken back


def test_only_readings_that_show_a_position_of_the_record_are_learnt_from():
    from collections import Counter

    from tilecast.vision.enroll import AGREE, PER_POSITION, GameEnrolment, record_positions

    positions = record_positions(replayed(RECORD))
    gathered = GameEnrolment(positions, [], [], Counter())
    crops = np.arange(225)[:, None, None] * np.ones((225, 4, 4))  # crop i is filled with i
    crop_of = np.arange(225)[::-1]  # the camera sees the board turned half round
    rng = np.random.default_rng(0)
    misread = positions[2].copy()
    misread[7, 9] = "I"  # one square misread: the position is still plain to see
    assert gathered.add(misread, crops, crop_of, rng)
    tiles = {lab: crop[0, 0] for crop, lab in zip(gathered.crops, gathered.labels, strict=True)
             if lab != "."}
    # labels are the record's, cut where the camera saw each square
    assert tiles["T"] == crop_of[7 * 15 + 9] and tiles["G"] == crop_of[9 * 15 + 7]
    scrambled = positions[2].copy()
    scrambled[:4] = "E"  # a board the record never showed
    assert (scrambled == positions[2]).mean() < AGREE
    assert not gathered.add(scrambled, crops, crop_of, rng) and gathered.refused == 1
    for _ in range(3):
        gathered.add(positions[2], crops, crop_of, rng)
    assert gathered.used[2] == PER_POSITION or gathered.used[4] == PER_POSITION


def test_enroll_learns_a_venue_from_a_recorded_game(tmp_path, capsys):
    from tilecast.vision.render.script import gcg_script
    from tilecast.vision.render.video import render_game

    record = tmp_path / "game.gcg"
    record.write_text(RECORD)
    video = tmp_path / "game.mp4"
    render_game(gcg_script(RECORD.encode()), video, seed=3, fps=2, size=(800, 600))
    parser = argparse.ArgumentParser()
    enroll_command.register(parser.add_subparsers())
    args = parser.parse_args(["enroll", str(video), "--record", str(record),
                              "-o", str(tmp_path / "venue.npz")])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "saved to" in out
    protos = Prototypes.load(tmp_path / "venue.npz")
    counts = protos.counts
    assert counts[CLASSES.index("?")] >= 1 and counts[CLASSES.index("G")] >= 1
    assert counts[CLASSES.index(".")] >= 20


def test_enroll_from_a_game_names_a_bad_record(tmp_path, capsys):
    record = tmp_path / "game.gcg"
    record.write_text(">ann: ZZZZZZZ 8H ZZZ +4 4\n")
    parser = argparse.ArgumentParser()
    enroll_command.register(parser.add_subparsers())
    args = parser.parse_args(["enroll", str(tmp_path / "none.mp4"), "--record", str(record)])
    assert args.func(args) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_tile_seen_in_many_positions_makes_one_prototype():
    from collections import Counter

    from tilecast.vision.classify import TileClassifier
    from tilecast.vision.enroll import GameEnrolment, record_positions

    positions = record_positions(replayed(RECORD))
    gathered = GameEnrolment(positions, [], [], Counter())
    rng = np.random.default_rng(0)
    crops = rng.integers(0, 255, (225, 16, 16, 3), np.uint8)
    for index in (1, 1, 2, 2, 3, 3):  # each tile of ?AT read in six frames, of ?OG in four
        assert gathered.add(positions[index], crops, np.arange(225), rng)
    tiles = Counter(positions[3][positions[3] != "."])
    protos = gathered.prototypes(TileClassifier.load())
    letters = Counter(CLASSES[k] for k in protos.labels if CLASSES[k] != ".")
    assert letters == tiles  # one prototype per tile on the board, however often it was read
    assert 0.0 <= protos.weight <= 0.8


def test_a_reading_the_wrong_way_round_is_matched_turned_back():
    from collections import Counter

    from tilecast.vision.enroll import GameEnrolment, record_positions

    positions = record_positions(replayed(RECORD))
    gathered = GameEnrolment(positions, [], [], Counter())
    crops = np.arange(225)[:, None, None] * np.ones((225, 4, 4))  # crop i is filled with i
    rng = np.random.default_rng(0)
    # the reader took a mirrored feed turned a quarter for the board itself: what the record
    # has on square (r, c) it reads on square (14 - c, 14 - r)
    read = positions[2][::-1, ::-1].T
    assert gathered.add(read, crops, np.arange(225), rng)
    tiles = {lab: crop[0, 0] for crop, lab in zip(gathered.crops, gathered.labels, strict=True)
             if lab != "."}
    # the record's T stands on 8J (7, 9), its G on 10H (9, 7): cut where the reader saw them
    assert tiles["T"] == (14 - 9) * 15 + (14 - 7) and tiles["G"] == (14 - 7) * 15 + (14 - 9)
    assert {square for square, label in gathered.tiles if label == "T"} == {7 * 15 + 9}
