"""The alerts plugin (plugins/alerts.py): the append-only alert log and what is still open."""

from __future__ import annotations

import json
from pathlib import Path

from tilecast.events import Alert
from tilecast.pluginmanager import plugin_manager
from tilecast.plugins import alerts


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_alerts_are_logged_one_json_line_each_and_kept_open(session):
    log = alerts.AlertLog()
    pm = plugin_manager(extra=[log], entry_points=False)
    pm.hook.tilecast_alert(session=session, alert=Alert("score-discrepancy", "sheet says 30"))
    pm.hook.tilecast_alert(
        session=session,
        alert=Alert("board-disturbed", "H8 moved", "info", 4, 61.5, {"squares": ["H8"]}),
    )
    lines = read_jsonl(alerts.log_path(session))
    assert log.open_alerts() == lines
    logged = [line.pop("logged") for line in lines]  # when, by the wall clock, for the TD
    assert all(isinstance(t, float) and t > 1.7e9 for t in logged)
    assert lines == [
        {
            "id": 1,
            "board": "table1",
            "kind": "score-discrepancy",
            "severity": "warning",
            "message": "sheet says 30",
            "turn": None,
            "time": 0.0,
            "data": {},
        },
        {
            "id": 2,
            "board": "table1",
            "kind": "board-disturbed",
            "severity": "info",
            "message": "H8 moved",
            "turn": 4,
            "time": 61.5,
            "data": {"squares": ["H8"]},
        },
    ]
    assert log.acknowledge("table1", 1) is True
    assert log.acknowledge("table1", 1) is False
    assert log.acknowledge("other", 2) is False
    assert [a["id"] for a in log.open_alerts("table1")] == [2]
    assert log.open_alerts("other") == []
    assert len(read_jsonl(alerts.log_path(session))) == 2  # acknowledging writes nothing


def test_alert_log_is_append_only_and_ids_go_on_after_reopening(session):
    first = alerts.AlertLog()
    first.record(session, Alert("a", "one"))
    first.record(session, Alert("b", "two"))
    path = alerts.log_path(session)
    before = path.read_bytes()
    with path.open("ab") as f:  # a line cut short by a crash
        f.write(b'{"id": 3, "board": "tab')
    second = alerts.AlertLog()  # a new process resuming the session
    second.record(session, Alert("c", "three"))
    after = path.read_bytes()
    assert after.startswith(before)
    lines = after.decode().splitlines()
    assert len(lines) == 4
    assert json.loads(lines[-1])["id"] == 3 and json.loads(lines[-1])["kind"] == "c"
    assert second.open_alerts() == [json.loads(lines[-1])]
