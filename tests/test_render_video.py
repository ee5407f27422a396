"""Rendered games: the truth must match the pixels (geometry, not looks)."""

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tilecast.engine.play import Placement
from tilecast.engine.tiles import Tile
from tilecast.vision.render.degrade import Damage
from tilecast.vision.render.hands import HandLook
from tilecast.vision.render.scene import draw_scene_look
from tilecast.vision.render.script import RenderTurn, boards_after
from tilecast.vision.render.video import render_frames, render_game, render_still

GREY, RED, GREEN = (128, 128, 128), (40, 40, 220), (0, 255, 0)


def word(row: int, col: int, text: str, across: bool = True, player: int = 0,
         withdrawn: bool = False) -> RenderTurn:
    cells = [(row, col + i) if across else (row + i, col) for i in range(len(text))]
    return RenderTurn(tuple(Placement(r, c, Tile.from_notation(ch))
                            for (r, c), ch in zip(cells, text, strict=True) if ch != "."),
                      withdrawn, player)


SCRIPT = [word(7, 5, "HELLO"), RenderTurn((), player=1), word(8, 9, "ZQ", player=0,
                                                                  withdrawn=True),
          word(4, 9, "TWO.", across=False, player=1), word(2, 8, "Ax", player=0)]


def plain_look(seed: int, mirrored: bool, shake: float = 0.0):
    """A drawn look with known flat colours: grey board, red tiles, green hands, no damage."""
    look = draw_scene_look(np.random.default_rng(seed), (640, 360))
    board = replace(look.board, plain=GREY, tw=GREY, dw=GREY, tl=GREY, dl=GREY, centre=GREY,
                    star=GREY, line=GREY, label_mode="none", texture=0.0)
    tiles = replace(look.tiles, face=RED, side=RED, ink=RED, value_ink=RED, grain=0.0, bevel=0.0,
                    gloss=0.0, blank_mark="plain")
    hand = HandLook(skin=GREEN, sleeve=None, cuff=2.0, size=1.0, spread=0.2, left=False)
    clean = Damage((1.0, 1.0, 1.0), 1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0), 0.0, (0.0, 0.0),
                   0.0, 0)
    return replace(look, board=board, tiles=tiles, camera=replace(look.camera, k1=0.0, k2=0.0),
                   damage=clean, mirrored=mirrored, resolution=1.0, hands=(hand, hand),
                   cast_shadow=False, overlay=False, depth_of_field=0.0, shake=shake)


def centres(corners: list) -> np.ndarray:
    """Image position of every square's centre [15, 15, 2] from the truth corners."""
    board = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]])
    h = cv2.getPerspectiveTransform(board, np.float32(corners))
    g = np.stack(np.meshgrid(np.arange(15) + 0.5, np.arange(15) + 0.5), -1).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(g.astype(np.float32), h).reshape(15, 15, 2)


@pytest.fixture(scope="module", params=[(1, False, 0.0), (2, True, 3.0), (5, False, 4.0),
                                        (6, True, 0.0)])
def game(request):
    seed, mirrored, shake = request.param
    return list(render_frames(SCRIPT, seed, fps=5, look=plain_look(seed, mirrored, shake)))


def test_truth_boards_follow_the_script(game):
    boards = [rec["board"] for _, rec in game]
    expected = [b.rows() for b in boards_after(SCRIPT)]
    assert boards[0] == ["." * 15] * 15
    assert boards[-1] == expected[-1]
    phony = [rec["board"][8][9:11] for _, rec in game]
    assert "ZQ" in phony and phony[-1] == ".."  # put down, then taken back
    for _, rec in game:
        if rec["turn"] == 1:  # the pass changes nothing
            assert rec["board"] == expected[0]
    assert {rec["phase"] for _, rec in game} >= {"place", "withdraw", "rest"}


def assert_pixels_match_truth(img: np.ndarray, rec: dict) -> None:
    """Red where truth has a tile, grey where it has an empty square (at square centres)."""
    pts = np.round(centres(rec["corners"])).astype(int)
    inside = ((pts >= 0) & (pts < (img.shape[1], img.shape[0]))).all(-1)
    colour = img[pts[..., 1].clip(0, img.shape[0] - 1), pts[..., 0].clip(0, img.shape[1] - 1)]
    colour = colour.astype(int)
    red = (colour[..., 2] > 90) & (colour[..., 2] > 2 * colour[..., 1])  # also in shadow
    grey = np.abs(colour[..., 2] - colour[..., 1]) < 30
    for r in range(15):
        for c in range(15):
            if not inside[r, c] or rec["occluded"][r][c] == "1":
                continue
            if rec["board"][r][c] == ".":
                assert grey[r, c], (rec.get("frame"), r, c, colour[r, c])
            else:
                assert red[r, c], (rec.get("frame"), r, c, colour[r, c])


def test_settled_frames_show_the_truth_board_at_the_truth_corners(game):
    settled = [(img, rec) for img, rec in game if rec["settled"]]
    assert len(settled) > 10
    moving = len({str(rec["corners"]) for _, rec in game}) > 1
    assert moving == (game[0][1]["look"]["shake"] > 0)
    for img, rec in settled:
        assert not any("1" in row for row in rec["occluded"])
        assert_pixels_match_truth(img, rec)


def test_render_still_shows_its_board():
    board = boards_after(SCRIPT)[-1]
    for seed, mirrored in ((4, True), (8, False)):
        img, rec = render_still(board, seed, look=plain_look(seed, mirrored), hand=False)
        assert rec["board"] == board.rows() and not rec["hand"]
        assert_pixels_match_truth(img, rec)
    img, rec = render_still(board, 9, look=plain_look(9, False), hand=True)
    assert rec["hand"] and rec["polygons"] and rec["phase"] == "place"
    assert_pixels_match_truth(img, rec)  # squares not hidden by the hand still match


def test_occlusion_covers_the_hand(game):
    hand_frames = [(img, rec) for img, rec in game if rec["hand"]]
    assert len(hand_frames) > 5
    seen_hidden_cell = False
    for img, rec in hand_frames:
        h, w = img.shape[:2]
        board_area = np.zeros((h, w), np.uint8)
        cv2.fillPoly(board_area, [np.round(rec["corners"]).astype(np.int32)], 1)
        b, g, r = (img[..., i].astype(int) for i in range(3))
        green = (g > 120) & (r < 60) & (b < 60) & (board_area > 0)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.array(p, np.int32) for p in rec["polygons"]], 1)
        mask = cv2.dilate(mask, np.ones((7, 7), np.uint8))
        if green.sum():
            assert (mask[green] > 0).mean() > 0.99
        pts = np.round(centres(rec["corners"])).astype(int)
        for row in range(15):
            for col in range(15):
                x, y = pts[row, col]
                if 0 <= x < w and 0 <= y < h and green[y, x]:
                    assert rec["occluded"][row][col] == "1", (rec["frame"], row, col)
                    seen_hidden_cell = True
    assert seen_hidden_cell


def test_orientation_and_corner_order():
    """1A, 1O, 15O, 15A run clockwise on screen unless the feed is mirrored."""
    for seed in range(12):
        _, rec = next(render_frames(SCRIPT[:1], seed, fps=2, size=(320, 180)))
        c = np.array(rec["corners"])
        area = sum(c[i, 0] * c[(i + 1) % 4, 1] - c[(i + 1) % 4, 0] * c[i, 1] for i in range(4))
        assert (area < 0) == rec["mirrored"]  # positive (clockwise, y down) when not mirrored
        assert rec["rotation"] in (0, 90, 180, 270)
        assert abs((rec["angle"] - rec["rotation"] + 45) % 360 - 45) <= 45


def test_render_game_writes_video_and_frames(tmp_path):
    truth_path = render_game(SCRIPT[:1], tmp_path / "g.mp4", seed=3, fps=4, size=(320, 180))
    truth = json.loads(truth_path.read_text())
    cap = cv2.VideoCapture(str(tmp_path / "g.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == len(truth["frames"]) > 5
    assert truth["size"] == [320, 180] and truth["frames"][-1]["board"][7] == ".....HELLO....."
    folder = render_game(SCRIPT[:1], tmp_path / "frames", seed=3, fps=4, size=(320, 180))
    again = json.loads(folder.read_text())
    assert again["frames"] == truth["frames"]
    first = cv2.imread(str(tmp_path / "frames" / "frame_00000.jpg"))
    assert first.shape == (180, 320, 3)
    assert len(list((tmp_path / "frames").glob("*.jpg"))) == len(truth["frames"])


def test_a_board_turned_on_its_turntable_shows_its_truth_at_the_turned_corners():
    frames = list(render_frames(SCRIPT[:2], 6, fps=5, look=plain_look(6, True), spins=1.0))
    angles = [rec["angle"] for _, rec in frames]
    turning = [rec for (_, rec), before in zip(frames[1:], angles, strict=False)
               if rec["angle"] != before]
    assert turning and not any(rec["settled"] for rec in turning)
    assert len({rec["rotation"] for _, rec in frames}) > 1  # corners run 1A, 1O, 15O, 15A
    settled = [(img, rec) for img, rec in frames if rec["settled"]]
    assert {rec["angle"] for _, rec in settled} >= {angles[0], angles[-1]}
    for img, rec in settled:
        assert_pixels_match_truth(img, rec)
