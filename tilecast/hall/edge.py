"""A board's edge: the machine beside the table that records it. It publishes each journal
entry, once durable, to the event's stream, and submits the hall's operator and TD entries
through its own session, so the board keeps a single writer.

The journal is the queue: a background thread with its own asyncio loop publishes what the
stream lacks (asked of the stream on every connection), so recording never waits on the
network, and an edge that was cut off, killed or restarted catches up from its journal.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any

from tilecast import entries
from tilecast.hall.broker import (
    Broker,
    cancel_others,
    connect,
    encode,
    ensure_stream,
    last_seq,
    msg_id,
)
from tilecast.journal import JournalWriteError
from tilecast.recorder import InputError
from tilecast.session import SessionClosed, SharedSession

log = logging.getLogger(__name__)

RETRY_S = 1.0
PUBLISH_S = 2.0  # an acknowledgement not back by then: the broker is treated as away


class Edge:
    """Publishes one board's journal to the event's stream and answers the hall's entries."""

    def __init__(self, broker: Broker, session: SharedSession) -> None:
        self.broker, self.session = broker, session
        self.board = session.info.board
        self.published = -1  # the last sequence number the stream is known to hold
        self._known = False  # whether `published` was read from the stream on this connection
        self._loop = asyncio.new_event_loop()
        self._more = asyncio.Event()
        self._stopping = asyncio.Event()
        self._caught_up = threading.Condition()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name=f"tilecast-edge-{self.board}")
        session.journal.appended.append(self._appended)

    def start(self) -> None:
        self._thread.start()
        self._task = asyncio.run_coroutine_threadsafe(self._main(), self._loop)

    def _appended(self, _entry: dict[str, Any]) -> None:
        self._loop.call_soon_threadsafe(self._more.set)

    @property
    def pending(self) -> int:
        """Journal entries the stream is not known to hold."""
        return len(self.session.journal.entries) - 1 - self.published

    def close(self, drain_s: float = 10.0) -> int:
        """Wait up to `drain_s` for the stream to hold the whole journal, then stop; returns
        how many entries it still lacks (the next run publishes them)."""
        with self._caught_up:
            self._caught_up.wait_for(lambda: self.pending <= 0, drain_s)
        try:
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(30)
        except Exception as exc:  # noqa: BLE001 - a daemon thread: the run ends all the same
            log.warning("edge %s: the broker connection did not close cleanly (%s)",
                        self.board, exc)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        return self.pending

    async def _stop(self) -> None:
        """Stop connecting and publishing, whatever the broker is doing."""
        self._stopping.set()
        self._task.cancel()
        await cancel_others()

    async def _main(self) -> None:
        async def reconnected() -> None:
            self._known = False  # the broker may have lost or kept anything: ask it again
            self._more.set()

        nc = await connect(self.broker, self._stopping, reconnected_cb=reconnected,
                           name=f"tilecast-edge-{self.broker.event}-{self.board}")
        if nc is None:
            return
        try:
            await nc.subscribe(self.broker.submissions(self.board), cb=self._answer)
            js = nc.jetstream(timeout=PUBLISH_S)
            self._more.set()
            while not self._stopping.is_set():
                await self._more.wait()
                self._more.clear()
                try:
                    await self._catch_up(js)
                except Exception as exc:  # noqa: BLE001 - any broker failure: wait, ask again
                    log.info("edge %s: publishing paused (%s)", self.board, exc)
                    self._known = False
                    await asyncio.sleep(RETRY_S)
                    self._more.set()
        finally:
            await asyncio.wait_for(nc.close(), 5)

    async def _catch_up(self, js: Any) -> None:
        """Publish, in order, every journal entry after the last the stream holds."""
        if not self._known:
            await ensure_stream(js, self.broker)
            self.published = await last_seq(js, self.broker, self.board)
            self._known = True
        journal = self.session.journal.entries
        subject = self.broker.entries(self.board)
        while self.published + 1 < len(journal) and not self._stopping.is_set():
            entry = journal[self.published + 1]
            await js.publish(subject, encode(entry), timeout=PUBLISH_S,
                             headers={"Nats-Msg-Id": msg_id(self.board, entry["seq"])})
            with self._caught_up:
                self.published = entry["seq"]
                self._caught_up.notify_all()

    async def _answer(self, msg: Any) -> None:
        """An entry from the hall: checked, submitted through the session, and answered
        {"recorded": seq}, {"refused": why}, or {"unavailable": why} once the run is ending."""
        try:
            body = json.loads(msg.data)
            if not isinstance(body, dict):
                raise InputError("an entry is a JSON object")
            fields = {k: v for k, v in body.items() if k != "source"}
            entry = {**entries.parse_entry(fields, entries.OPERATOR).as_json(),
                     "source": "operator"}
            seq = await asyncio.get_running_loop().run_in_executor(
                None, self.session.record, entry)
            answer: dict[str, Any] = {"recorded": seq}
        except (ValueError, LookupError) as exc:  # InputError is a ValueError
            answer = {"refused": str(exc)}
        except JournalWriteError as exc:
            answer = {"refused": f"the edge cannot record: {exc}"}
        except SessionClosed:
            answer = {"unavailable": f"board {self.board}: its edge is shutting down, so "
                                     "nothing was recorded. Try again once it is back"}
        await msg.respond(json.dumps(answer).encode())
