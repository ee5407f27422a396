"""The committed rendered fixtures are whole and agree with their truth files."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecast.vision.render.cells import CLASSES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "render"


@pytest.mark.parametrize("name", ["game_a", "game_b"])
def test_videos_match_their_truth(name):
    truth = json.loads((FIXTURES / f"{name}.truth.json").read_text())
    cap = cv2.VideoCapture(str(FIXTURES / f"{name}.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == len(truth["frames"])
    ok, frame = cap.read()
    assert ok and [frame.shape[1], frame.shape[0]] == truth["size"]
    assert all(len(f["board"]) == 15 and len(f["corners"]) == 4 for f in truth["frames"])
    assert any(f["settled"] for f in truth["frames"]) and any(f["hand"] for f in truth["frames"])


def test_stills_and_cells_are_readable():
    stills = json.loads((FIXTURES / "stills.json").read_text())
    assert len(stills) == 16
    for rec in stills:
        img = cv2.imread(str(FIXTURES / "stills" / rec["file"]))
        assert img is not None and img.shape == (720, 1280, 3)
    data = np.load(FIXTURES / "cells.npz")
    assert data["images"].shape == (256, 64, 64, 3)
    assert set(data["classes"]) <= set(CLASSES)
