"""Opening a board: the CLI and the server build the same board from the same spec, and a
board resumed from its journal reads on as it left off: a file's frames read again from the
start (recording none the journal holds), a camera from the journaled view."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import tilecast
from tests.conftest import OPERATOR, TD
from tilecast.cli import build_parser
from tilecast.commands.record import board_spec
from tilecast.engine.infer import EMPTY_CLASS
from tilecast.observation import Observation
from tilecast.opening import RiddenOut, Spec, SpecError, open_board
from tilecast.pluginmanager import plugin_manager
from tilecast.server.app import create_app
from tilecast.server.config import BoardSpec, ServerConfig
from tilecast.vision.classify import Prototypes

VIEW = 5  # mirrored, turned once: not what a fresh reader would start from


def bare():
    return plugin_manager(entry_points=False)


def served():
    """A bare manager with the two services the server needs."""
    from tilecast.plugins.alerts import AlertLog
    from tilecast.plugins.broadcast import Broadcast

    pm = bare()
    pm.register(Broadcast(), name="broadcast")
    pm.register(AlertLog(), name="alerts")
    return pm


@pytest.fixture
def frames_dir(tmp_path):
    """16 small grey frames (1.6 s at the folder rate) in which no board is found."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(16):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((48, 64, 3), 90, np.uint8))
    return folder


def journaled_view(spec: Spec, view: int) -> None:
    """A journal whose last camera reading decided `view`."""
    board = open_board(spec, bare())
    probs = np.zeros((225, 28))
    probs[:, EMPTY_CLASS] = 1  # an empty board
    board.session.camera(Observation(probs, frame=3, time=0.3, view=view))
    board.session.close()


def test_the_cli_and_the_server_open_the_same_board(tmp_path, frames_dir, enrolled):
    out = tmp_path / "out"
    args = build_parser().parse_args(
        ["run", "--source", str(frames_dir), "--board", "cam", "--out-dir", str(out),
         "--tileset", enrolled, "--fps", "20", "--still", "0.3", "--realtime"])
    from_cli = board_spec(args, args.source, args.out_dir, args.realtime)
    journaled_view(from_cli, VIEW)
    config = ServerConfig((BoardSpec("cam", str(frames_dir), tileset=enrolled),), out,
                          OPERATOR, TD, fps=20.0, still_s=0.3)
    app = create_app(config, served(), start=False)
    runner = app.extensions["tilecast.server"].boards["cam"]
    assert runner.board.spec == from_cli
    cli = open_board(from_cli, bare())
    assert cli.session.info == runner.session.info
    assert cli.session.recorder.rules == runner.session.recorder.rules
    assert cli.session.recorder.game.tileset == runner.session.recorder.game.tileset
    readers = [cli.reader(), runner.make_reader(None)]
    for reader in readers:
        assert not reader.votes.any()  # a file's frames decide the view again when replayed
        assert np.array_equal(reader.classifier.prototypes.vectors,
                              Prototypes.load(enrolled).vectors)
    assert [f[0] for f in cli.frames()] == [f[0] for f in runner.board.frames()] == list(
        range(16))
    assert cli.replay_until == runner.board.replay_until == 3  # the journal's last frame
    cli.session.close()
    app.extensions["tilecast.server"].close()


def test_a_camera_resumes_from_the_journaled_view(tmp_path):
    spec = Spec("cam", tmp_path / "out", "rtsp://camera.invalid/stream")
    journaled_view(spec, VIEW)
    board = open_board(spec, bare())
    assert board.reader().votes.argmax() == VIEW
    assert board.replay_until == -1  # a camera's past frames cannot be read again
    board.session.close()


def test_a_spec_that_cannot_load_names_the_field(tmp_path):
    for field, value in (("profile", "nosuch"), ("lexicon", str(tmp_path / "none.txt")),
                         ("tileset", "klingon")):
        with pytest.raises(SpecError) as caught:
            open_board(Spec("b", tmp_path, **{field: value}), bare())
        assert caught.value.field == field and str(caught.value).startswith(f"{field} ")


def test_annotate_is_a_library_call(tmp_path, frames_dir):
    seen = []

    def tap(source):
        for frame in source:
            seen.append(frame[0])
            yield frame

    spec = Spec("b1", tmp_path / "out", str(frames_dir), ("Ann", "Bob"), fps=5.0)
    # (grey frames: no board in any, which the run rides out and says once the GCG is written)
    with pytest.raises(RiddenOut, match="no board found in any of its 8 frames read"):
        tilecast.annotate(spec, tmp_path / "g.gcg", bare(), tap=tap)
    assert seen == list(range(0, 16, 2))  # the folder's 10 frames a second, read at 5
    gcg = (tmp_path / "g.gcg").read_text()
    assert "#player1 Ann Ann" in gcg and ">" not in gcg
