"""The hall's side of the broker: every expected board's entries read from the event's stream
into its Mirror, and the operator's entries sent to the board's edge by request and reply.

A background thread runs the asyncio loop. On start each board is read from the stream's first
entry (a restarted hall rebuilds every board), silently up to the last entry the stream held,
then live. After a reconnection each board is read again from after the last stream message
it folded; the mirror skips what it already holds."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any

from tilecast.hall.broker import Broker, cancel_others, connect, ensure_stream, last_seq
from tilecast.hall.mirror import Mirror

log = logging.getLogger(__name__)


class EdgeUnavailable(RuntimeError):
    """The board's edge did not answer: it is down, or cut off from the broker."""


class Refused(ValueError):
    """The board's edge answered that the entry cannot follow from its record."""


class HallLink:
    """Feeds each board's Mirror from the stream and carries entries to the edges."""

    def __init__(self, broker: Broker, mirrors: dict[str, Mirror]) -> None:
        self.broker, self.mirrors = broker, mirrors
        self.status = "connecting to the broker"
        self._nc: Any = None
        self._subs: dict[str, Any] = {}
        self._stream_seq = dict.fromkeys(mirrors, 0)  # the last stream message folded, per board
        self._loop = asyncio.new_event_loop()
        self._stopping = asyncio.Event()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="tilecast-hall")

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._main(), self._loop)

    async def _main(self) -> None:
        async def disconnected() -> None:
            self.status = "broker unreachable; showing what was read"

        async def reconnected() -> None:
            self.status = "connected"
            await self._read_all()

        self._nc = await connect(self.broker, self._stopping, disconnected_cb=disconnected,
                                 reconnected_cb=reconnected,
                                 name=f"tilecast-hall-{self.broker.event}")
        if self._nc is not None:
            self.status = "connected"
            await self._read_all()

    async def _read_all(self) -> None:
        js = self._nc.jetstream()
        try:
            await ensure_stream(js, self.broker)
            for board in self.mirrors:
                await self._read(js, board)
        except Exception as exc:  # noqa: BLE001 - the next reconnection reads again
            log.warning("hall: reading the stream failed (%s)", exc)
            self.status = f"reading the stream failed: {exc}"

    async def _read(self, js: Any, board: str) -> None:
        """(Re)subscribe to a board's entries from after the last stream message it folded."""
        from nats.js.api import ConsumerConfig, DeliverPolicy

        mirror = self.mirrors[board]
        old = self._subs.pop(board, None)
        if old is not None:
            try:
                await old.unsubscribe()
            except Exception:  # noqa: BLE001, S110 - a subscription the broker already lost
                pass
        if not mirror.started:
            until = await last_seq(js, self.broker, board)
            if until <= mirror.applied:
                mirror.start()
        else:
            until = -1

        async def received(msg: Any) -> None:
            entry = json.loads(msg.data)
            if mirror.fold(entry):
                self._stream_seq[board] = msg.metadata.sequence.stream
            if not mirror.started and mirror.applied >= until:
                mirror.start()

        config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                opt_start_seq=self._stream_seq[board] + 1)
        self._subs[board] = await js.subscribe(self.broker.entries(board), cb=received,
                                               stream=self.broker.stream, config=config,
                                               ordered_consumer=True, idle_heartbeat=2.0)

    def submit(self, board: str, entry: dict[str, Any]) -> int:
        """Send an entry to the board's edge and return its sequence number once this hall
        has folded it. Refused: the edge's record refuses it; EdgeUnavailable: no answer."""
        future = asyncio.run_coroutine_threadsafe(self._request(board, entry), self._loop)
        answer = future.result(self.broker.request_s + 5)
        if "refused" in answer:
            raise Refused(answer["refused"])
        if "unavailable" in answer:
            raise EdgeUnavailable(answer["unavailable"])
        seq = int(answer["recorded"])
        if not self.mirrors[board].wait_for(seq, self.broker.request_s):
            raise EdgeUnavailable(f"board {board}: the edge recorded entry {seq}, but it has "
                                  "not reached the hall yet; it will show when it does")
        return seq

    async def _request(self, board: str, entry: dict[str, Any]) -> dict[str, Any]:
        from nats.errors import NoRespondersError
        from nats.errors import TimeoutError as NatsTimeout

        down = (f"board {board}: its edge did not answer; it is down or cut off from the "
                "broker, so nothing was recorded. Try again once it is back")
        if self._nc is None or not self._nc.is_connected:
            raise EdgeUnavailable(f"board {board}: the hall is cut off from the broker, so "
                                  "nothing was recorded. Try again once it is back")
        try:
            msg = await self._nc.request(self.broker.submissions(board),
                                         json.dumps(entry).encode(),
                                         timeout=self.broker.request_s)
        except NoRespondersError:
            raise EdgeUnavailable(down) from None
        except (NatsTimeout, TimeoutError):
            raise EdgeUnavailable(
                f"board {board}: its edge did not answer within {self.broker.request_s:g} s; "
                "the entry may or may not be recorded: check the record before sending it "
                "again") from None
        return json.loads(msg.data)

    def close(self) -> None:
        async def stop() -> None:
            self._stopping.set()
            if self._nc is not None:
                await self._nc.close()
            await cancel_others()

        if self._thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
            except Exception:  # noqa: BLE001 - closing anyway
                log.warning("hall: the broker connection did not close cleanly")
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
