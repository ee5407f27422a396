"""A board with a camera: the server's watch thread over a folder of frames (with a stand-in
reader, so no model is needed), the MJPEG preview and the operator's corners."""

from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from tests.conftest import AS_OPERATOR, make_app
from tilecast.engine.board import Board, parse_coord
from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.engine.play import placements_for
from tilecast.observation import Observation
from tilecast.server.boards import CornersError, order_corners
from tilecast.server.config import BoardSpec

SIZE = (320, 240)  # frame width, height
FOUND = np.float32([[40, 20], [280, 20], [280, 220], [40, 220]])


def probs_of(board: Board) -> np.ndarray:
    p = np.zeros((225, len(CLASSES)))
    for i in range(225):
        tile = board.at(*divmod(i, 15))
        p[i, EMPTY_CLASS if tile is None else CLASSES.index(tile.letter)] = 1
    return p


WINDY = Board().with_tiles(
    (q.row, q.col, q.tile) for q in placements_for(Board(), parse_coord("8D"), "WINDY")
)


class Reader:
    """Reads an empty board from dark frames and WINDY on 8D from bright ones; motion where
    the picture changes. Has the `manual` and `fix` a BoardReader has."""

    def __init__(self, corners):
        self.manual, self.fix = corners, None
        self.previous = None

    def read(self, frame):
        bright = frame.mean() > 100
        motion = 0.0 if bright == self.previous else 99.0
        self.previous = bright
        corners = self.manual if self.manual is not None else FOUND
        return SimpleNamespace(probs=probs_of(WINDY if bright else Board()), motion=motion,
                               corners=corners, fix=np.float32(corners), view=0)


@pytest.fixture
def frames(tmp_path):
    """A folder of 16 frames (1.6 s at the folder rate): 6 dark, then 10 bright."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(16):
        level = 30 if i < 6 else 200
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((SIZE[1], SIZE[0], 3), level, np.uint8))
    return folder


def camera_app(tmp_path, frames, readers):
    def make_reader(corners):
        reader = Reader(corners)
        readers.append(reader)
        return reader

    spec = BoardSpec("cam", source=str(frames))
    app = make_app(tmp_path / "out", boards=(spec, BoardSpec("desk")), make_reader=make_reader,
                   fps=20.0, still_s=0.3)
    return app, app.extensions["tilecast.server"].boards["cam"]


def wait_for(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_camera_thread_records_the_play_it_sees(tmp_path, frames):
    readers = []
    app, runner = camera_app(tmp_path, frames, readers)
    wait_for(lambda: runner.status == "camera source ended")
    game = runner.session.game
    assert [(t.kind, t.word, t.score) for t in game.turns] == [("play", "WINDY", 32)]
    assert readers[0].manual is None
    client = app.test_client()
    record = client.get("/api/boards/cam/record", headers=AS_OPERATOR).json
    assert record["camera"] == "camera source ended"
    assert client.get("/api/boards/cam/state").json["scores"] == [32, 0]
    app.extensions["tilecast.server"].close()


def test_the_preview_is_mjpeg_with_the_grid_drawn(tmp_path, frames):
    app, runner = camera_app(tmp_path, frames, [])
    wait_for(lambda: runner.preview is not None and runner.preview.count > 0)
    resp = app.test_client().get("/api/boards/cam/preview.mjpg", headers=AS_OPERATOR,
                                 buffered=False)
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "multipart/x-mixed-replace; boundary=frame"
    part = next(iter(resp.response))
    head, _, body = part.partition(b"\r\n\r\n")
    assert head.startswith(b"--frame\r\nContent-Type: image/jpeg")
    image = cv2.imdecode(np.frombuffer(body[:-2], np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (SIZE[1], SIZE[0], 3)
    b, g, r = image[110].astype(int).T
    greener = g - r > 80  # the frames are grey: only the drawn grid is green
    assert greener[:35].sum() == 0 and greener[285:].sum() == 0  # nothing outside the board
    assert greener[35:285].sum() >= 16  # 16 vertical grid lines cross the middle row
    resp.close()
    assert app.extensions["tilecast.server"].streams.open == 0
    app.extensions["tilecast.server"].close()


def test_clicked_corners_are_ordered_used_and_kept(tmp_path, frames):
    readers = []
    app, runner = camera_app(tmp_path, frames, readers)
    wait_for(lambda: runner.preview is not None and runner.preview.count > 0)
    client = app.test_client()
    shown = client.get("/api/boards/cam/corners", headers=AS_OPERATOR).json
    assert shown == {"corners": FOUND.tolist(), "manual": False, "frame": list(SIZE)}
    clicked = [[300, 230], [10, 5], [20, 235], [310, 10]]  # any order
    resp = client.put("/api/boards/cam/corners", json={"corners": clicked}, headers=AS_OPERATOR)
    assert resp.status_code == 200
    ordered = [[10, 5], [310, 10], [300, 230], [20, 235]]  # clockwise from the top left
    assert resp.json == {"corners": ordered, "manual": True}
    saved = json.loads((tmp_path / "out" / "cam.corners.json").read_text())
    assert saved == {"corners": ordered}
    assert readers[0].manual.tolist() == ordered
    assert client.get("/api/boards/cam/corners", headers=AS_OPERATOR).json["manual"] is True
    for bad in (
        {"corners": clicked[:3]},
        {"corners": [[0, 0], [100, 0], [200, 0], [50, 50]]},  # nearly flat
        {"corners": [[0, 0], [100, 0], [30, 30], [0, 100]]},  # not convex
        {"corners": [[0, 0], [400, 0], [400, 200], [0, 200]]},  # outside the frame
        {"corners": [[0, 0], [True, 0], [100, 100], [0, 100]]},
        {"points": clicked},
    ):
        resp = client.put("/api/boards/cam/corners", json=bad, headers=AS_OPERATOR)
        assert resp.status_code == 400, bad
    assert json.loads((tmp_path / "out" / "cam.corners.json").read_text()) == saved
    app.extensions["tilecast.server"].close()

    # A restarted server reads from the kept corners.
    again, runner = camera_app(tmp_path, frames, readers)
    wait_for(lambda: len(readers) == 2)
    assert readers[1].manual.tolist() == ordered
    resp = again.test_client().put("/api/boards/cam/corners", json={"corners": None},
                                   headers=AS_OPERATOR)
    assert resp.status_code == 200 and resp.json == {"corners": None, "manual": False}
    assert not (tmp_path / "out" / "cam.corners.json").exists()
    assert readers[1].manual is None
    again.extensions["tilecast.server"].close()


def test_a_board_without_camera_has_no_preview_or_corners(tmp_path, frames):
    app, _ = camera_app(tmp_path, frames, [])
    client = app.test_client()
    for method, path in (("get", "corners"), ("put", "corners"), ("get", "preview.mjpg")):
        resp = getattr(client, method)(f"/api/boards/desk/{path}", json={"corners": None},
                                       headers=AS_OPERATOR)
        assert resp.status_code == 409 and "no camera" in resp.json["error"]
    app.extensions["tilecast.server"].close()


def test_a_source_that_cannot_open_leaves_the_board_up_for_input(tmp_path):
    app = make_app(tmp_path / "out", boards=(BoardSpec("cam", source=str(tmp_path / "none")),),
                   make_reader=lambda corners: Reader(corners))
    runner = app.extensions["tilecast.server"].boards["cam"]
    wait_for(lambda: runner.status.startswith("camera error"))
    resp = app.test_client().post("/api/boards/cam/entries", json={"type": "pass"},
                                  headers=AS_OPERATOR)
    assert resp.status_code == 201
    app.extensions["tilecast.server"].close()


def test_order_corners_rejects_what_is_not_four_points():
    for bad in (None, "0,0,1,1", [[0, 0]] * 4, [[0, 0], [1, 0], [1, 1]], [[0, "x"]] * 4,
                [[float("nan"), 0], [100, 0], [100, 100], [0, 100]]):
        with pytest.raises(CornersError):
            order_corners(bad)


def test_the_session_takes_one_change_at_a_time(tmp_path):
    """While one thread holds the board's session (the camera committing a reading), another
    thread's entry waits for it instead of interleaving with it."""
    app = make_app(tmp_path / "out", boards=(BoardSpec("t1"),))
    session = app.extensions["tilecast.server"].boards["t1"].session
    other = threading.Thread(target=session.submit, args=({"type": "pass"},))
    with session.lock:
        other.start()
        other.join(0.3)
        assert other.is_alive() and session.journal.entries == []
    other.join(5)
    assert [e["type"] for e in session.journal.entries] == ["pass"]
    app.extensions["tilecast.server"].close()


def test_a_board_resumed_from_its_journal_keeps_its_tile_set_and_replays_a_file(
        tmp_path, frames, enrolled):
    """A restarted server reads the board with the venue's enrolled tiles and the shipped
    reader; a file source is read again from its start (its frames decide the view again, as
    they did before), not from the journaled view, which only a camera resumes from."""
    app = make_app(tmp_path / "out", boards=(BoardSpec("cam"),))
    app.extensions["tilecast.server"].boards["cam"].session.camera(Observation(
        probs_of(Board()), frame=3, time=0.3, view=5))
    app.extensions["tilecast.server"].close()
    spec = BoardSpec("cam", source=str(frames), tileset=enrolled)
    again = make_app(tmp_path / "out", boards=(spec,))
    runner = again.extensions["tilecast.server"].boards["cam"]
    wait_for(lambda: runner.preview is not None)
    reader = runner.preview.reader
    assert runner.board.replay_until == 3
    assert not reader.votes.any()  # (these frames show no board to vote)
    assert reader.classifier.prototypes is not None
    assert reader.classifier.prototypes.vectors.shape[0] == 4
    again.extensions["tilecast.server"].close()
