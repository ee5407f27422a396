"""Long-lived responses: the cap on how many run at once, and the board's event stream.

Every streaming response (server-sent events, also those a plugin serves, and camera previews)
holds one of the server's threads for as long as the client stays, so the app counts them and
answers 503 past `max_streams` instead of starving ordinary requests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from flask import Response, request

from tilecast.services import LiveState

STREAMING = {"text/event-stream", "multipart/x-mixed-replace"}
RETRY_MS = 2000  # how soon a browser reconnects after a dropped stream
POLL_S = 0.5  # how often a quiet stream looks whether its client is still there


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


def until_gone(
    chunks: Iterator[str], gone: Callable[[], bool], heartbeat: float
) -> Iterator[str]:
    """`chunks` (made with a keepalive of POLL_S) until the client has gone, passing on one
    keepalive per `heartbeat` seconds: a closed stream gives its slot back within POLL_S,
    not when the next write fails."""
    # how soon to reconnect, and the server's time, which the pages' running clocks go by
    yield f"retry: {RETRY_MS}\n\nevent: server-time\ndata: {time.time():.3f}\n\n"
    quiet = 0.0
    try:
        for chunk in chunks:
            if gone():
                return
            if chunk.startswith(":"):
                quiet += POLL_S
                if quiet < heartbeat:
                    continue
            quiet = 0.0
            yield chunk
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def board_events(
    live: LiveState, board: str, after: int | None, heartbeat: float
) -> Iterator[str]:
    """The live state's stream for one viewer (snapshot or missed events, then events and
    heartbeats), after telling the browser how soon to reconnect."""
    return until_gone(live.stream(board, after, keepalive=POLL_S), _gone(), heartbeat)


def all_events(live: LiveState, boards: list[str], heartbeat: float) -> Iterator[str]:
    """Every board's events on one stream, for the index and the wall of boards."""
    return until_gone(live.stream_all(boards, keepalive=POLL_S), _gone(), heartbeat)


def _gone() -> Callable[[], bool]:
    """Whether this request's client has hung up: waitress tells when it reads ahead
    (channel_request_lookahead); other servers say nothing, and a failed write ends it there."""
    return request.environ.get("waitress.client_disconnected") or (lambda: False)


def sse_response(chunks: Iterator[str]) -> Response:
    return Response(
        chunks,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
