"""The app factory: one Flask app serving every board of an event, each with its own session."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pluggy
from flask import Flask, Response, abort, current_app, render_template, request
from werkzeug.exceptions import HTTPException

from tilecast.engine.lexicon import Lexicon
from tilecast.hall.link import HallLink
from tilecast.pluginmanager import plugin_manager
from tilecast.server.auth import Tokens
from tilecast.server.boards import BoardRunner, ReaderFactory
from tilecast.server.config import ServerConfig
from tilecast.server.hall import HallBoard, link_boards
from tilecast.server.streams import STREAMING, StreamLimit, held
from tilecast.services import ALERTS_LOG, LIVE_STATE, AlertsLog, LiveState, service


@dataclass
class Server:
    """Everything the views share, kept in `app.extensions["tilecast.server"]`."""

    config: ServerConfig
    tokens: Tokens
    boards: dict[str, BoardRunner | HallBoard]
    live: LiveState
    alerts: AlertsLog
    streams: StreamLimit
    link: HallLink | None = None  # a hall's broker connection
    running: bool = True

    def board(self, name: str) -> BoardRunner | HallBoard:
        """The board of that name, or 404 (names are looked up, never used as paths)."""
        runner = self.boards.get(name)
        if runner is None:
            abort(404, f"no board named {name!r}")
        return runner

    def close(self) -> None:
        self.running = False
        if self.link is not None:
            self.link.close()
        for runner in self.boards.values():
            runner.close()


def server() -> Server:
    return current_app.extensions["tilecast.server"]


def create_app(
    config: ServerConfig,
    pm: pluggy.PluginManager | None = None,
    make_reader: ReaderFactory | None = None,
    start: bool = True,
) -> Flask:
    """Build the app and a session for every board. `pm` defaults to a new manager with the
    built-in and installed plugins, so each app keeps its own state; the server reads boards
    through its `broadcast` and `alerts` plugins (tilecast.services), and a ServiceError says
    when one is missing. With `start`, boards that have a source start watching it."""
    from tilecast.server.api import api
    from tilecast.server.pages import pages

    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secrets.token_bytes(32),  # login cookies last as long as the process
        MAX_CONTENT_LENGTH=config.max_body,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
    )
    pm = pm or plugin_manager()
    live = service(pm, LIVE_STATE, LiveState)
    alerts = service(pm, ALERTS_LOG, AlertsLog)
    app.register_blueprint(api)
    app.register_blueprint(pages)
    pm.hook.tilecast_server_routes(app=app)

    config.out_dir.mkdir(parents=True, exist_ok=True)
    lexicons: dict[str, Lexicon] = {}  # loaded once, shared by the boards that use them
    boards: dict[str, BoardRunner | HallBoard] = {}
    hall: dict[str, HallBoard] = {}  # a hall's boards, recorded by their edges
    for spec in config.boards:
        live.set_delay(spec.name, spec.delay)  # before the session's first event
        if config.broker is not None:
            boards[spec.name] = hall[spec.name] = HallBoard(spec, config.out_dir, pm, lexicons)
        else:
            boards[spec.name] = BoardRunner(
                spec, config.out_dir, pm, lexicons, make_reader, config.fps, config.still_s
            )
    link = None if config.broker is None else link_boards(config.broker, hall)
    state = Server(
        config,
        Tokens(config.operator_token, config.td_token),
        boards,
        live,
        alerts,
        StreamLimit(config.max_streams),
        link,
    )
    app.extensions["tilecast.server"] = state
    app.before_request(_same_origin_writes)
    app.after_request(_cap_streams)
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _error)
    if start:
        if link is not None:
            link.start()
        for runner in boards.values():
            runner.start()
    return app


def _cap_streams(response: Response) -> Response:
    if response.mimetype not in STREAMING or held(response, server().streams):
        return response
    busy = _json_error(503, "too many live streams open; try again shortly")
    busy.headers["Retry-After"] = "5"
    return busy


def _security_headers(response: Response) -> Response:
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'self'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    # Every page and answer shows a game as it stands (and some are a signed-in view): a
    # shared cache or the browser's back button must never show a stale or someone else's copy.
    if not request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _same_origin_writes() -> Response | None:
    """A browser's write from another site (a form posted at the login or the console, riding
    on the sign-in cookie) is refused; scripts that send no Origin are judged by their token."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    if "Authorization" in request.headers:  # (a token is never sent unasked)
        return None
    refused = _json_error(403, "a write from another site is refused")
    site = request.headers.get("Sec-Fetch-Site")  # what the browser itself says
    if site is not None:
        return None if site in ("same-origin", "none") else refused
    origin = request.headers.get("Origin")  # older browsers; "null" says nothing
    if origin not in (None, "null") and urlsplit(origin).netloc != request.host:
        return refused
    return None


def _json_error(status: int, message: str) -> Response:
    body = json.dumps({"error": message, "status": status})
    return Response(body, status=status, mimetype="application/json")


def _error(exc: HTTPException) -> Any:
    """JSON errors under /api/, a page in the site's style elsewhere."""
    if request.path.startswith("/api/") and exc.code is not None:
        response = _json_error(exc.code, exc.description or exc.name)
        if exc.code == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="tilecast"'
        return response
    if exc.code is None:
        return exc
    response = exc.get_response()  # keeps its headers (Allow on a 405...)
    response.set_data(render_template("error.html", code=exc.code, name=exc.name,
                                      description=exc.description or ""))
    response.mimetype = "text/html"
    return response
