"""Long-lived responses: the cap on how many run at once, and the board's event stream.

Every streaming response (server-sent events, also those a plugin serves, and camera previews)
holds one of the server's threads for as long as the client stays, so the app counts them and
answers 503 past `max_streams` instead of starving ordinary requests.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from flask import Response

from tilecast.services import LiveState

STREAMING = {"text/event-stream", "multipart/x-mixed-replace"}
RETRY_MS = 2000  # how soon a browser reconnects after a dropped stream


class StreamLimit:
    """A count of open streams with a ceiling."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def acquire(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.open -= 1


def held(response: Response, limit: StreamLimit) -> bool:
    """Count a streaming response against the limit until it closes; False when the limit is
    reached (the response is then closed unstarted)."""
    if not limit.acquire():
        response.close()
        return False
    released = threading.Event()

    def release() -> None:
        if not released.is_set():
            released.set()
            limit.release()

    response.call_on_close(release)
    return True


def board_events(
    live: LiveState, board: str, after: int | None, heartbeat: float
) -> Iterator[str]:
    """The live state's stream for one viewer (snapshot or missed events, then events and
    heartbeats), after telling the browser how soon to reconnect."""
    yield f"retry: {RETRY_MS}\n\n"
    yield from live.stream(board, after, keepalive=heartbeat)


def sse_response(chunks: Iterator[str]) -> Response:
    return Response(
        chunks,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
