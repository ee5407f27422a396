"""Entries checked in one place (tilecast.entries): the events file, the journal and the server
all refuse a malformed entry with an InputError naming the field, and never hold a NaN."""

from __future__ import annotations

import dataclasses
import math

import pytest

from tilecast.cli import main
from tilecast.entries import EVENTS, JOURNAL, OPERATOR, Clock, InputError, Play, parse_entry
from tilecast.journal import Journal, JournalError
from tilecast.watch import EventsFileError, load_events

BAD_EVENTS = [
    ('{"type": "play", "time": 3}', "entry play: coord is required"),
    ('{"type": "play", "coord": "8D", "time": 3}', "entry play: word is required"),
    ('{"type": "play", "coord": 8, "word": "ZA", "time": 3}', "coord must be a coordinate"),
    ('{"type": "play", "coord": "8D", "word": "Z A", "time": 3}', "word must be 1-15 letters"),
    ('{"type": "pass", "time": NaN}', "time must be a finite number"),
    ('{"type": "pass", "time": Infinity}', "time must be a finite number"),
    ('{"type": "pass", "time": -Infinity}', "time must be a finite number"),
    ('{"type": "pass", "time": "3"}', "time must be a finite number"),
    ('{"type": "pass", "time": true}', "time must be a finite number"),
    ('{"type": "pass"}', 'an event needs a "time"'),
    ('{"type": "pass", "time": 1, "player": 0}', "entry pass: unknown field player"),
    ('{"type": "clock", "player": 0, "seconds_left": NaN, "time": 1}', "seconds_left must be"),
    ('{"type": "clock", "player": 2, "seconds_left": 60, "time": 1}', "player must be"),
    ('{"type": "time", "player": 0, "time": 1}', "entry time: seconds_over is required"),
    ('{"type": "exchange", "time": 1}', "give either tiles or count"),
    ('{"type": "exchange", "count": "3", "time": 1}', "count must be a whole number"),
    ('{"type": "challenge", "time": 1}', "entry challenge: valid is required"),
    ('{"type": "announce", "score": null, "time": 1}', "score must be a whole number"),
    ('{"type": "slip", "scores": [300], "time": 1}', "scores must be a list of two values"),
    ('{"type": "end", "racks": "AB", "time": 1}', "racks must be a list of two values"),
    ('{"type": "correct", "op": "replace", "index": 0, "time": 1}', "replace needs an action"),
    ('{"type": "correct", "op": "insert", "index": 0, "action": {"type": "play"}, "time": 1}',
     "action play: coord is required"),
    ('{"type": "blank", "index": -1, "letters": "A", "time": 1}', "index must be a whole"),
    ('{"type": "board", "frame": 1, "time": 1}', "entry type must be one of"),
    ('{"time": 1}', "entry type must be one of"),
    ('[{"type": "pass", "time": 1}]', "entry must be a JSON object"),
    ('{"type": "pass", "time": 1', "not JSON"),
]


@pytest.mark.parametrize(("line", "why"), BAD_EVENTS)
def test_a_bad_events_line_is_one_clear_error_naming_its_line_and_field(tmp_path, line, why):
    path = tmp_path / "events.jsonl"
    path.write_text('{"type": "pass", "time": 0.5}\n\n' + line + "\n")
    with pytest.raises(EventsFileError) as info:
        load_events(path)
    assert isinstance(info.value, InputError)
    assert str(info.value).startswith(f"{path}:3: ")
    assert why in str(info.value)


ALWAYS_BAD = [
    None, 3, "play", [], {}, {"type": 7}, {"type": "resign"}, {"type": "play"},
    {"type": "play", "coord": "8D"}, {"type": "play", "coord": 8, "word": "ZA"},
    {"type": "play", "coord": "8D", "word": "ZA", "uncounted": 1},
    {"type": "clock", "player": 0, "seconds_left": math.nan},
    {"type": "clock", "player": 2, "seconds_left": 1}, {"type": "time", "player": 0},
    {"type": "exchange"}, {"type": "exchange", "count": "3"}, {"type": "challenge"},
    {"type": "announce", "score": None}, {"type": "slip", "scores": [300]},
    {"type": "end", "racks": "AB"}, {"type": "correct", "op": "replace", "index": 0},
    {"type": "correct", "op": "insert", "index": 0, "action": {"type": "play"}},
    {"type": "correct", "op": "insert", "index": 0, "action": {"type": "board"}},
    {"type": "blank", "index": -1, "letters": "A"}, {"type": "pass", "bogus": 1},
]


@pytest.mark.parametrize("body", ALWAYS_BAD, ids=[str(i) for i in range(len(ALWAYS_BAD))])
@pytest.mark.parametrize("origin", [OPERATOR, EVENTS, JOURNAL])
def test_every_origin_refuses_bad_shapes_with_an_input_error_only(body, origin):
    with pytest.raises(InputError):
        parse_entry(body, origin)


def test_the_events_file_reads_in_time_order_as_the_recorder_takes_entries(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_text('{"type": "exchange", "count": 2, "time": 9}\n'
                    '{"time": 1.5, "type": "clock", "player": 1, "seconds_left": -30}\n')
    assert load_events(path) == [
        {"type": "clock", "time": 1.5, "player": 1, "seconds_left": -30, "events_line": 2},
        {"type": "exchange", "time": 9, "count": 2, "events_line": 1},
    ]


def test_entries_are_typed_and_frozen():
    entry = parse_entry({"type": "play", "coord": "8D", "word": "WINDY", "time": 2.0}, EVENTS)
    assert isinstance(entry, Play) and (entry.coord, entry.word, entry.time) == ("8D", "WINDY", 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.word = "WINDS"  # type: ignore[misc]
    assert parse_entry(entry.as_json(), EVENTS) == entry


def test_what_only_tilecast_writes_is_refused_from_the_operator_and_events_file():
    camera = {"type": "play", "coord": "8D", "word": "WINDY", "probability": 0.9,
              "source": "camera", "time": 1.0}
    assert parse_entry(camera, JOURNAL).as_json() == camera
    for origin in (OPERATOR, EVENTS):
        with pytest.raises(InputError, match="unknown field"):
            parse_entry(camera, origin)
    with pytest.raises(InputError, match="unknown field time"):
        parse_entry({"type": "pass", "time": 1.0}, OPERATOR)  # the server's API is unchanged
    with pytest.raises(InputError, match="type must be one of"):
        parse_entry({"type": "withdraw"}, OPERATOR)


def test_annotate_with_a_bad_events_file_says_why_in_one_line_and_exits_2(tmp_path, capsys):
    events = tmp_path / "events.jsonl"
    events.write_text('{"type":"play","time":3}\n')
    status = main(["annotate", str(tmp_path / "game.mp4"), "-o", str(tmp_path / "g.gcg"),
                   "--events", str(events)])
    err = capsys.readouterr().err
    assert status == 2
    assert err == f"tilecast annotate: {events}:1: entry play: coord is required\n"
    assert not (tmp_path / "g.tilecast").exists()  # nothing was started


def test_a_nan_is_never_journaled(tmp_path):
    journal = Journal(tmp_path / "j.jsonl")
    journal.append({"type": "pass"})
    with pytest.raises(ValueError):
        journal.append({"type": "clock", "player": 0, "seconds_left": math.nan})
    journal.close()
    assert (tmp_path / "j.jsonl").read_text() == '{"seq":0,"type":"pass"}\n'
    assert len(Journal(tmp_path / "j.jsonl").entries) == 1


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('{"seq":1,"type":"clock","player":0,"seconds_left":NaN}', "NaN is not a JSON value"),
        ('{"seq":1,"type":"play","coord":"8D"}', "entry play: word is required"),
        ('{"seq":1,"type":"board","frame":"7"}', "frame must be a whole number"),
        ('{"seq":1,"type":"alert","kind":"x","message":"m","severity":"loud"}', "severity"),
        ('{"seq":1,"type":"jump"}', "entry type must be one of"),
    ],
)
def test_a_journal_entry_of_the_wrong_shape_is_damage_named_by_line(tmp_path, line, why):
    """Even as the last line: a whole line that reads as JSON is not a torn write."""
    path = tmp_path / "j.jsonl"
    path.write_text('{"seq":0,"type":"pass"}\n' + line + "\n")
    with pytest.raises(JournalError, match=f"j.jsonl:2: .*{why}"):
        Journal(path)


def test_a_clock_from_any_origin_is_a_whole_number_of_seconds():
    assert parse_entry({"type": "clock", "player": 1, "seconds_left": -5}, OPERATOR) == Clock(
        player=1, seconds_left=-5
    )
    with pytest.raises(InputError, match="seconds_left must be a whole number"):
        parse_entry({"type": "clock", "player": 1, "seconds_left": math.inf}, JOURNAL)
