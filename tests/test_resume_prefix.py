"""Resuming from any prefix of the journal gives the unbroken run's record: the journal is cut
after every one of its lines, and each cut is resumed at the default settings."""

import json
from pathlib import Path

import numpy as np
import pytest

from tilecast import annotate
from tilecast.opening import Spec
from tilecast.pluginmanager import plugin_manager
from tilecast.vision.locate import order_corners

VIDEO = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "game_a.mp4"


def _spec(out_dir: Path) -> Spec:
    truth = json.loads(VIDEO.with_suffix(".truth.json").read_text())
    corners = order_corners(np.float32(truth["frames"][0]["corners"]))  # a still camera
    return Spec("board1", out_dir, str(VIDEO), corners=tuple(map(tuple, corners.tolist())))


def _record(out_dir: Path) -> str:
    annotate(_spec(out_dir), out_dir / "out.gcg", plugin_manager())
    return (out_dir / "out.gcg").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def unbroken(tmp_path_factory) -> tuple[str, list[str]]:
    out = tmp_path_factory.mktemp("unbroken")
    text = _record(out)
    assert text.count("\n>") >= 5, text  # the game has moves to lose
    lines = (out / "board1.journal.jsonl").read_text(encoding="utf-8").splitlines(True)
    views = [json.loads(line).get("view") for line in lines]
    # The reader changes its mind about the camera view mid-game: a resumed run must too.
    assert len({v for v in views if v is not None}) > 1, views
    return text, lines


def test_every_journal_prefix_resumes_to_the_same_record(unbroken, tmp_path):
    text, lines = unbroken
    differ = []
    for n in range(len(lines) + 1):
        out = tmp_path / f"cut{n}"
        out.mkdir()
        (out / "board1.journal.jsonl").write_text("".join(lines[:n]), encoding="utf-8")
        if _record(out) != text:
            differ.append(n)
    assert differ == [], f"resumed after these many journal lines, the record differs: {differ}"
