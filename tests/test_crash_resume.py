"""Crash safety: SIGKILL the live recorder at random moments of a rendered game; after a restart
the final GCG is identical to an uninterrupted run's, at the default frame rate and stillness."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tilecast.vision.locate import order_corners

ROOT = Path(__file__).resolve().parents[1]
VIDEO = ROOT / "fixtures" / "render" / "game_a.mp4"
TRIALS = 14


def command(out_dir: Path) -> list[str]:
    truth = json.loads(VIDEO.with_suffix(".truth.json").read_text())
    corners = order_corners(np.float32(truth["frames"][0]["corners"]))  # a still camera
    return [
        sys.executable, "-m", "tilecast.cli", "run", "--source", str(VIDEO),
        "--corners", ",".join(f"{v:.1f}" for v in corners.ravel()),
        "--out-dir", str(out_dir),
    ]


def record(out_dir: Path) -> str:
    return (out_dir / "board1.gcg").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    start = time.monotonic()
    subprocess.run(command(out), check=True, capture_output=True, timeout=300)
    text = record(out)
    assert text.count("\n>") >= 5, text  # the game has moves to lose
    return text, time.monotonic() - start


def test_sigkill_at_random_moments_loses_nothing(reference, tmp_path):
    text, seconds = reference
    rng = random.Random(20261130)
    for trial in range(TRIALS):
        out = tmp_path / f"trial{trial}"
        proc = subprocess.Popen(command(out), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0.5, seconds))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        subprocess.run(command(out), check=True, capture_output=True, timeout=300)
        assert record(out) == text, f"trial {trial} differs"
