"""Frame sources: thinning a fast camera, pacing a file as if live, and stopping either."""

from __future__ import annotations

import threading
import time

from tilecast.vision.sources import paced, thinned


def fake(times):
    return iter((i, t, None) for i, t in enumerate(times))


def test_thinned_keeps_frames_at_least_a_period_apart():
    times = [0.0, 0.05, 0.1, 0.25, 0.3, 0.39, 0.5, 0.65]
    assert [i for i, _, _ in thinned(fake(times), fps=5)] == [0, 3, 6]


def test_paced_plays_frames_at_their_own_times_until_stopped():
    start = time.monotonic()
    assert [i for i, _, _ in paced(fake([0.0, 0.1, 0.2]))] == [0, 1, 2]
    assert time.monotonic() - start >= 0.19
    stop = threading.Event()
    threading.Timer(0.1, stop.set).start()
    start = time.monotonic()
    assert [i for i, _, _ in paced(fake([0.0, 5.0, 10.0]), stop)] == [0]
    assert time.monotonic() - start < 2.0
