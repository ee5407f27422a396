"""A real server (waitress on a loopback port) and headless Chromium for the browser tests and
the screenshots; both only from what is installed (Debian's chromium, the playwright package),
never downloaded."""

from __future__ import annotations

import importlib.util
import json
import os
import threading
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from tilecast.commands.serve import LOOKAHEAD
from tilecast.engine.board import format_coord
from tilecast.engine.game import Game
from tilecast.engine.infer import CLASSES, EMPTY_CLASS
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins import annotation
from tilecast.plugins.alerts import AlertLog
from tilecast.plugins.broadcast import Broadcast
from tilecast.server.app import create_app
from tilecast.server.config import BoardSpec, ServerConfig

CHROMIUM = Path(os.environ.get("TILECAST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
OPERATOR = "e2e-operator-token"
TD = "e2e-td-token-000"


def missing() -> str:
    """Why browser tests cannot run here, or '' when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install playwright)"
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} not found (apt-get install -y chromium)"
    return ""


class StubReader:
    """Stands in for the board reader on camera boards (no model needed): reads an empty
    board where the operator's corners say, or in a fixed place."""

    def __init__(self, corners) -> None:
        self.manual, self.fix = corners, None

    def read(self, frame):
        h, w = frame.shape[:2]
        found = np.float32([[w * 0.2, h * 0.2], [w * 0.8, h * 0.2], [w * 0.8, h * 0.8],
                            [w * 0.2, h * 0.8]])
        probs = np.zeros((225, len(CLASSES)))
        probs[:, EMPTY_CLASS] = 1
        corners = self.manual if self.manual is not None else found
        return SimpleNamespace(probs=probs, motion=0.0, corners=corners, fix=np.float32(corners),
                               view=0)


@contextmanager
def serving(out_dir: Path, boards: tuple[BoardSpec, ...], **settings):
    """The app under waitress on 127.0.0.1 (a free port); yields (base URL, app). Camera
    boards read with StubReader; `settings` go to the ServerConfig."""
    import waitress

    pm = plugin_manager(entry_points=False)
    for name, plugin in (("broadcast", Broadcast()), ("alerts", AlertLog()),
                         ("annotation", annotation)):
        pm.register(plugin, name=name)
    config = ServerConfig(boards, out_dir, OPERATOR, TD, **{"heartbeat_s": 1.0, **settings})
    app = create_app(config, pm, StubReader)
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=24,
                                    channel_request_lookahead=LOOKAHEAD)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", app
    finally:
        app.extensions["tilecast.server"].close()
        server.close()


@contextmanager
def chromium(width: int = 1280, height: int = 800):
    """A page in headless Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            yield context.new_page()
        finally:
            browser.close()


def submit(base: str, board: str, entry: dict, token: str = OPERATOR) -> dict:
    """POST one entry through the API, as an operator's script would."""
    request = urllib.request.Request(
        f"{base}/api/boards/{board}/entries",
        data=json.dumps(entry).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def entries_of(game: Game, turns: int) -> list[dict]:
    """The first `turns` plays, passes and exchanges of a game as operator entries."""
    entries = []
    for turn in game.turns[:turns]:
        if turn.kind == "play":
            entries.append({"type": "play", "coord": format_coord(turn.coord), "word": turn.word})
        elif turn.kind == "pass":
            entries.append({"type": "pass"})
        elif turn.kind == "exchange":
            entries.append({"type": "exchange", **({"tiles": turn.tiles} if turn.tiles
                                                   else {"count": turn.count})})
    return entries
