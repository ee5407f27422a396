"""The journal: append-only, fsynced, a torn last line dropped, damage refused, and what was
recorded never lost."""

import json
import shutil

import pytest

from tilecast.journal import Journal, JournalError, JournalWriteError


def test_journal_is_append_only_and_survives_a_torn_last_line(tmp_path):
    j = Journal(tmp_path / "g.jsonl")
    j.append({"type": "pass"})
    j.append({"type": "pass"})
    j.close()
    with open(tmp_path / "g.jsonl", "ab") as fh:
        fh.write(b'{"type": "pa')  # a crash mid-write
    again = Journal(tmp_path / "g.jsonl")
    assert [e["seq"] for e in again.entries] == [0, 1]
    again.append({"type": "exchange", "count": 2})
    again.close()
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    assert [json.loads(x)["seq"] for x in lines] == [0, 1, 2]


def test_damaged_journal_middle_is_an_error_not_a_loss(tmp_path):
    (tmp_path / "g.jsonl").write_text('{"seq":0}\nnot json\n{"seq":2}\n')
    with pytest.raises(JournalError, match=":2:"):
        Journal(tmp_path / "g.jsonl")


def test_a_journal_removed_mid_game_is_written_again_from_memory(tmp_path):
    out = tmp_path / "out"
    j = Journal(out / "g.jsonl")
    j.append({"type": "pass"})
    j.append({"type": "pass"})
    assert not j.rewritten
    shutil.rmtree(out)  # someone clears the out-dir during the game
    j.append({"type": "exchange", "count": 2})
    assert j.rewritten  # the run says so at its end
    j.append({"type": "pass"})
    j.close()
    lines = (out / "g.jsonl").read_text().splitlines()
    assert [json.loads(x)["seq"] for x in lines] == [0, 1, 2, 3]
    assert Journal(out / "g.jsonl").entries == j.entries


def test_an_entry_that_cannot_be_written_stops_the_run_with_the_reason(tmp_path, monkeypatch):
    j = Journal(tmp_path / "g.jsonl")
    j.append({"type": "pass"})

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tilecast.journal.os.fsync", full)
    with pytest.raises(JournalWriteError, match="g.jsonl: cannot record entry 1: No space left"):
        j.append({"type": "pass"})
    assert len(j.entries) == 1
