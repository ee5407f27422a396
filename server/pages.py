"""The HTML pages: boards index, live board, OBS overlays and their `.txt` twins, operator
console, TD dashboard, login. Pages are skeletons; small scripts fill them from the API."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    send_from_directory,
    session,
)

from tilecast.engine.board import COLUMNS, SIZE, premium_name
from tilecast.server.app import server
from tilecast.server.auth import OPERATOR, TD, request_roles, safe_next
from tilecast.server.fields import FIELDS, field_text

pages = Blueprint("pages", __name__)

# Premium class of every square, row 1 first: '', 'tw', 'dw', 'tl' or 'dl'.
GRID = [[premium_name(r, c).lower() for c in range(SIZE)] for r in range(SIZE)]


def _page(template: str, **context: Any) -> str:
    return render_template(template, grid=GRID, columns=COLUMNS, fields=list(FIELDS), **context)


def _login(role: str) -> str:
    """The sign-in form in place of a page that needs `role` (a 200: the form is what this
    address shows until then, and a browser logs every 4xx page as an error)."""
    return _page("login.html", role=role, next=request.path, error="")


@pages.get("/")
def index() -> str:
    return _page("index.html", boards=list(server().boards.values()))


@pages.get("/wall")
def wall() -> str:
    """Every board of the event at a glance, public (no alerts)."""
    return _page("wall.html", boards=list(server().boards.values()))


@pages.get("/favicon.ico")
def favicon() -> Response:
    return send_from_directory(pages.root_path + "/static", "favicon.svg",
                               mimetype="image/svg+xml", max_age=86400)


@pages.get("/boards/<board>")
def board(board: str) -> str:
    return _page("board.html", board=server().board(board))


@pages.get("/overlay/<board>")
def overlay(board: str) -> str:
    return _page("overlay.html", board=server().board(board))


@pages.get("/overlay/<board>/<name>.txt")
def field_txt(board: str, name: str) -> Response:
    srv = server()
    srv.board(board)
    if name not in FIELDS:
        abort(404)
    try:
        snapshot = srv.live.snapshot(board)
    except KeyError:
        snapshot = None
    return Response(
        field_text(snapshot, name), mimetype="text/plain", headers={"Cache-Control": "no-store"}
    )


@pages.get("/overlay/<board>/<name>")
def field(board: str, name: str) -> str:
    runner = server().board(board)
    if name not in FIELDS:
        abort(404)
    return _page("field.html", board=runner, field=name)


@pages.get("/operator/<board>")
def operator(board: str) -> Any:
    if OPERATOR not in request_roles(server().tokens):
        return _login(OPERATOR)
    return _page("operator.html", board=server().board(board))


@pages.get("/td")
def td() -> Any:
    if TD not in request_roles(server().tokens):
        return _login(TD)
    return _page("td.html", boards=list(server().boards.values()))


@pages.get("/login")
def login_form() -> str:
    return _page("login.html", role="", next=safe_next(request.args.get("next")), error="")


@pages.post("/login")
def login() -> Any:
    """Check a token typed into the form; the roles it opens live in the signed cookie."""
    target = safe_next(request.form.get("next"))
    roles = server().tokens.roles(request.form.get("token", ""))
    if not roles:
        return _page("login.html", role="", next=target, error="That token is not valid."), 401
    session.clear()
    session["roles"] = sorted(roles)
    return redirect(target, code=303)


@pages.post("/logout")
def logout() -> Any:
    session.clear()
    return redirect("/", code=303)
