"""The server through Flask's test client: tokens, bad input, downloads, event streams and their
cap, broadcast delay, discrepancies, login. No browser (see tests/e2e for that)."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import AS_OPERATOR, AS_TD, OPERATOR, TD, Clock, make_app
from tilecast.pluginmanager import plugin_manager
from tilecast.server.app import create_app
from tilecast.server.config import BoardSpec, ServerConfig


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path / "out", max_streams=3)
    yield app
    app.extensions["tilecast.server"].close()


@pytest.fixture
def client(app):
    return app.test_client()


def journal(app, board="t1") -> list[dict]:
    return app.extensions["tilecast.server"].boards[board].session.journal.entries


def post(client, entry, headers=AS_OPERATOR, board="t1"):
    return client.post(f"/api/boards/{board}/entries", json=entry, headers=headers)


PLAY = {"type": "play", "coord": "8D", "word": "WINDY"}


# --- public reads ---------------------------------------------------------------------------


def test_boards_and_public_state(client):
    boards = client.get("/api/boards").json["boards"]
    assert [b["name"] for b in boards] == ["t1", "t2"]
    assert boards[0]["players"] == ["Ann", "Bob"] and boards[0]["scores"] == [0, 0]
    assert post(client, PLAY).status_code == 201
    state = client.get("/api/boards/t1/state").json
    assert state["scores"] == [32, 0] and state["last_play"] == ["D8", "E8", "F8", "G8", "H8"]
    assert state["moves"][0]["move"] == "8D WINDY" and state["delay"] == 0.0
    assert client.get("/api/boards/nope/state").status_code == 404


def test_overlay_fields_and_their_txt_twins(client):
    post(client, PLAY)
    fields = client.get("/api/boards/t1/fields").json
    assert fields["score"] == "32 - 0" and fields["last-play"] == "Ann 8D WINDY 32"
    assert fields["unseen-count"] == "95" and fields["bag"] == "81"
    assert fields["unseen"].startswith("AAAAAAAAA BB ") and fields["unseen"].endswith(" ??")
    for name, text in fields.items():
        resp = client.get(f"/overlay/t1/{name}.txt")
        assert resp.status_code == 200 and resp.mimetype == "text/plain"
        assert resp.get_data(as_text=True) == text
        assert client.get(f"/overlay/t1/{name}").status_code == 200
    assert client.get("/overlay/t1/password.txt").status_code == 404
    assert client.get("/overlay/t1/password").status_code == 404


def test_pages_render_for_each_board(client):
    for path in ("/", "/boards/t1", "/overlay/t1", "/overlay/t2/score", "/login"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert "Content-Security-Policy" in resp.headers
    page = client.get("/boards/t1").get_data(as_text=True)
    assert page.count("data-sq=") == 225 and 'data-sq="H8"' in page
    assert client.get("/boards/nope").status_code == 404


# --- tokens ---------------------------------------------------------------------------------

GUARDED = [
    ("post", "/api/boards/t1/entries", {"type": "pass"}, "operator"),
    ("get", "/api/boards/t1/record", None, "operator"),
    ("get", "/api/boards/t1/corners", None, "operator"),
    ("put", "/api/boards/t1/corners", {"corners": None}, "operator"),
    ("get", "/api/boards/t1/preview.mjpg", None, "operator"),
    ("put", "/api/boards/t1/delay", {"seconds": 30}, "td"),
    ("get", "/api/alerts", None, "td"),
    ("post", "/api/boards/t1/alerts/1/ack", None, "td"),
    ("get", "/api/discrepancies", None, "td"),
    ("get", "/api/boards/t1/gcg", None, "td"),
    ("get", "/api/boards/t1/alerts.jsonl", None, "td"),
]
WRONG = [
    {},
    {"Authorization": "Bearer not-the-token"},
    {"Authorization": f"Bearer {OPERATOR}x"},
    {"Authorization": f"Basic {OPERATOR}"},
    {"Authorization": ""},
]


@pytest.mark.parametrize("method,path,body,role", GUARDED)
@pytest.mark.parametrize("headers", WRONG)
def test_missing_or_wrong_token_is_401_and_changes_nothing(app, client, method, path, body,
                                                           role, headers):
    server = app.extensions["tilecast.server"]

    def now():
        state = client.get("/api/boards/t1/state").json
        return len(journal(app)), server.live.delay("t1"), state

    before = now()
    resp = getattr(client, method)(path, json=body, headers=headers)
    assert resp.status_code == 401
    assert resp.json["error"] == f"the {role} token is required"
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    assert now() == before


@pytest.mark.parametrize("method,path,body,role", [g for g in GUARDED if g[3] == "td"])
def test_the_operator_token_does_not_open_td_routes(client, method, path, body, role):
    assert getattr(client, method)(path, json=body, headers=AS_OPERATOR).status_code == 401


def test_the_td_token_also_opens_operator_routes(app, client):
    assert post(client, {"type": "pass"}, headers=AS_TD).status_code == 201
    assert journal(app)[-1] == {"seq": 0, "type": "pass", "source": "operator"}


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body,message",
    [
        (b'{"type": "pass"', "malformed JSON"),
        (b'{"type": "announce", "score": NaN}', "malformed JSON"),
        (b"\xff\xfe", "malformed JSON"),
        (b"[]", "entry must be a JSON object"),
        (b'{"type": "resign"}', "entry type must be one of"),
        (b'{"type": "play", "coord": "8D"}', "word is required"),
        (b'{"type": "play", "coord": "8D", "word": "WINDY", "score": 99}', "unknown field score"),
        (b'{"type": "play", "coord": "8D; rm", "word": "WINDY"}', "coord must be"),
        (b'{"type": "announce", "score": "30"}', "score must be a whole number"),
        (b'{"type": "announce", "score": true}', "score must be a whole number"),
        (b'{"type": "announce", "score": 1e9}', "score must be a whole number"),
        (b'{"type": "clock", "player": 2, "seconds_left": 60}', "player must be"),
        (b'{"type": "slip", "scores": [300]}', "list of two values"),
        (b'{"type": "exchange"}', "either tiles or count"),
        (b'{"type": "exchange", "tiles": "ab"}', "tiles must be"),
        (b'{"type": "challenge", "valid": "yes"}', "valid must be true or false"),
        (b'{"type": "correct", "op": "insert", "index": 0}', "needs an action"),
        (b'{"type": "correct", "op": "delete", "index": 0, "action": {"type": "pass"}}',
         "takes no action"),
        (b'{"type": "correct", "op": "insert", "index": 0, "action": {"type": "board"}}',
         "action type must be one of"),
        (b'{"type": "end", "racks": ["AB", "toolongrack"]}', "racks[1] must be"),
        (b'{"type": "play", "coord": "8G", "word": "ZA", "uncounted": 1}',
         "uncounted must be true or false"),
    ],
)
def test_malformed_entries_are_400_with_a_message_and_not_journaled(app, client, body, message):
    before = list(journal(app))
    resp = client.post("/api/boards/t1/entries", data=body, headers=AS_OPERATOR,
                       content_type="application/json")
    assert resp.status_code == 400
    assert message in resp.json["error"]
    assert journal(app) == before


def test_entries_the_recorder_refuses_are_400_and_not_journaled(app, client):
    assert post(client, PLAY).status_code == 201
    before = list(journal(app))
    for entry in (
        {"type": "play", "coord": "8L", "word": "WINDY"},  # runs off the board
        {"type": "play", "coord": "1A", "word": "CAT"},  # not connected
        {"type": "blank", "index": 7, "letters": "S"},  # no such action
        {"type": "correct", "op": "delete", "index": 5},
        {"type": "end"},  # the game is not over
    ):
        resp = post(client, entry)
        assert resp.status_code == 400, entry
        assert resp.json["error"].startswith("not recorded: "), resp.json
    assert journal(app) == before


def test_a_play_past_the_sets_letter_counts_is_recorded_only_when_marked_uncounted(app, client):
    two_z = {"type": "play", "coord": "8G", "word": "ZZ"}  # the set has one Z
    resp = post(client, two_z)
    assert resp.status_code == 400 and "not recorded: " in resp.json["error"]
    assert post(client, {**two_z, "uncounted": True}).status_code == 201
    assert journal(app)[0] == {"seq": 0, **two_z, "uncounted": True, "source": "operator"}
    told = {e["kind"]: e for e in journal(app)[1:]}  # the core tells the TD, and journals it
    assert sorted(told) == ["phony", "too-many-of-letter"]  # ZZ is no word either
    assert told["too-many-of-letter"]["data"]["letter"] == "Z"


def test_a_body_that_is_not_json_is_415(app, client):
    resp = client.post("/api/boards/t1/entries", data="type=pass", headers=AS_OPERATOR,
                       content_type="application/x-www-form-urlencoded")
    assert resp.status_code == 415 and "application/json" in resp.json["error"]
    assert journal(app) == []


def test_a_body_over_the_limit_is_413(app, client):
    big = json.dumps({"type": "correct", "op": "delete", "index": 0, "reason": "x" * 70_000})
    resp = client.post("/api/boards/t1/entries", data=big, headers=AS_OPERATOR,
                       content_type="application/json")
    assert resp.status_code == 413 and resp.json["status"] == 413
    assert journal(app) == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/boards/..%2F..%2Fetc%2Fpasswd/gcg",
        "/api/boards/../t1/gcg",
        "/api/boards/t1%2F..%2F..%2Fsecret/gcg",
        "/api/boards/%2e%2e/gcg",
        "/api/boards/t1.journal/gcg",
        "/overlay/..%2Ft1/score.txt",
        "/static/..%2Fapp.py",
        "/static/../app.py",
    ],
)
def test_paths_cannot_escape_their_folders(client, path):
    resp = client.get(path, headers=AS_TD)
    assert resp.status_code == 404, path
    assert b"import" not in resp.data and b"root:" not in resp.data


def test_downloads_are_the_boards_own_files(app, client):
    post(client, PLAY)
    post(client, {"type": "announce", "score": 30})
    gcg = client.get("/api/boards/t1/gcg", headers=AS_TD)
    assert gcg.status_code == 200 and "attachment" in gcg.headers["Content-Disposition"]
    assert ">Ann: DINWY 8D WINDY +32 32" in gcg.get_data(as_text=True)
    log = client.get("/api/boards/t1/alerts.jsonl", headers=AS_TD)
    assert log.status_code == 200
    assert json.loads(log.get_data(as_text=True).splitlines()[0])["kind"] == "score-discrepancy"
    empty = client.get("/api/boards/t2/alerts.jsonl", headers=AS_TD)  # no alert yet: no 404
    assert empty.status_code == 200 and empty.get_data() == b""


def test_board_names_that_could_be_paths_are_refused():
    from tilecast.server.config import ConfigError

    for name in ("../etc", "a/b", ".hidden", "", "a b", "x" * 65, "t1.gcg"):
        with pytest.raises(ConfigError):
            BoardSpec(name)


# --- the event stream -----------------------------------------------------------------------


def chunks(resp):
    for chunk in resp.response:
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def next_event(stream, within: int = 20) -> tuple[str, dict]:
    """The next event of a stream (skipping heartbeats, at most `within` chunks)."""
    for _, chunk in zip(range(within), stream, strict=False):
        if chunk.startswith(":") or chunk.startswith("retry:"):
            continue
        fields = dict(line.split(": ", 1) for line in chunk.strip().splitlines())
        return fields["event"], json.loads(fields["data"])
    raise AssertionError("no event came")


def test_stream_sends_a_snapshot_then_each_event(client):
    post(client, PLAY)
    resp = client.get("/api/boards/t1/events", buffered=False)
    assert resp.mimetype == "text/event-stream"
    stream = chunks(resp)
    assert re.fullmatch(r"retry: 2000\n\nevent: server-time\ndata: [0-9.]+\n\n", next(stream))
    kind, snapshot = next_event(stream)
    assert kind == "snapshot" and snapshot["scores"] == [32, 0]
    assert post(client, {"type": "play", "coord": "D7", "word": "AW"}).status_code == 201
    kind, event = next_event(stream)
    assert kind == "move" and event["move"]["move"] == "D7 AW"
    assert event["state"]["scores"] == [32, 5]
    assert next(stream) == ": keepalive\n\n"  # a heartbeat on a quiet stream
    assert post(client, {"type": "clock", "player": 1, "seconds_left": 1234}).status_code == 201
    kind, event = next_event(stream)
    assert kind == "clock" and event["state"]["clocks"] == [None, 1234]
    resp.close()


def test_a_reconnecting_viewer_gets_what_it_missed(client):
    post(client, PLAY)
    post(client, {"type": "pass"})
    resp = client.get("/api/boards/t1/events", buffered=False, headers={"Last-Event-ID": "2"})
    kind, event = next_event(chunks(resp))
    assert kind == "move" and event["seq"] == 3 and event["move"]["kind"] == "pass"
    resp.close()


def test_streams_past_the_cap_get_503_until_one_closes(app, client):
    server = app.extensions["tilecast.server"]
    open_ = []
    for path in ("/api/boards/t1/events", "/api/boards/t2/events", "/api/boards/t1/events"):
        resp = client.get(path, buffered=False)
        assert resp.status_code == 200
        next(chunks(resp))
        open_.append(resp)
    assert server.streams.open == 3
    refused = client.get("/api/boards/t1/events", buffered=False)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert "too many live streams" in refused.json["error"]
    assert client.get("/api/boards/t1/state").status_code == 200  # other requests still served
    open_.pop().close()
    assert server.streams.open == 2
    again = client.get("/api/boards/t1/events", buffered=False)
    assert again.status_code == 200
    again.close()
    for resp in open_:
        resp.close()
    assert server.streams.open == 0


# --- broadcast delay ------------------------------------------------------------------------


def test_the_delay_holds_back_every_public_view_but_not_the_operator(tmp_path):
    clock = Clock()
    app = make_app(tmp_path / "out", clock=clock)
    client = app.test_client()
    resp = client.put("/api/boards/t1/delay", json={"seconds": 60}, headers=AS_TD)
    assert resp.status_code == 200 and resp.json == {"board": "t1", "delay": 60.0}
    post(client, PLAY)
    assert client.get("/api/boards/t1/state").json["scores"] == [0, 0]
    assert client.get("/overlay/t1/score.txt").get_data(as_text=True) == "0 - 0"
    assert client.get("/api/boards").json["boards"][0]["scores"] == [0, 0]
    assert client.get("/api/boards/t1/record", headers=AS_OPERATOR).json["state"]["scores"] == [
        32, 0]
    clock.t += 61
    assert client.get("/api/boards/t1/state").json["scores"] == [32, 0]
    assert client.get("/overlay/t1/score.txt").get_data(as_text=True) == "32 - 0"
    for bad in ({"seconds": -1}, {"seconds": "60"}, {"seconds": 1e6}, {"secs": 5}, [60]):
        assert client.put("/api/boards/t1/delay", json=bad, headers=AS_TD).status_code == 400
    app.extensions["tilecast.server"].close()


def test_a_configured_delay_applies_from_the_first_event(tmp_path):
    clock = Clock()
    app = make_app(tmp_path / "out", boards=(BoardSpec("t1", delay=30),), clock=clock)
    client = app.test_client()
    resp = client.get("/api/boards/t1/state")
    assert resp.status_code == 404 and "no public state yet" in resp.json["error"]
    assert client.get("/overlay/t1/score.txt").get_data(as_text=True) == ""
    clock.t += 30
    assert client.get("/api/boards/t1/state").json["delay"] == 30.0
    app.extensions["tilecast.server"].close()


# --- the TD ---------------------------------------------------------------------------------


def test_discrepancies_side_by_side_and_acknowledged_alerts(client):
    post(client, PLAY)
    post(client, {"type": "announce", "score": 30})
    post(client, {"type": "slip", "scores": [300, 0]}, board="t1")
    found = client.get("/api/discrepancies", headers=AS_TD).json["discrepancies"]
    assert [(d["kind"], d["said"], d["computed"], d["open"]) for d in found] == [
        ("score-discrepancy", 30, 32, True),
        ("slip-discrepancy", [300, 0], [32, 0], True),
    ]
    alerts = client.get("/api/alerts", headers=AS_TD).json["alerts"]
    assert [a["id"] for a in alerts] == [1, 2]
    resp = client.post("/api/boards/t1/alerts/1/ack", headers=AS_TD)
    assert resp.status_code == 200 and resp.json["acknowledged"] == 1
    assert client.post("/api/boards/t1/alerts/1/ack", headers=AS_TD).status_code == 404
    assert client.post("/api/boards/t2/alerts/2/ack", headers=AS_TD).status_code == 404
    assert [a["id"] for a in client.get("/api/alerts", headers=AS_TD).json["alerts"]] == [2]
    found = client.get("/api/discrepancies", headers=AS_TD).json["discrepancies"]
    assert [d["open"] for d in found] == [False, True]


def test_an_operators_play_not_in_the_lexicon_reaches_the_td(client):
    assert post(client, {"type": "play", "coord": "8D", "word": "WINDYX"}).status_code == 201
    alerts = client.get("/api/alerts", headers=AS_TD).json["alerts"]
    assert [(a["kind"], a["message"]) for a in alerts] == [
        ("phony", "8D WINDYX: not in the lexicon (WINDYX), as the operator entered it")]
    assert post(client, {"type": "play", "coord": "I7", "word": "OX"}).status_code == 201
    assert len(client.get("/api/alerts", headers=AS_TD).json["alerts"]) == 1  # a word: none


def test_operator_record_lists_actions_for_corrections(client):
    post(client, PLAY)
    post(client, {"type": "pass"})
    record = client.get("/api/boards/t1/record", headers=AS_OPERATOR).json
    assert [a["type"] for a in record["actions"]] == ["play", "pass"]
    assert record["camera"] == "operator input only"
    resp = post(client, {"type": "correct", "op": "delete", "index": 1, "reason": "no pass"})
    assert resp.status_code == 201
    assert [a["type"] for a in resp.json["actions"]] == ["play"]
    resp = post(client, {"type": "correct", "op": "replace", "index": 0,
                         "action": {"type": "play", "coord": "8D", "word": "WiNDY"}})
    assert resp.status_code == 201 and resp.json["state"]["scores"] == [30, 0]
    assert resp.json["state"]["blanks"] == [{"square": "E8", "letter": "I"}]


# --- login cookie ---------------------------------------------------------------------------


def test_pages_that_need_a_token_ask_for_it(client):
    for path in ("/operator/t1", "/td"):
        resp = client.get(path)  # the form, as a 200: a 401 page is a console error
        assert resp.status_code == 200 and b'name="token"' in resp.data
        assert b"Record pass" not in resp.data and b"data-alerts" not in resp.data


def asks_for_token(resp) -> bool:
    """The sign-in form stands in the page's place."""
    return resp.status_code == 200 and b'name="token"' in resp.data and b"data-entry" not in \
        resp.data and b"data-alerts" not in resp.data


def test_login_with_the_operator_token_opens_the_console_only(client):
    resp = client.post("/login", data={"token": "guess", "next": "/operator/t1"})
    assert resp.status_code == 401 and b"not valid" in resp.data
    assert asks_for_token(client.get("/operator/t1"))
    resp = client.post("/login", data={"token": OPERATOR, "next": "/operator/t1"})
    assert resp.status_code == 303 and resp.headers["Location"] == "/operator/t1"
    cookie = resp.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/operator/t1").status_code == 200
    assert not asks_for_token(client.get("/operator/t1"))
    assert asks_for_token(client.get("/td"))
    assert client.post("/api/boards/t1/entries", json={"type": "pass"}).status_code == 201
    # A cookie-authorised write from another site is refused.
    resp = client.post("/api/boards/t1/entries", json={"type": "pass"},
                       headers={"Origin": "https://evil.example"})
    assert resp.status_code == 403
    # A wrong bearer token is not rescued by the cookie.
    resp = client.post("/api/boards/t1/entries", json={"type": "pass"},
                       headers={"Authorization": "Bearer wrong"})
    assert resp.status_code == 401
    client.post("/logout")
    assert asks_for_token(client.get("/operator/t1"))


def test_login_never_redirects_off_site(client):
    for target in ("//evil.example/x", "https://evil.example", "\\\\evil", "", "/\\evil"):
        resp = client.post("/login", data={"token": TD, "next": target})
        assert resp.status_code == 303 and resp.headers["Location"] == "/", target
    assert client.get("/td").status_code == 200


# --- the plugins the server is built on -----------------------------------------------------


def test_two_apps_in_one_process_keep_their_own_state(tmp_path):
    apps = []
    for n in (1, 2):
        config = ServerConfig((BoardSpec("t1"),), tmp_path / f"out{n}", OPERATOR, TD)
        apps.append(create_app(config))  # each with the built-in plugins of its own manager
    first, second = (app.test_client() for app in apps)
    post(second, PLAY)
    post(second, {"type": "announce", "score": 30})
    assert not (tmp_path / "out1" / "t1.alerts.jsonl").exists()
    assert "score-discrepancy" in (tmp_path / "out2" / "t1.alerts.jsonl").read_text()
    said = second.get("/api/discrepancies", headers=AS_TD).json["discrepancies"]
    assert [(d["said"], d["computed"]) for d in said] == [(30, 32)]
    assert first.get("/api/alerts", headers=AS_TD).json["alerts"] == []
    assert first.get("/api/boards/t1/state").json["scores"] == [0, 0]
    assert second.get("/api/boards/t1/state").json["scores"] == [32, 0]
    for app in apps:
        app.extensions["tilecast.server"].close()


def test_a_server_without_its_live_state_plugin_says_so(tmp_path):
    from tilecast.services import ServiceError

    config = ServerConfig((BoardSpec("t1"),), tmp_path / "out", OPERATOR, TD)
    with pytest.raises(ServiceError, match="'broadcast' plugin"):
        create_app(config, plugin_manager(disabled=["broadcast"]))


def test_no_route_repeats_the_api_under_broadcast(client):
    assert client.get("/broadcast/t1/state").status_code == 404


def test_json_nested_too_deep_is_400(app, client):
    deep = "[" * 30000 + "]" * 30000
    resp = client.post("/api/boards/t1/entries", data=deep, headers=AS_OPERATOR,
                       content_type="application/json")
    assert resp.status_code == 400 and "nested too deep" in resp.json["error"]
    assert journal(app) == []


@pytest.mark.parametrize("target", ["/\t/evil.example", "//evil.example", "/\\evil.example",
                                    "https://evil.example", "/a\r\nSet-Cookie: x=1", "/\x7f/x"])
def test_the_login_never_sends_anyone_off_the_site(client, target):
    resp = client.post("/login", data={"token": TD, "next": target})
    assert resp.status_code == 303 and resp.headers["Location"] == "/"
    page = client.get("/login", query_string={"next": target})
    assert page.status_code == 200 and b"evil" not in page.data


def test_a_write_from_another_site_riding_on_the_cookie_is_refused(app, client):
    foreign = {"Origin": "http://evil.example"}
    assert client.post("/login", data={"token": TD}, headers=foreign).status_code == 403
    for site, status in (("cross-site", 403), ("same-site", 403), ("same-origin", 303)):
        resp = client.post("/login", data={"token": TD}, headers={"Sec-Fetch-Site": site,
                                                                   "Origin": "null"})
        assert resp.status_code == status, site
    assert client.post("/login", data={"token": TD},
                       headers={"Origin": "http://localhost"}).status_code == 303
    resp = client.post("/api/boards/t1/entries", json={"type": "pass"}, headers=foreign)
    assert resp.status_code == 403 and journal(app) == []
    # a script's token is never sent unasked: it may come from anywhere
    assert post(client, {"type": "pass"}, headers={**AS_OPERATOR, **foreign}).status_code == 201


@pytest.mark.parametrize("path", ["/operator/t1", "/td", "/api/boards/t1/record", "/api/alerts",
                                  "/boards/t1"])
def test_views_of_a_game_are_never_cached(client, path):
    resp = client.get(path, headers=AS_TD)
    assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-store"


# --- replay, public GCG, the event-wide stream, pages around them --------------------------


def test_replay_and_public_gcg_follow_the_broadcast_delay(tmp_path):
    clock = Clock()
    app = make_app(tmp_path / "out", clock=clock)
    client = app.test_client()
    try:
        assert client.put("/api/boards/t1/delay", json={"seconds": 60},
                          headers=AS_TD).status_code == 200
        assert post(client, PLAY).status_code == 201
        held = client.get("/api/boards/t1/replay").json  # only the start is out
        assert [p["scores"] for p in held["positions"]] == [[0, 0]]
        assert "WINDY" not in client.get("/api/boards/t1/game.gcg").get_data(as_text=True)
        clock.t += 60
        replay = client.get("/api/boards/t1/replay").json  # public: no token
        assert [p["scores"] for p in replay["positions"]] == [[0, 0], [32, 0]]
        gcg = client.get("/api/boards/t1/game.gcg")
        assert gcg.status_code == 200 and "attachment" in gcg.headers["Content-Disposition"]
        assert ">Ann: DINWY 8D WINDY +32 32" in gcg.get_data(as_text=True)
        assert client.get("/api/boards/nope/replay").status_code == 404
        assert client.get("/api/boards/nope/game.gcg").status_code == 404
    finally:
        app.extensions["tilecast.server"].close()


def test_the_event_wide_stream_sends_every_boards_snapshot(client):
    assert post(client, PLAY).status_code == 201
    resp = client.get("/api/events", buffered=False)
    assert resp.mimetype == "text/event-stream"
    stream = chunks(resp)
    assert next(stream).startswith("retry: 2000\n\nevent: server-time\n")
    kind, snapshot = next_event(stream)
    assert kind == "snapshot" and snapshot["board"] == "t1" and snapshot["scores"] == [32, 0]
    resp.close()


def test_favicon_error_pages_and_the_sign_in_form(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    missing = client.get("/boards/nope")
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert b"tilecast.css" in missing.data and b"no board named" in missing.data
    assert client.post("/boards/t1").headers["Allow"]  # a 405 keeps its Allow header
    form = client.get("/td")  # the form in place of the page: not an error to the browser
    assert form.status_code == 200 and b'name="token"' in form.data
    assert client.post("/login", data={"token": "wrong", "next": "/td"}).status_code == 401


def test_turn_and_result_fields(client):
    assert client.get("/api/boards/t1/fields").json["turn"] == "Ann to move"
    assert post(client, PLAY).status_code == 201
    fields = client.get("/api/boards/t1/fields").json
    assert fields["turn"] == "Bob to move" and fields["result"] == ""


def test_a_closed_stream_frees_its_slot_at_once_under_waitress(tmp_path):
    """With a minute between heartbeats a stream whose client hung up would hold its slot
    until the next write failed; waitress's look-ahead tells the stream at once instead."""
    import socket
    import threading

    import waitress

    from tilecast.commands.serve import LOOKAHEAD

    app = make_app(tmp_path / "out", max_streams=3, heartbeat_s=60.0)
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8,
                                    channel_request_lookahead=LOOKAHEAD)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port

    def open_stream() -> tuple[socket.socket, bytes]:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/boards/t1/events HTTP/1.1\r\nHost: x\r\n\r\n")
        return sock, sock.recv(200)

    try:
        first = [open_stream() for _ in range(3)]
        assert all(head.startswith(b"HTTP/1.1 200") for _, head in first)
        sock, head = open_stream()
        assert head.startswith(b"HTTP/1.1 503")
        sock.close()
        for sock, _ in first:
            sock.close()
        streams = app.extensions["tilecast.server"].streams
        for _ in range(100):  # the slots come back within a poll or two, not a minute
            if streams.open == 0:
                break
            threading.Event().wait(0.05)
        assert streams.open == 0
        sock, head = open_stream()
        assert head.startswith(b"HTTP/1.1 200")
        sock.close()
    finally:
        app.extensions["tilecast.server"].close()
        server.close()
