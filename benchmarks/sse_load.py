"""Load test of the live event streams: N viewers of one board, every move of a game.

    .venv/bin/python benchmarks/sse_load.py                 # 1000 opened and closed, then
                                                            # 200 viewers, one self-play game
    .venv/bin/python benchmarks/sse_load.py --clients 50 --json

The server runs in a child process under waitress, as `tilecast serve` runs it, on 127.0.0.1
only. The viewers are threads here, each holding one event stream; the game's moves are posted
one after another through the operator API. Reported: whether every viewer received every move,
the latency from posting a move to each viewer reading it, and the server's resident memory
idle, with every viewer connected, and at its peak. Everything is bounded: at most 1000
viewers, and the whole run stops after --timeout seconds whatever happens.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

OPERATOR = "load-test-operator"
TD = "load-test-td-token"
BOARD = "load"
MAX_CLIENTS = 1000


def serve(port_out, clients: int, out_dir: str) -> None:
    """The child process: one operator-input board under waitress, sized for `clients`. The
    console plugin's lines go nowhere."""
    import waitress

    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process

    from tilecast.commands.serve import LOOKAHEAD, OUTBUF_LIMIT, SPARE_THREADS
    from tilecast.server.app import create_app
    from tilecast.server.config import BoardSpec, ServerConfig

    streams = clients + 8
    config = ServerConfig((BoardSpec(BOARD),), Path(out_dir), OPERATOR, TD, max_streams=streams)
    app = create_app(config)
    server = waitress.create_server(
        app, host="127.0.0.1", port=0, threads=streams + SPARE_THREADS,
        connection_limit=streams + 4 * SPARE_THREADS, outbuf_high_watermark=OUTBUF_LIMIT,
        asyncore_use_poll=True, channel_request_lookahead=LOOKAHEAD,
    )
    port_out.put(server.effective_port)
    server.run()


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def sse_events(resp: http.client.HTTPResponse):
    """Each event of a Server-Sent-Events response as its fields (event, id, data, ...), until
    the stream closes; a comment line (a heartbeat) is an event with no fields."""
    fields: dict[str, str] = {}
    while line := resp.fp.readline():
        line = line.decode().rstrip("\n")
        if line:
            key, _, value = line.partition(": ")
            fields[key] = value
        else:
            yield fields
            fields = {}


class Viewer(threading.Thread):
    """One event stream: records (event id, type, arrival time) of everything it reads; the
    first viewer also keeps each event's move count, to know which post caused it."""

    def __init__(self, port: int, keep_data: bool, deadline: float) -> None:
        super().__init__(daemon=True)
        self.port, self.keep_data, self.deadline = port, keep_data, deadline
        self.events: list[tuple[int, str, float]] = []
        self.moves_at: dict[int, int] = {}  # event id -> moves in its state
        self.connected = threading.Event()
        self.done = threading.Event()
        self.error = ""
        self.refused = 0  # 503s before it got a stream

    def run(self) -> None:
        try:
            while True:  # refused while the burst's slots come back: try again, as pages do
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request("GET", f"/api/boards/{BOARD}/events")
                resp = conn.getresponse()
                if resp.status != 503 or time.monotonic() > self.deadline:
                    break
                conn.close()
                self.refused += 1
                time.sleep(0.5)
            if resp.status != 200:
                self.error = f"HTTP {resp.status}"
                return
            for fields in sse_events(resp):
                if self.done.is_set() or time.monotonic() >= self.deadline:
                    return
                if "event" in fields and "id" in fields:  # (server-time carries no id)
                    seq, kind = int(fields["id"]), fields["event"]
                    self.events.append((seq, kind, time.perf_counter()))
                    if kind == "snapshot":
                        self.connected.set()
                    if self.keep_data:
                        data = json.loads(fields["data"])
                        self.moves_at[seq] = len(data.get("state", data)["moves"])
                    if kind == "game-ended":
                        return
            self.error = "stream closed"
        except OSError as exc:
            self.error = str(exc)
        finally:
            self.connected.set()


def burst(port: int, total: int, workers: int = 16) -> dict[str, int]:
    """Open `total` event streams from `workers` threads, each read up to its status line and
    closed at once (a page reloaded over and over, a crowd of OBS sources restarting)."""
    import socket

    counts: dict[str, int] = {}
    lock = threading.Lock()
    left = iter(range(total))

    def work() -> None:
        while True:
            with lock:
                if next(left, None) is None:
                    return
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                    sock.sendall(f"GET /api/boards/{BOARD}/events HTTP/1.1\r\nHost: x\r\n\r\n"
                                 .encode())
                    status = sock.recv(64).split(b" ")[1].decode()
            except (OSError, IndexError) as exc:
                status = type(exc).__name__
            with lock:
                counts[status] = counts.get(status, 0) + 1

    threads = [threading.Thread(target=work, daemon=True) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counts


def game_entries(seed: int) -> list[dict]:
    from tilecast.config import load_profile, load_tileset
    from tilecast.engine.board import format_coord
    from tilecast.engine.selfplay import self_play
    from tilecast.lexicons import load_lexicon

    game = self_play(load_lexicon(), load_tileset("english"), load_profile("wespa"), seed).game
    entries = []
    for turn in game.turns:
        if turn.kind == "play":
            entries.append({"type": "play", "coord": format_coord(turn.coord), "word": turn.word})
        elif turn.kind == "pass":
            entries.append({"type": "pass"})
        elif turn.kind == "exchange":
            entries.append({"type": "exchange", "tiles": turn.tiles})
    if any(t.kind == "out" for t in game.turns):
        return entries + [{"type": "end"}]
    racks = {t.player: t.tiles for t in game.turns if t.kind == "rack"}  # six scoreless turns
    return entries + [{"type": "end", "racks": [racks.get(0, ""), racks.get(1, "")]}]


def post(port: int, entry: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", f"/api/boards/{BOARD}/entries", json.dumps(entry),
                 {"Content-Type": "application/json", "Authorization": f"Bearer {OPERATOR}"})
    resp = conn.getresponse()
    body = json.loads(resp.read())
    conn.close()
    if resp.status != 201:
        raise RuntimeError(f"{entry}: HTTP {resp.status} {body}")
    return body


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(clients: int, seed: int, gap: float, timeout: float, bursts: int = 0) -> dict:
    deadline = time.monotonic() + timeout
    entries = game_entries(seed)
    ctx = mp.get_context("spawn")
    port_out = ctx.Queue()
    with tempfile.TemporaryDirectory() as out_dir:
        child = ctx.Process(target=serve, args=(port_out, clients, out_dir), daemon=True)
        child.start()
        try:
            port = port_out.get(timeout=60)
            time.sleep(0.5)
            idle = rss_kib(child.pid)
            burst_started = time.perf_counter()
            burst_counts = burst(port, bursts) if bursts else {}
            burst_s = time.perf_counter() - burst_started
            started = time.perf_counter()
            viewers = [Viewer(port, i == 0, deadline) for i in range(clients)]
            for v in viewers:
                v.start()
            for v in viewers:
                v.connected.wait(max(0.0, deadline - time.monotonic()))
            connect_s = time.perf_counter() - started
            failed = [v.error for v in viewers if v.error]
            connected = rss_kib(child.pid)
            sent: dict[int, float] = {}  # moves in the record -> when the post causing it began
            moves = 0
            post_s = []
            for entry in entries:
                if time.monotonic() > deadline:
                    break
                t0 = time.perf_counter()
                now = len(post(port, entry)["state"]["moves"])
                post_s.append(time.perf_counter() - t0)
                for count in range(moves + 1, now + 1):
                    sent[count] = t0
                moves = now
                time.sleep(gap)
            for v in viewers:
                v.join(max(0.0, deadline - time.monotonic()))
            peak = rss_kib(child.pid, "VmHWM")
        finally:
            child.terminate()
            child.join(10)
    moves_at = viewers[0].moves_at
    latencies, complete = [], 0
    for v in viewers:
        got = {moves_at.get(seq) for seq, kind, _ in v.events if kind in ("move", "game-ended")}
        if set(sent) <= got:
            complete += 1
        for seq, kind, at in v.events:
            if kind == "move" and moves_at.get(seq) in sent:
                latencies.append(at - sent[moves_at[seq]])
    ms = [1000 * x for x in latencies]
    return {
        "clients": clients,
        "burst": {"streams": bursts, "statuses": burst_counts, "seconds": round(burst_s, 2)},
        "moves": len(sent),
        "posts": len(post_s),
        "clients_with_every_move": complete,
        "client_errors": failed,
        "clients_refused_first": sum(v.refused > 0 for v in viewers),
        "connect_all_s": round(connect_s, 2),
        "latency_ms": {
            "p50": round(statistics.median(ms), 1) if ms else None,
            "p95": round(percentile(ms, 0.95), 1) if ms else None,
            "max": round(max(ms), 1) if ms else None,
        },
        "post_ms_median": round(1000 * statistics.median(post_s), 1) if post_s else None,
        "server_rss_mib": {
            "idle": round(idle / 1024, 1),
            "connected": round(connected / 1024, 1),
            "peak": round(peak / 1024, 1),
            "per_client_kib": round((connected - idle) / clients, 1),
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="self-play game to post")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between moves")
    parser.add_argument("--timeout", type=float, default=180.0, help="stop after this long")
    parser.add_argument("--burst", type=int, default=1000,
                        help="streams opened and closed at once before the viewers come")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be 1-{MAX_CLIENTS}")
    result = run(args.clients, args.seed, args.gap, args.timeout, args.burst)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        lat, mem, b = result["latency_ms"], result["server_rss_mib"], result["burst"]
        if b["streams"]:
            print(f"burst: {b['streams']} streams opened and closed in {b['seconds']} s: "
                  f"{b['statuses']}")
        print(f"{result['clients']} viewers, {result['moves']} moves: "
              f"{result['clients_with_every_move']} viewers got every move "
              f"({len(result['client_errors'])} errors, {result['clients_refused_first']} "
              f"refused at first and let in on retrying); all connected in "
              f"{result['connect_all_s']} s")
        print(f"post -> viewer latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
              f"max {lat['max']} ms (post itself: median {result['post_ms_median']} ms)")
        print(f"server RSS: idle {mem['idle']} MiB, {result['clients']} connected "
              f"{mem['connected']} MiB ({mem['per_client_kib']} KiB per viewer), "
              f"peak {mem['peak']} MiB")
    ok = result["clients_with_every_move"] == result["clients"] and not result["client_errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
