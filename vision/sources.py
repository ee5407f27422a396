"""Frame sources: a camera index, a video file, an RTSP/HTTP stream or a folder of images.

Each yields (frame index, seconds since the start, BGR frame); thin adapters over OpenCV so the
rest of the pipeline never knows where frames come from.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}
FOLDER_FPS = 10.0  # the rate a folder of images plays at

Frame = tuple[int, float, np.ndarray]


class SourceError(RuntimeError):
    """The source cannot be opened or read."""


class SourceDamaged(SourceError):
    """A file whose frames stopped decoding before its end: what came before was read."""


def frames(spec: str, start: int = 0, step: int = 1) -> Iterator[Frame]:
    """Frames from `spec` from frame `start` on, every `step`-th one.

    A folder's images play in name order at FOLDER_FPS.
    """
    path = Path(spec)
    if path.is_dir():
        yield from _folder(path, start, step, FOLDER_FPS)
        return
    if not (spec.isdigit() or "://" in spec or path.is_file()):
        raise SourceError(f"no such camera, file, folder or stream: {spec}")
    cap = cv2.VideoCapture(int(spec) if spec.isdigit() else spec)
    if not cap.isOpened():
        raise SourceError(f"cannot open video source {spec}")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    live = spec.isdigit() or "://" in spec
    expected = 0 if live else int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    try:
        index = 0
        while cap.grab():  # grab() moves on without decoding; retrieve() decodes
            if index >= start and (index - start) % step == 0:
                ok, frame = cap.retrieve()
                if not ok:
                    raise SourceDamaged(f"{spec}: cannot decode frame {index}")
                t = cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0 if live else index / fps
                yield index, t, frame
            index += 1
    finally:
        cap.release()
    # A container's frame count can be a frame or two out; a damaged file stops far sooner.
    if expected > 0 and index < expected - max(2, expected // 100):
        raise SourceDamaged(f"{spec}: decoding stopped at frame {index} of {expected} "
                            f"({index / fps:.1f} s of {expected / fps:.1f} s); the rest is "
                            "damaged or missing")


def _folder(path: Path, start: int, step: int, fps: float) -> Iterator[Frame]:
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise SourceError(f"no images in folder {path}")
    for index in range(start, len(files), step):
        frame = cv2.imread(str(files[index]), cv2.IMREAD_COLOR)
        if frame is None:
            raise SourceError(f"cannot read image {files[index]}")
        yield index, index / fps, frame


def native_fps(spec: str) -> float:
    """Frames per second a file was recorded at (a folder plays at FOLDER_FPS)."""
    if Path(spec).is_dir():
        return FOLDER_FPS
    cap = cv2.VideoCapture(spec)
    fps = cap.get(cv2.CAP_PROP_FPS)
    cap.release()
    return fps if fps and fps > 0 else 30.0


def paced(source: Iterator[Frame], stop: threading.Event | None = None) -> Iterator[Frame]:
    """Yield frames no faster than their timestamps: a file replayed as if it were live. Ends
    as soon as `stop` is set, also while waiting for a frame's time."""
    stop = stop or threading.Event()
    start: float | None = None
    for index, t, frame in source:
        if stop.is_set():
            return
        if start is None:
            start = time.monotonic() - t
        delay = start + t - time.monotonic()
        if delay > 0 and stop.wait(delay):
            return
        yield index, t, frame


def thinned(source: Iterator[Frame], fps: float) -> Iterator[Frame]:
    """Frames at least 1/fps seconds apart by their timestamps: a camera faster than wanted."""
    due = float("-inf")
    for index, t, frame in source:
        if t >= due:
            due = t + 1.0 / fps
            yield index, t, frame


def frame_count(spec: str) -> int:
    """Frames in a file or folder (0 when unknown, as for a live camera)."""
    path = Path(spec)
    if path.is_dir():
        return sum(p.suffix.lower() in IMAGE_SUFFIXES for p in path.iterdir())
    if path.is_file():
        cap = cv2.VideoCapture(spec)
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        cap.release()
        return max(count, 0)
    return 0
