"""The operator's camera preview: each frame the camera thread reads, with the grid it found (or
was given) drawn over it, as a motion-JPEG stream a plain <img> shows."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import cv2
import numpy as np

from tilecast.server.boards import Preview
from tilecast.vision.rectify import SIZE, board_to_image

BOUNDARY = "frame"
MAX_WIDTH = 960  # preview frames are scaled down to this width; clicks are scaled back


def draw_grid(frame: np.ndarray, corners: np.ndarray | None) -> np.ndarray:
    """A copy of the frame with the 15x15 grid through `corners` and the corners numbered."""
    out = frame.copy()
    if corners is None:
        cv2.putText(out, "no board found", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (0, 0, 255), 2, cv2.LINE_AA)
        return out
    to_image = board_to_image(corners)
    ends = []
    for i in range(SIZE + 1):
        ends += [[i, 0], [i, SIZE], [0, i], [SIZE, i]]
    points = cv2.perspectiveTransform(np.float32(ends).reshape(-1, 1, 2), to_image).reshape(-1, 4)
    width = max(1, frame.shape[1] // 640)
    for x0, y0, x1, y1 in points:
        cv2.line(out, (int(x0), int(y0)), (int(x1), int(y1)), (0, 255, 0), width, cv2.LINE_AA)
    for number, (x, y) in enumerate(np.asarray(corners), 1):
        cv2.circle(out, (int(x), int(y)), 4 * width, (0, 0, 255), -1, cv2.LINE_AA)
        cv2.putText(out, str(number), (int(x) + 6, int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6 * width, (0, 0, 255), width, cv2.LINE_AA)
    return out


def jpeg(frame: np.ndarray, corners: np.ndarray | None, quality: int = 70) -> bytes:
    image = draw_grid(frame, corners)
    if image.shape[1] > MAX_WIDTH:
        height = round(image.shape[0] * MAX_WIDTH / image.shape[1])
        image = cv2.resize(image, (MAX_WIDTH, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("cannot encode the preview frame")
    return data.tobytes()


def mjpeg(preview: Preview, running: Callable[[], bool], wait: float = 2.0) -> Iterator[bytes]:
    """One multipart part per frame read, while `running()`. Frames come at the camera
    thread's pace, so a slow client only ever gets the newest; without new frames the last one
    is sent again every `wait` seconds, which also notices a client that has gone."""
    seen = 0
    data = jpeg(np.zeros((360, 640, 3), np.uint8), None)  # until the camera's first frame
    while running():
        latest = preview.next(seen, wait)
        if latest is not None:
            seen, frame, corners = latest
            data = jpeg(frame, corners)
        yield (
            f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}\r\n\r\n"
        ).encode() + data + b"\r\n"
