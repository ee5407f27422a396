"""The tournament hall with a real broker (nats-server with JetStream, started here on a loopback
port with a temporary store): edges record rendered games and publish their journals, one hall
folds them, and the hall's GCG files equal those of single-process runs through each fault."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import AS_OPERATOR, Clock, make_app
from tilecast.hall.broker import Broker
from tilecast.server.app import create_app
from tilecast.server.config import BoardSpec, ConfigError, ServerConfig, broker, load_event
from tilecast.vision.locate import order_corners

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"a": ROOT / "fixtures" / "render" / "game_a.mp4",
         "b": ROOT / "fixtures" / "render" / "game_b.mp4"}
NATS_SERVER = shutil.which("nats-server") or shutil.which("nats-server", path="/usr/sbin")
TOKENS = {"TILECAST_OPERATOR_TOKEN": "operator-token", "TILECAST_TD_TOKEN": "td-token-123"}
OPERATOR = {"Authorization": "Bearer operator-token"}
TD = {"Authorization": "Bearer td-token-123"}
LIMIT_S = 240  # how long a wait may take before the test fails for it (never a timing check)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(check: Callable[[], bool], what: str) -> None:
    """Wait for `check` to hold; fail, saying what never happened, after LIMIT_S."""
    deadline = time.monotonic() + LIMIT_S
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {LIMIT_S} s")
        time.sleep(0.1)


class NatsServer:
    """A nats-server with JetStream on a free loopback port, its store in a temporary folder
    kept across a kill and restart."""

    def __init__(self, store: Path) -> None:
        self.port, self.store = free_port(), store
        self.url = f"nats://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [NATS_SERVER, "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(self.store)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until(self._listening, "nats-server listening")

    def _listening(self) -> bool:
        assert self.proc is not None and self.proc.poll() is None, "nats-server exited"
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def stored(self, stream: str) -> int:
        """How many messages the stream holds."""
        import nats

        async def count() -> int:
            nc = await nats.connect(self.url)
            try:
                return (await nc.jetstream().stream_info(stream)).state.messages
            finally:
                await nc.close()

        return asyncio.run(count())


@pytest.fixture
def nats_server(tmp_path: Path) -> Iterator[NatsServer]:
    if NATS_SERVER is None:
        pytest.skip("nats-server is not installed (apt-get install nats-server)")
    server = NatsServer(tmp_path / "store")
    server.start()
    yield server
    if server.proc is not None and server.proc.poll() is None:
        server.kill()


def corners(video: Path) -> str:
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    points = order_corners(np.float32(truth["frames"][0]["corners"]))  # a still camera
    return ",".join(f"{v:.1f}" for v in points.ravel())


def edge_command(board: str, out_dir: Path, url: str | None, realtime: bool = False
                 ) -> list[str]:
    video = GAMES[board]
    cmd = [sys.executable, "-m", "tilecast.cli", "run", "--source", str(video), "--board", board,
           "--corners", corners(video), "--out-dir", str(out_dir)]
    if url is not None:
        cmd += ["--nats", url, "--event", "open"]
    return cmd + (["--realtime"] if realtime else [])


def edge(board: str, out_dir: Path, url: str, realtime: bool = True) -> subprocess.Popen:
    return subprocess.Popen(edge_command(board, out_dir, url, realtime),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def finished(proc: subprocess.Popen) -> None:
    _, err = proc.communicate(timeout=LIMIT_S)
    assert proc.returncode == 0, err.decode()


def journal(out_dir: Path, board: str) -> list[dict]:
    path = out_dir / f"{board}.journal.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """Each game's GCG recorded in single-process mode."""
    out = tmp_path_factory.mktemp("reference")
    texts = {}
    for board in GAMES:
        subprocess.run(edge_command(board, out, None), check=True, capture_output=True,
                       timeout=LIMIT_S)
        texts[board] = (out / f"{board}.gcg").read_text()
        assert texts[board].count("\n>") >= 5, texts[board]  # the game has moves to lose
    return texts


def hall_config(url: str, out_dir: Path, boards=("a", "b")) -> ServerConfig:
    return ServerConfig(boards=tuple(BoardSpec(name) for name in boards), out_dir=out_dir,
                        operator_token=TOKENS["TILECAST_OPERATOR_TOKEN"],
                        td_token=TOKENS["TILECAST_TD_TOKEN"], broker=Broker(url, "open"))


@pytest.fixture
def hall(nats_server: NatsServer, tmp_path: Path):
    app = create_app(hall_config(nats_server.url, tmp_path / "hall"))
    yield app
    app.extensions["tilecast.server"].close()


def mirror(app, board: str):
    return app.extensions["tilecast.server"].boards[board].session


def caught_up(app, board: str, edge_dir: Path) -> None:
    """Wait until the hall has folded the edge's whole journal."""
    last = len(journal(edge_dir, board)) - 1
    until(lambda: mirror(app, board).applied == last and mirror(app, board).started,
          f"the hall folding board {board}'s {last + 1} entries")


def moves(app, board: str) -> int:
    return len(mirror(app, board).game.turns)


def check_nothing_lost_or_doubled(nats_server, app, hall_dir, edges: dict[str, Path],
                                  reference: dict[str, str]) -> None:
    for board, edge_dir in edges.items():
        caught_up(app, board, edge_dir)
        assert (hall_dir / f"{board}.gcg").read_text() == reference[board], board
    assert nats_server.stored("TILECAST-open") == sum(
        len(journal(d, b)) for b, d in edges.items())


def test_two_edges_one_hall_record_what_single_process_mode_records(
        nats_server, hall, reference, tmp_path):
    edges = {board: tmp_path / f"edge-{board}" for board in GAMES}
    procs = [edge(board, out, nats_server.url, realtime=False) for board, out in edges.items()]
    for proc in procs:
        finished(proc)
    check_nothing_lost_or_doubled(nats_server, hall, tmp_path / "hall", edges, reference)
    client = hall.test_client()
    states = client.get("/api/boards").get_json()["boards"]
    assert [s["moves"] for s in states] == [moves(hall, "a"), moves(hall, "b")]
    assert client.get("/api/boards/a/gcg").status_code == 401  # tokens as in one process
    download = client.get("/api/boards/a/gcg", headers=TD)
    assert download.get_data(as_text=True) == reference["a"]


def test_hall_killed_mid_game_rebuilds_from_the_stream(nats_server, reference, tmp_path):
    event = tmp_path / "event.toml"
    event.write_text(f'name = "open"\n[nats]\nurl = "{nats_server.url}"\n[boards.b]\n')

    def serve(out: Path) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "tilecast.cli", "serve", "--event", str(event),
             "--out-dir", str(out), "--port", str(free_port())],
            env={**os.environ, **TOKENS}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def gcg(out: Path) -> str:
        path = out / "b.gcg"
        return path.read_text() if path.exists() else ""

    first = serve(tmp_path / "hall1")
    edge_dir = tmp_path / "edge"
    proc = edge("b", edge_dir, nats_server.url)
    until(lambda: "\n>" in gcg(tmp_path / "hall1"), "the first hall showing a move")
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert gcg(tmp_path / "hall1") != reference["b"], "the game ended before the hall was killed"
    second = serve(tmp_path / "hall2")  # a new machine: nothing but the stream to rebuild from
    try:
        finished(proc)
        until(lambda: gcg(tmp_path / "hall2") == reference["b"], "the second hall's full GCG")
    finally:
        second.kill()
        second.wait()
    assert nats_server.stored("TILECAST-open") == len(journal(edge_dir, "b"))


def test_broker_killed_mid_game_edges_catch_up(nats_server, hall, reference, tmp_path):
    edge_dir = tmp_path / "edge"
    proc = edge("b", edge_dir, nats_server.url)
    until(lambda: moves(hall, "b") >= 1, "the hall showing a move")
    nats_server.kill()
    held = len(journal(edge_dir, "b"))
    until(lambda: len(journal(edge_dir, "b")) >= held + 3, "the edge recording while cut off")
    nats_server.start()
    finished(proc)
    check_nothing_lost_or_doubled(nats_server, hall, tmp_path / "hall", {"b": edge_dir},
                                  reference)


def test_edge_sigkilled_and_restarted(nats_server, hall, reference, tmp_path):
    edge_dir = tmp_path / "edge"
    proc = edge("b", edge_dir, nats_server.url)
    until(lambda: moves(hall, "b") >= 1, "the hall showing a move")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert (tmp_path / "hall" / "b.gcg").read_text() != reference["b"], "killed after the end"
    finished(edge("b", edge_dir, nats_server.url))
    check_nothing_lost_or_doubled(nats_server, hall, tmp_path / "hall", {"b": edge_dir},
                                  reference)


def test_operator_entries_go_to_the_edge_and_a_down_edge_refuses_clearly(
        nats_server, hall, tmp_path):
    client = hall.test_client()
    until(lambda: mirror(hall, "b").started, "the hall reading the stream")
    down = client.post("/api/boards/b/entries", json={"type": "announce", "score": 10},
                       headers=OPERATOR)
    assert down.status_code == 503
    assert "its edge did not answer" in down.get_json()["error"]
    assert "nothing was recorded" in down.get_json()["error"]
    edge_dir = tmp_path / "edge"
    proc = edge("b", edge_dir, nats_server.url)
    try:
        until(lambda: mirror(hall, "b").applied >= 0, "the edge publishing")
        refused = client.post("/api/boards/b/entries", json={"type": "blank", "index": 40,
                                                            "letters": "E"}, headers=OPERATOR)
        assert refused.status_code == 400 and "not recorded" in refused.get_json()["error"]
        unsigned = client.post("/api/boards/b/entries", json={"type": "announce", "score": 3})
        assert unsigned.status_code == 401
        taken = client.post("/api/boards/b/entries", json={"type": "announce", "score": 3},
                            headers=OPERATOR)
        assert taken.status_code == 201, taken.get_json()
        seq = taken.get_json()["seq"]
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the edge closes its session
        proc.wait()
    entry = journal(edge_dir, "b")[seq]
    assert (entry["type"], entry["score"], entry["source"]) == ("announce", 3, "operator")
    assert mirror(hall, "b").applied >= seq


def test_event_file_names_the_broker_and_passes_credentials_through(tmp_path):
    event = tmp_path / "event.toml"
    event.write_text('name = "open"\n[nats]\nurl = "nats://hub:4222"\nstream = "OPEN"\n'
                     'creds = "/etc/tilecast/hall.creds"\n[boards.t1]\n[boards.t2]\n')
    settings, boards = load_event(event)
    hub = broker(settings)
    assert (hub.url, hub.stream, [b.name for b in boards]) == ("nats://hub:4222", "OPEN",
                                                               ["t1", "t2"])
    assert hub.options()["user_credentials"] == "/etc/tilecast/hall.creds"
    assert broker(settings, "nats://other:4222").url == "nats://other:4222"
    assert broker({}) is None  # no URL anywhere: single-process mode
    event.write_text('[nats]\nurl = "nats://hub:4222"\npasword = "x"\n[boards.t1]\n')
    with pytest.raises(ConfigError, match="unknown setting pasword"):
        load_event(event)


def test_an_edge_whose_broker_is_away_records_and_says_what_is_unpublished(tmp_path):
    from tilecast.hall.edge import Edge
    from tilecast.opening import Spec, open_board
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import SharedSession

    session = open_board(Spec("t1", tmp_path, lexicon="none"), plugin_manager(), None,
                         SharedSession).session
    edge = Edge(Broker(f"nats://127.0.0.1:{free_port()}", "open"), session)  # nobody there
    edge.start()
    session.submit({"type": "pass"})
    session.close()
    assert edge.close(drain_s=0.5) == 1
    assert [e["type"] for e in journal(tmp_path, "t1")] == ["pass"]


def test_an_entry_while_the_edge_shuts_down_is_refused_clearly(nats_server, hall, tmp_path):
    from tilecast.hall.edge import Edge
    from tilecast.opening import Spec, open_board
    from tilecast.pluginmanager import plugin_manager
    from tilecast.session import SharedSession

    edge_dir = tmp_path / "edge"
    session = open_board(Spec("b", edge_dir, lexicon="none"), plugin_manager(), None,
                         SharedSession).session
    edge = Edge(Broker(nats_server.url, "open"), session)
    edge.start()
    session.submit({"type": "pass"})
    until(lambda: mirror(hall, "b").applied == 0, "the hall folding the edge's pass")
    session.close()  # as `tilecast run` ends: the session first, then the edge drains
    try:
        late = hall.test_client().post("/api/boards/b/entries", json={"type": "pass"},
                                       headers=OPERATOR)
    finally:
        left = edge.close(drain_s=5)
    assert late.status_code == 503
    assert late.get_json()["error"] == ("board b: its edge is shutting down, so nothing was "
                                        "recorded. Try again once it is back")
    assert left == 0 and [e["type"] for e in journal(edge_dir, "b")] == ["pass"]
    assert moves(hall, "b") == 1


def test_the_broadcast_delay_holds_the_halls_public_views_back(nats_server, reference, tmp_path):
    clock = Clock()
    app = make_app(tmp_path / "hall", boards=(BoardSpec("b", delay=600),), clock=clock,
                   broker=Broker(nats_server.url, "open"))
    try:
        edge_dir = tmp_path / "edge"
        finished(edge("b", edge_dir, nats_server.url, realtime=False))
        caught_up(app, "b", edge_dir)
        client = app.test_client()
        recorded = client.get("/api/boards/b/record", headers=AS_OPERATOR).get_json()
        assert len(recorded["state"]["moves"]) == moves(app, "b") >= 5  # the operator sees all
        for path in ("/api/boards/b/state", "/api/boards/b/game.gcg", "/api/boards/b/replay"):
            assert client.get(path).status_code == 404, path  # nothing public for 600 s
        assert client.get("/api/boards").get_json()["boards"][0]["moves"] is None
        clock.t += 600
        state = client.get("/api/boards/b/state").get_json()
        assert (len(state["moves"]), state["delay"]) == (moves(app, "b"), 600.0)
        assert client.get("/api/boards/b/game.gcg").get_data(as_text=True) == reference["b"]
    finally:
        app.extensions["tilecast.server"].close()
