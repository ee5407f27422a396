"""What edges and the hall agree on: the event's stream, its subjects, and how to reach the
broker (credentials and TLS passed through to nats-py), so both sides name things one way."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import ssl
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

EVENT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")  # one NATS subject token
CONNECT_RETRY_S = 1.0


def event_name(text: str) -> str:
    """An event's name (a token of every subject of the event), or ValueError."""
    if not EVENT_NAME.match(text):
        raise ValueError(f"event name {text!r}: use 1-64 letters, digits, '-' or '_'")
    return text


@dataclass(frozen=True)
class Broker:
    """A NATS server with JetStream and the event recorded through it. `stream` defaults to
    TILECAST-<event>; the credential and TLS fields are nats-py's connect options."""

    url: str
    event: str
    stream: str = ""
    user: str = field(default="", repr=False)
    password: str = field(default="", repr=False)
    token: str = field(default="", repr=False)
    creds: str = ""  # a .creds file (JWT and NKey seed)
    nkeys_seed: str = ""  # an NKey seed file
    tls_ca: str = ""
    tls_cert: str = ""
    tls_key: str = ""
    tls_hostname: str = ""
    request_s: float = 5.0  # how long the hall waits for an edge's answer

    def __post_init__(self) -> None:
        event_name(self.event)
        if not self.stream:
            object.__setattr__(self, "stream", f"TILECAST-{self.event}")

    def entries(self, board: str) -> str:
        """The subject a board's journal entries are published on."""
        return f"tilecast.{self.event}.entries.{board}"

    def submissions(self, board: str) -> str:
        """The subject a board's edge answers the hall's entries on (request and reply)."""
        return f"tilecast.{self.event}.submit.{board}"

    def options(self) -> dict[str, Any]:
        """nats.connect's keyword arguments: reconnect for ever, plus the credentials and TLS."""
        opts: dict[str, Any] = {"servers": [self.url], "max_reconnect_attempts": -1,
                                "reconnect_time_wait": 0.5, "connect_timeout": 2,
                                "allow_reconnect": True}
        for key in ("user", "password", "token", "nkeys_seed", "tls_hostname"):
            if getattr(self, key):
                opts[key] = getattr(self, key)
        if self.creds:
            opts["user_credentials"] = self.creds
        if self.tls_ca or self.tls_cert:
            context = ssl.create_default_context(cafile=self.tls_ca or None)
            if self.tls_cert:
                context.load_cert_chain(self.tls_cert, self.tls_key or None)
            opts["tls"] = context
        return opts


def msg_id(board: str, seq: int) -> str:
    """JetStream's de-duplication id: a board's entry published twice is stored once."""
    return f"{board}:{seq}"


def encode(entry: dict[str, Any]) -> bytes:
    return json.dumps(entry, separators=(",", ":"), allow_nan=False).encode()


async def connect(broker: Broker, stopping: asyncio.Event, **callbacks: Any) -> Any:
    """A connection to the broker, tried again every second until one is made or `stopping`
    is set (None then): an edge records and a hall serves while the broker is away."""
    import nats

    async def said(exc: Exception) -> None:  # (nats-py's default logs a whole traceback)
        log.info("broker %s: %s", broker.url, exc)

    callbacks.setdefault("error_cb", said)
    while not stopping.is_set():
        try:
            return await nats.connect(**broker.options(), **callbacks)
        except Exception as exc:  # noqa: BLE001 - nats-py raises several kinds; all mean retry
            log.info("broker %s unreachable (%s); trying again", broker.url, exc)
            try:
                await asyncio.wait_for(stopping.wait(), CONNECT_RETRY_S)
            except TimeoutError:
                pass
    return None


async def ensure_stream(js: Any, broker: Broker) -> None:
    """The event's stream, made on first use by whichever edge or hall comes first: file
    storage, so a restarted broker keeps it, one subject per board."""
    from nats.js.api import StorageType, StreamConfig
    from nats.js.errors import NotFoundError

    try:
        await js.stream_info(broker.stream)
    except NotFoundError:
        await js.add_stream(StreamConfig(name=broker.stream, subjects=[broker.entries("*")],
                                         storage=StorageType.FILE))


async def last_seq(js: Any, broker: Broker, board: str) -> int:
    """The sequence number of the board's last entry the stream holds (-1: none)."""
    from nats.js.errors import NotFoundError

    try:
        msg = await js.get_last_msg(broker.stream, broker.entries(board))
    except NotFoundError:
        return -1
    return int(json.loads(msg.data)["seq"])


async def cancel_others() -> None:
    """Cancel the loop's other tasks (nats-py's heartbeat checks outlive a closed connection)
    so the loop stops clean."""
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
