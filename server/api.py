"""The JSON API under /api/ (documented in docs/api.md). Public reads show each board as its
broadcast releases it (after the board's delay); everything else needs a token. Entries are
checked for shape here and then go to the board's session, which alone decides what they mean."""

from __future__ import annotations

import functools
import json
import math
import re
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, request, send_from_directory

from tilecast import entries
from tilecast.engine.actions import tiles_placed
from tilecast.entries import InputError
from tilecast.hall.link import EdgeUnavailable, Refused
from tilecast.server.app import server
from tilecast.server.auth import OPERATOR, TD, request_roles
from tilecast.server.boards import BoardRunner, CornersError, order_corners
from tilecast.server.fields import FIELDS, field_text
from tilecast.server.hall import HallBoard
from tilecast.server.preview import BOUNDARY, mjpeg
from tilecast.server.streams import all_events, board_events, sse_response
from tilecast.session import SessionClosed

api = Blueprint("api", __name__, url_prefix="/api")

DISCREPANCIES = ("score-discrepancy", "slip-discrepancy")
MAX_DELAY_S = 3600.0
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def needs(role: str) -> Callable:
    """Answer 401 unless the request carries a token that opens `role`; checked before the
    body is read, so a refused request changes nothing. A write authorised by the login cookie
    must also come from this site (its Origin header, when sent, names this host)."""

    def wrap(view: Callable) -> Callable:
        @functools.wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if role not in request_roles(server().tokens):
                abort(401, f"the {role} token is required")
            origin = request.headers.get("Origin")
            if (request.method in UNSAFE and "Authorization" not in request.headers
                    and origin is not None and origin.rstrip("/") != request.host_url.rstrip("/")):
                abort(403, "cross-site request refused")
            return view(*args, **kwargs)

        return guarded

    return wrap


def json_body() -> Any:
    """The request's JSON value: 415 when it is not sent as JSON, 400 when it is malformed
    (NaN and Infinity included), 413 past the size limit."""
    if not request.is_json:
        abort(415, "send a JSON body with Content-Type: application/json")

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        return json.loads(request.get_data(cache=False), parse_constant=constant)
    except ValueError as exc:
        abort(400, f"malformed JSON: {exc}")
    except RecursionError:
        abort(400, "malformed JSON: nested too deep")


def _snapshot(name: str) -> dict[str, Any] | None:
    try:
        return server().live.snapshot(name)
    except KeyError:
        return None


def _live(runner: BoardRunner | HallBoard) -> dict[str, Any]:
    """The undelayed state and action list, read together, for the operator and the TD."""
    session = runner.session
    with session.lock:
        game, actions = session.game, list(session.recorder.actions)
    return {
        "state": server().live.state(session.info, game, session.recorder.clocks),
        "actions": actions,
        "placed": [tiles_placed(a) for a in actions],  # so a clicked square finds its play
        "camera": runner.status,
        "now": time.time(),  # the page's clocks run on the server's time
    }


# --- public ---------------------------------------------------------------------------------


@api.get("/boards")
def boards() -> dict[str, Any]:
    srv = server()
    listing = []
    for name, runner in srv.boards.items():
        state = _snapshot(name)
        listing.append(
            {
                "name": name,
                "players": list(runner.spec.players),
                "delay": srv.live.delay(name),
                "scores": None if state is None else state["scores"],
                "phase": None if state is None else state["phase"],
                "moves": None if state is None else len(state["moves"]),
            }
        )
    return {"boards": listing}


@api.get("/boards/<board>/state")
def state(board: str) -> dict[str, Any]:
    srv = server()
    srv.board(board)
    snapshot = _snapshot(board)
    if snapshot is None:
        abort(404, f"board {board} has no public state yet (broadcast delay)")
    return {**snapshot, "delay": srv.live.delay(board)}


@api.get("/boards/<board>/fields")
def fields(board: str) -> dict[str, str]:
    server().board(board)
    snapshot = _snapshot(board)
    return {name: field_text(snapshot, name) for name in FIELDS}


@api.get("/boards/<board>/events")
def events(board: str) -> Response:
    srv = server()
    srv.board(board)
    last = request.headers.get("Last-Event-ID") or request.args.get("after", "")
    after = int(last) if re.fullmatch(r"[0-9]{1,18}", last) else None
    return sse_response(board_events(srv.live, board, after, srv.config.heartbeat_s))


@api.get("/events")
def all_boards_events() -> Response:
    """Every board's public events on one stream (a browser opens few streams per site)."""
    srv = server()
    return sse_response(all_events(srv.live, list(srv.boards), srv.config.heartbeat_s))


@api.get("/boards/<board>/replay")
def replay(board: str) -> dict[str, Any]:
    """Every position of the game as far as the broadcast has released it."""
    server().board(board)
    try:
        return server().live.replay(board)
    except KeyError:
        abort(404, f"board {board} has no public state yet (broadcast delay)")


@api.get("/boards/<board>/game.gcg")
def public_gcg(board: str) -> Response:
    """The GCG of what viewers have seen: the record up to the broadcast delay."""
    runner = server().board(board)
    try:
        text = server().live.gcg(board)
    except KeyError:
        abort(404, f"board {board} has no public state yet (broadcast delay)")
    return Response(text, mimetype="text/plain", headers={
        "Content-Disposition": f'attachment; filename="{runner.name}.gcg"'})


# --- operator -------------------------------------------------------------------------------


@api.get("/boards/<board>/record")
@needs(OPERATOR)
def record(board: str) -> dict[str, Any]:
    return _live(server().board(board))


@api.post("/boards/<board>/entries")
@needs(OPERATOR)
def submit(board: str) -> tuple[dict[str, Any], int]:
    runner = server().board(board)
    try:
        entry = {**entries.parse_entry(json_body(), entries.OPERATOR).as_json(),
                 "source": "operator"}
    except InputError as exc:
        abort(400, str(exc))
    try:
        seq = runner.submit(entry)
    except (InputError, LookupError, Refused) as exc:  # refused here or by the board's edge
        abort(400, f"not recorded: {exc}")
    except (EdgeUnavailable, SessionClosed) as exc:  # no edge, or the run is ending
        abort(503, str(exc))
    return {"seq": seq, **_live(runner)}, 201


def _camera(board: str) -> BoardRunner:
    runner = server().board(board)
    if not runner.spec.source:
        abort(409, f"board {board} has no camera")
    return runner


@api.get("/boards/<board>/corners")
@needs(OPERATOR)
def corners(board: str) -> dict[str, Any]:
    runner = _camera(board)
    manual = runner.saved_corners()
    preview = runner.preview
    seen = None if preview is None else preview.corners
    shown = manual if manual is not None else seen
    return {
        "corners": None if shown is None else shown.tolist(),
        "manual": manual is not None,
        "frame": None if preview is None else preview.frame_size(),
    }


@api.put("/boards/<board>/corners")
@needs(OPERATOR)
def set_corners(board: str) -> dict[str, Any]:
    runner = _camera(board)
    body = json_body()
    if not isinstance(body, dict) or set(body) != {"corners"}:
        abort(400, 'send {"corners": [[x, y], [x, y], [x, y], [x, y]]} or {"corners": null}')
    chosen = None
    if body["corners"] is not None:
        try:
            chosen = order_corners(body["corners"])
        except CornersError as exc:
            abort(400, str(exc))
        size = None if runner.preview is None else runner.preview.frame_size()
        if size is not None and not (
            (chosen >= 0).all() and (chosen[:, 0] <= size[0]).all()
            and (chosen[:, 1] <= size[1]).all()
        ):
            abort(400, f"corners must lie inside the {size[0]}x{size[1]} frame")
    runner.set_corners(chosen)
    return {"corners": None if chosen is None else chosen.tolist(), "manual": chosen is not None}


@api.get("/boards/<board>/preview.mjpg")
@needs(OPERATOR)
def preview(board: str) -> Response:
    srv = server()
    runner = _camera(board)
    if runner.preview is None:
        abort(409, f"board {board}: the camera has not started ({runner.status})")
    return Response(
        mjpeg(runner.preview, lambda: srv.running),
        content_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={"Cache-Control": "no-cache"},
    )


# --- tournament director --------------------------------------------------------------------


@api.put("/boards/<board>/delay")
@needs(TD)
def set_delay(board: str) -> dict[str, Any]:
    srv = server()
    srv.board(board)
    body = json_body()
    seconds = body.get("seconds") if isinstance(body, dict) and set(body) == {"seconds"} else None
    if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
            or not math.isfinite(seconds) or not 0 <= seconds <= MAX_DELAY_S):
        abort(400, f'send {{"seconds": S}} with 0 <= S <= {MAX_DELAY_S:g}')
    srv.live.set_delay(board, float(seconds))
    return {"board": board, "delay": float(seconds)}


@api.get("/alerts")
@needs(TD)
def alerts() -> dict[str, Any]:
    srv = server()
    return {"alerts": [a for a in srv.alerts.open_alerts() if a["board"] in srv.boards]}


@api.post("/boards/<board>/alerts/<int:alert_id>/ack")
@needs(TD)
def acknowledge(board: str, alert_id: int) -> dict[str, Any]:
    srv = server()
    srv.board(board)
    if not srv.alerts.acknowledge(board, alert_id):
        abort(404, f"board {board} has no open alert {alert_id}")
    return {"board": board, "acknowledged": alert_id}


@api.get("/discrepancies")
@needs(TD)
def discrepancies() -> dict[str, Any]:
    """Every score the players announced or signed that the rules disagree with, side by
    side with the computed one, open or acknowledged."""
    srv = server()
    found = []
    for name, runner in srv.boards.items():
        still_open = {a["id"] for a in srv.alerts.open_alerts(name)}
        for alert in srv.alerts.logged(runner.session.info):
            if alert.get("kind") not in DISCREPANCIES:
                continue
            data = alert.get("data") or {}
            found.append(
                {
                    "board": name,
                    "id": alert.get("id"),
                    "kind": alert["kind"],
                    "turn": alert.get("turn"),
                    "player": data.get("player"),
                    "said": data.get("announced", data.get("slip")),
                    "computed": data.get("computed"),
                    "message": alert.get("message", ""),
                    "open": alert.get("id") in still_open,
                }
            )
    return {"discrepancies": found}


def _download(board: str, suffix: str, mimetype: str) -> Response:
    runner = server().board(board)  # the name is one we serve, so the file is in out_dir
    return send_from_directory(
        server().config.out_dir.resolve(),
        f"{runner.name}{suffix}",
        as_attachment=True,
        mimetype=mimetype,
        max_age=0,
    )


@api.get("/boards/<board>/gcg")
@needs(TD)
def gcg(board: str) -> Response:
    return _download(board, ".gcg", "text/plain")


@api.get("/boards/<board>/alerts.jsonl")
@needs(TD)
def alert_log(board: str) -> Response:
    """The board's alert log; empty (not a 404) before its first alert."""
    runner = server().board(board)
    if not (server().config.out_dir / f"{runner.name}.alerts.jsonl").exists():
        return Response("", mimetype="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{runner.name}.alerts.jsonl"'})
    return _download(board, ".alerts.jsonl", "application/x-ndjson")
