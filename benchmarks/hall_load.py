"""Load test of the tournament hall: simulated edges publishing games through a real broker,
one hall, many viewers of its event streams.

    .venv/bin/python benchmarks/hall_load.py                # 64 edges, 200 viewers
    .venv/bin/python benchmarks/hall_load.py --gap 60 --json

A nats-server with JetStream (temporary store) and the hall (`tilecast serve --nats`, under
waitress) run as child processes on 127.0.0.1 only. The edges run here: each a real session
and journal (fsynced) with a real tilecast.hall.edge.Edge, recording a self-play game's entries
with `--gap` seconds between them (a tournament game is a move a minute or so; the default is
far faster, to load the hall). The viewers are threads, viewer i watching board i mod edges.
Reported: entries per second through the hall, the latency from an edge journaling a move to a
viewer reading it (p50, p95, max), the hall's memory and CPU time per board, and from that CPU
time the boards one 2-core hall could hold at a tournament's pace. Bounded: at most 256 edges
and 1000 viewers, and the run stops after --timeout seconds whatever happens.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sse_load import game_entries, percentile, rss_kib, sse_events  # noqa: E402 - the sibling benchmark

OPERATOR, TD = "load-test-operator", "load-test-td-token"
TOURNAMENT_GAP_S = 40.0  # a 50-minute game of ~75 entries (moves, readings, clocks)
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def wait_port(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listening on {port}")


class Viewer(threading.Thread):
    """One event stream of one board: (moves in the state, arrival time) of each move."""

    def __init__(self, port: int, board: str, deadline: float) -> None:
        super().__init__(daemon=True)
        self.port, self.board, self.deadline = port, board, deadline
        self.moves: list[tuple[int, float]] = []
        self.connected = threading.Event()
        self.error = ""

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", f"/api/boards/{self.board}/events")
            resp = conn.getresponse()
            if resp.status != 200:
                self.error = f"HTTP {resp.status}"
                return
            for fields in sse_events(resp):
                if time.monotonic() >= self.deadline:
                    return
                kind = fields.get("event")
                if kind == "snapshot":
                    self.connected.set()
                elif kind in ("move", "game-ended"):
                    data = json.loads(fields["data"])
                    self.moves.append((len(data.get("state", data)["moves"]), time.time()))
                    if kind == "game-ended":
                        return
            self.error = "stream closed"
        except OSError as exc:
            self.error = str(exc)
        finally:
            self.connected.set()


class SimulatedEdge(threading.Thread):
    """A board's edge fed a game's entries instead of a camera's: its session journals each
    and the Edge publishes it; `journaled` is when each move count was first reached."""

    def __init__(self, name: str, out_dir: Path, broker, entries: list[dict], gap: float,
                 deadline: float) -> None:
        from tilecast.hall.edge import Edge
        from tilecast.opening import Spec, open_board
        from tilecast.pluginmanager import plugin_manager
        from tilecast.session import SharedSession

        super().__init__(daemon=True)
        self.pm = plugin_manager(disabled=["console"])
        self.session = open_board(Spec(name, out_dir), self.pm, None, SharedSession).session
        self.edge = Edge(broker, self.session)
        self.entries, self.gap, self.deadline = entries, gap, deadline
        self.journaled: dict[int, float] = {}
        self.unpublished = -1  # entries the stream lacked when the edge closed

    def run(self) -> None:
        live = self.pm.get_plugin("broadcast")
        self.edge.start()
        for entry in self.entries:
            if time.monotonic() > self.deadline:
                break
            self.session.submit(entry)
            at = time.time()
            moves = len(live.state(self.session.info, self.session.game)["moves"])
            self.journaled.setdefault(moves, at)
            time.sleep(self.gap)
        self.session.close()
        self.unpublished = self.edge.close(drain_s=30)


def run(edges: int, viewers: int, gap: float, timeout: float) -> dict:
    from tilecast.hall.broker import Broker

    nats_server = shutil.which("nats-server") or shutil.which("nats-server", path="/usr/sbin")
    if nats_server is None:
        raise SystemExit("nats-server is not installed (apt-get install nats-server)")
    deadline = time.monotonic() + timeout
    games = [game_entries(seed) for seed in range(1, 9)]  # eight games, dealt round the boards
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        nats_port, hall_port = free_port(), free_port()
        url = f"nats://127.0.0.1:{nats_port}"
        event = root / "event.toml"
        event.write_text(f'name = "load"\n[nats]\nurl = "{url}"\n'
                         + "".join(f"[boards.t{i}]\n" for i in range(edges)))
        children = []
        try:
            children.append(subprocess.Popen(
                [nats_server, "-js", "-a", "127.0.0.1", "-p", str(nats_port), "-sd",
                 str(root / "store")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_port(nats_port, deadline)
            hall = subprocess.Popen(
                [sys.executable, "-m", "tilecast.cli", "serve", "--event", str(event),
                 "--out-dir", str(root / "hall"), "--port", str(hall_port),
                 "--max-streams", str(viewers + 8), "--disable-plugin", "console"],
                env={**os.environ, "TILECAST_OPERATOR_TOKEN": OPERATOR,
                     "TILECAST_TD_TOKEN": TD}, stdout=subprocess.DEVNULL)
            children.append(hall)
            wait_port(hall_port, deadline)
            time.sleep(1.0)
            idle_kib, idle_cpu = rss_kib(hall.pid), cpu_s(hall.pid)
            watching = [Viewer(hall_port, f"t{i % edges}", deadline) for i in range(viewers)]
            for v in watching:
                v.start()
            for v in watching:
                v.connected.wait(max(0.0, deadline - time.monotonic()))
            connected_kib = rss_kib(hall.pid)
            broker = Broker(url, "load")
            sims = [SimulatedEdge(f"t{i}", root / "edges", broker, games[i % len(games)], gap,
                                  deadline) for i in range(edges)]
            started = time.time()
            for sim in sims:  # spread over one gap, as tables start apart
                sim.start()
                time.sleep(gap / edges)
            for sim in sims:
                sim.join(max(0.0, deadline - time.monotonic()))
            for v in watching:
                v.join(max(0.0, deadline - time.monotonic()))
            seconds = time.time() - started
            end_kib, peak_kib = rss_kib(hall.pid), rss_kib(hall.pid, "VmHWM")
            hall_cpu = cpu_s(hall.pid) - idle_cpu
        finally:
            for child in reversed(children):
                child.terminate()
                child.wait(10)
        entries = sum(len(s.session.journal.entries) for s in sims)
    latencies, complete = [], 0
    for v in watching:
        sim = sims[int(v.board[1:])]
        seen = {count for count, _ in v.moves}
        complete += set(sim.journaled) - {0} <= seen
        latencies += [at - sim.journaled[count] for count, at in v.moves
                      if count in sim.journaled]
    ms = [1000 * x for x in latencies]
    per_entry_cpu = hall_cpu / max(1, entries)
    return {
        "edges": edges, "viewers": viewers, "gap_s": gap,
        "entries": entries,
        "unpublished_at_exit": sum(s.unpublished for s in sims),
        "entries_per_s": round(entries / seconds, 1),
        "viewers_with_every_move": complete,
        "viewer_errors": [v.error for v in watching if v.error],
        "latency_ms": {"p50": round(statistics.median(ms), 1) if ms else None,
                       "p95": round(percentile(ms, 0.95), 1) if ms else None,
                       "max": round(max(ms), 1) if ms else None},
        "hall_rss_mib": {"idle": round(idle_kib / 1024, 1),
                         "viewers_connected": round(connected_kib / 1024, 1),
                         "end": round(end_kib / 1024, 1), "peak": round(peak_kib / 1024, 1)},
        "hall_kib_per_board": round(end_kib / edges, 1),
        "hall_kib_per_board_growth": round((end_kib - connected_kib) / edges, 1),
        "hall_cpu_ms_per_entry": round(1000 * per_entry_cpu, 2),
        "boards_per_2_cores_at_tournament_pace": int(2 / (per_entry_cpu / TOURNAMENT_GAP_S)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", type=int, default=64)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--gap", type=float, default=1.0,
                        help="seconds between one edge's entries (a tournament: about 40)")
    parser.add_argument("--timeout", type=float, default=240.0, help="stop after this long")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if not (1 <= args.edges <= 256 and 1 <= args.viewers <= 1000 and args.gap > 0):
        parser.error("1-256 edges, 1-1000 viewers, a gap above 0")
    result = run(args.edges, args.viewers, args.gap, args.timeout)
    print(json.dumps(result, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
