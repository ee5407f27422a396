"""`tilecast read-board`: its output, its corners, and a clear line when it cannot read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecast.cli import main

STILLS = Path(__file__).resolve().parents[1] / "fixtures" / "render"


@pytest.fixture(scope="module")
def still() -> tuple[Path, dict]:
    record = json.loads((STILLS / "stills.json").read_text())[0]
    return STILLS / "stills" / record["file"], record


def corners_text(points) -> str:
    return ",".join(f"{v:g}" for p in points for v in p)


def test_json_counts_the_tiles_its_rows_show_and_rounds_corners_and_confidences(still, capsys):
    path, _ = still
    assert main(["read-board", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tiles"] == sum(len(r) - r.count(".") for r in out["rows"])
    assert all(v == round(v, 1) and len(repr(v)) <= 8 for p in out["corners"] for v in p)
    assert all(len(repr(v)) <= 5 for row in out["confidence"] for v in row)  # not float32 noise


def test_corners_in_any_order_read_the_same_board(still, capsys):
    path, record = still
    truth = np.array(record["corners"], float)
    assert main(["read-board", str(path), "--corners", corners_text(truth)]) == 0
    first = capsys.readouterr().out
    assert main(["read-board", str(path), "--corners", corners_text(truth[[0, 2, 1, 3]])]) == 0
    assert capsys.readouterr().out == first


def test_a_first_x_below_zero_parses_and_is_refused_for_what_it_is(still, capsys):
    path, _ = still
    assert main(["read-board", str(path), "--corners", "-5,10,400,10,400,400,10,400"]) == 2
    err = capsys.readouterr().err
    assert "outside" in err and "expected one argument" not in err


@pytest.mark.parametrize("corners, reason", [
    ("10,10,10,10,10,10,10,10", "line"),
    ("nan,10,400,10,400,400,10,400", "finite"),
    ("10,10,400,10,200,100,10,400", "inside"),
])
def test_degenerate_corners_exit_2_with_the_reason(still, corners, reason, capsys):
    path, _ = still
    with pytest.raises(SystemExit) as stop:
        main(["read-board", str(path), "--corners", corners])
    assert stop.value.code == 2 and reason in capsys.readouterr().err


def test_no_board_exits_2_saying_why(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    assert main(["read-board", str(blank)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no board found" in err[0] and err[0].split(": ", 2)[2]


def test_a_closed_pipe_is_no_traceback(still):
    path, _ = still
    cmd = (f"{sys.executable} -m tilecast.cli read-board {path} | head -1")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True,
                          timeout=120)
    assert len(done.stdout.splitlines()) == 1
    assert "Traceback" not in done.stderr and done.returncode == 0


def test_a_board_too_small_to_read_every_letter_is_read_with_a_warning(still, tmp_path, capsys):
    path, record = still
    image = cv2.imread(str(path))
    assert main(["read-board", str(path)]) == 0
    assert "warning" not in capsys.readouterr().err  # the still's squares are large enough
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(image, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA))
    corners = corners_text(np.array(record["corners"], float) * 0.2)
    assert main(["read-board", str(small), "--corners", corners]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.split()) == 15  # read all the same
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "squares are only" in err[0] and "pixels wide" in err[0]
