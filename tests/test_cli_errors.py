"""Every user mistake is one line on stderr naming the input, exit status 2, no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tilecast.cli import main

STILL = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "stills" / "00.jpg"
OFF_IMAGE = "0,0,5000,0,5000,5000,0,5000"

# (command line, what the line must name); {frames} is a folder holding one still, {tmp} a
# scratch folder, {file} a plain file, {junk} a file that is no tile set or word list.
MISTAKES = [
    ("annotate {frames} -o {tmp}/g.gcg --profile nosuch", ["--profile", "nosuch"]),
    ("run --source {frames} --profile nosuch", ["--profile", "nosuch"]),
    ("annotate {frames} -o {tmp}/g.gcg --profile {tmp}/none.toml", ["--profile", "none.toml"]),
    ("annotate {frames} -o {tmp}/g.gcg --lexicon {tmp}/none.txt", ["--lexicon", "none.txt"]),
    ("run --source {frames} --lexicon {junk}", ["--lexicon", "junk"]),
    ("annotate {frames} -o {tmp}/g.gcg --tileset {tmp}/none.npz", ["--tileset", "none.npz"]),
    ("run --source {frames} --tileset {junk}", ["--tileset", "junk", "not a tile set from"]),
    ("read-board {still} --tileset {tmp}/none.npz", ["--tileset", "none.npz"]),
    ("annotate {frames} -o {tmp}", ["-o", "is a folder"]),
    ("annotate {frames} -o {file}/g.gcg", ["-o", "g.gcg", "is not a folder"]),
    ("annotate {frames} -o {file}/sub/g.gcg", ["-o", "g.gcg", "cannot write there"]),
    ("enroll {still} -o {tmp}", ["-o", "is a folder"]),
    ("annotate {frames} -o {tmp}/g.gcg --still -1", ["--still", "-1"]),
    ("annotate {frames} -o {tmp}/g.gcg --still 0", ["--still", "0"]),
    ("annotate {frames} -o {tmp}/g.gcg --fps 0", ["--fps", "0"]),
    ("run --source {frames} --fps nan", ["--fps", "nan"]),
    ("serve --still inf", ["--still", "inf"]),  # no --board: a serve gone ahead stops
    ("serve --max-streams 0", ["--max-streams", "0"]),
    ("enroll {still} --fps -2 -o {tmp}/t.npz", ["--fps", "-2"]),
    ("annotate {frames} -o {tmp}/g.gcg --corners nan,0,400,0,400,400,0,400", ["--corners"]),
    ("annotate {frames} -o {tmp}/g.gcg --corners inf,0,400,0,400,400,0,400", ["--corners"]),
    ("annotate {frames} -o {tmp}/g.gcg --corners 0,0,400,0,100,100,0,400", ["--corners"]),
    ("annotate {frames} -o {tmp}/g.gcg --corners 0,0,100,0,200,0,300,0", ["--corners"]),
    ("read-board {still} --corners " + OFF_IMAGE, ["--corners", "outside"]),
    ("enroll {still} -o {tmp}/t.npz --corners " + OFF_IMAGE, ["--corners", "outside"]),
    ("annotate {frames} -o {tmp}/g.gcg --board ../x", ["--board", "board name '../x'"]),
    ("run --source {frames} --board a/b", ["--board", "board name 'a/b'"]),
    ("annotate {frames} -o {tmp}/g.gcg --out-dir {number}", ["journal.jsonl:2", "JSON object"]),
    ("run --source {frames} --out-dir {null}", ["journal.jsonl:2", "JSON object"]),
    ("annotate {frames} -o {tmp}/g.gcg --out-dir {bytes}", ["journal.jsonl:2", "not UTF-8"]),
]
# Journals damaged before their last line (a torn last line is a crash's, and dropped): the
# run is refused, and the journal left as it was.
DAMAGED = {"number": b"5\n", "null": b"null\n", "bytes": b"\xff\xfe\n"}


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(STILL, frames / "0000.jpg")
    (tmp_path / "file").write_text("a file, not a folder\n")
    (tmp_path / "junk").write_text("12 34\n")
    for name, line in DAMAGED.items():
        (tmp_path / name).mkdir()
        journal = b'{"seq":0,"type":"pass"}\n' + line + b'{"seq":2,"type":"pass"}\n'
        (tmp_path / name / "board1.journal.jsonl").write_bytes(journal)
    return {
        **{name: str(tmp_path / name) for name in DAMAGED},
        "frames": str(frames),
        "tmp": str(tmp_path / "scratch"),
        "file": str(tmp_path / "file"),
        "junk": str(tmp_path / "junk"),
        "still": str(STILL),
    }


@pytest.mark.parametrize(("line", "named"), MISTAKES, ids=[line for line, _ in MISTAKES])
def test_a_user_mistake_is_one_line_naming_the_input(line, named, places, monkeypatch, capsys):
    Path(places["tmp"]).mkdir()
    monkeypatch.chdir(places["tmp"])  # what a run that went ahead writes lands here
    try:
        status = main(line.format(**places).split())
    except SystemExit as exc:
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tilecast ") and "Traceback" not in err
    for part in named:
        assert part in lines[0], lines[0]
    for name, line in DAMAGED.items():  # nothing recorded is lost
        journal = Path(places[name]) / "board1.journal.jsonl"
        assert journal.read_bytes().count(b"\n") == 3 and line in journal.read_bytes()


def test_a_video_damaged_partway_records_what_was_read_and_fails(tmp_path, capsys):
    """Decoding stops a third of the way in: the record of what was read is written, and the
    run says how much of the file it read and exits 1."""
    video = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "game_b.mp4"
    data = bytearray(video.read_bytes())
    third = len(data) // 3
    data[third:third + 20000] = bytes(20000)
    damaged = tmp_path / "damaged.mp4"
    damaged.write_bytes(bytes(data))
    status = main(["annotate", str(damaged), "-o", str(tmp_path / "g.gcg")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1
    assert "decoding stopped at frame" in err[-1] and "damaged.mp4" in err[-1]
    assert "g.gcg" in err[-1] and "Traceback" not in "\n".join(err)
    assert (tmp_path / "g.gcg").read_text().startswith("#player1")


@pytest.mark.parametrize("name", ["Bob\n>Bob: ABC 8H ABC +500 500", "Ann\r", "\t"])
def test_a_player_name_that_is_not_one_printable_line_is_refused(name, tmp_path, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["annotate", str(STILL.parent), "-o", str(tmp_path / "g.gcg"), "--player2", name])
    err = capsys.readouterr().err.strip().splitlines()
    assert caught.value.code == 2 and len(err) == 1 and "--player2" in err[0]
    assert not (tmp_path / "g.gcg").exists()


def test_the_record_never_carries_a_line_break_from_a_name():
    from tilecast.engine.record import players

    first, second = players("Ann", "Bob\n>Bob: ABC 8H ABC +500 500")
    assert "\n" not in second.name and second.name.startswith("Bob ")
