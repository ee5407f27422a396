"""Every user mistake is one line on stderr naming the input, exit status 2 (1 for a run that
failed partway, its record of what was read written), no traceback."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecast import pluginmanager
from tilecast.cli import main
from tilecast.hookspecs import hookimpl

STILL = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "stills" / "00.jpg"
OFF_IMAGE = "0,0,5000,0,5000,5000,0,5000"

# (command line, what the line must name); {frames} is a folder holding one still, {tmp} a
# scratch folder, {file} a plain file, {junk} a file that is no tile set or word list, {number},
# {null} and {bytes} out-dirs whose journal's second line is damaged, {damaged} a video damaged
# a third of the way in, {steady} two seconds of the still (a folder plays at 10 frames a
# second), {shrinking} the same with its second second a corner of the still.
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
    ("annotate {frames} -o {tmp}/g.gcg --out-dir {file}", ["--out-dir", "is not a folder"]),
    ("annotate {frames} -o {tmp}/g.gcg --out-dir /proc/tilecast", ["--out-dir", "cannot write"]),
    ("run --source {frames} --out-dir /proc/tilecast", ["--out-dir", "cannot write there"]),
    ("annotate {frames} -o {tmp}/g.gcg --still -1", ["--still", "-1"]),
    ("annotate {frames} -o {tmp}/g.gcg --still 0", ["--still", "0"]),
    ("annotate {frames} -o {tmp}/g.gcg --fps 0", ["--fps", "0"]),
    ("run --source {frames} --fps nan", ["--fps", "nan"]),
    ("serve --still inf", ["--still", "inf"]),  # no --board: a serve gone ahead stops
    ("serve --max-streams 0", ["--max-streams", "0"]),
    ("serve --board a --port 99999", ["--port", "99999"]),  # once served on no port at all
    ("serve", ["give at least one --board or an --event file"]),  # (once exit 1)
    ("plugins --disable-plugin consol", ["--disable-plugin", "consol", "console"]),
    ("selfplay -o {file}/g.gcg", ["-o", "file/g.gcg", "cannot write there"]),  # (a traceback)
    ("selfplay -o {tmp}", ["-o", "cannot write there", "Is a directory"]),
    ("annotate {frames} -o {tmp}/g.gcg --disable-plugin alert", ["--disable-plugin", "alert"]),
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
# Mistakes found only during the run, which fails (exit 1) once it has written the record of
# what was read to -o; `during` is what happens to the out-dir {tmp}/out mid-run.
FAILED_RUNS = [
    ("annotate {damaged} -o {tmp}/g.gcg", None,
     ["decoding stopped at frame", "damaged.mp4", "g.gcg"]),
    ("annotate {steady} -o {tmp}/g.gcg --out-dir {tmp}/out", "read-only",
     ["out/board1.gcg", "cannot write the live record", "Permission denied", "g.gcg"]),
    ("annotate {boardless} -o {tmp}/g.gcg", None,
     ["boardless", "no board found in any of its 10 frames read", "no board-like outline",
      "g.gcg"]),
]
# Mistakes of the same list that the run rides out, recording all it reads (the journal and
# the live record hold the whole run), then says and exits 1: it met bad input.
STILL_H, STILL_W = cv2.imread(str(STILL)).shape[:2]
RIDDEN_OUT = [
    ("annotate {steady} -o {tmp}/g.gcg --out-dir {tmp}/out", "vanishing",
     ["out-dir", "/out", "removed during the run", "g.gcg"]),
    ("annotate {shrinking} -o {tmp}/g.gcg --out-dir {tmp}/out", None,
     ["shrinking", f"frame 10 is {STILL_W // 4}x{STILL_H // 3} pixels",
      f"the first was {STILL_W}x{STILL_H}", "g.gcg"]),
]
# Journals damaged before their last line (a torn last line is a crash's, and dropped): the
# run is refused, and the journal left as it was.
DAMAGED = {"number": b"5\n", "null": b"null\n", "bytes": b"\xff\xfe\n"}
VIDEO = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "game_b.mp4"


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(STILL, frames / "0000.jpg")
    for name in ("steady", "shrinking"):
        (tmp_path / name).mkdir()
        for i in range(20):
            shutil.copy(STILL, tmp_path / name / f"{i:04d}.jpg")
    (tmp_path / "boardless").mkdir()  # a camera pointed at a bare table
    for i in range(20):
        cv2.imwrite(str(tmp_path / "boardless" / f"{i:04d}.jpg"), np.full((360, 640, 3), 120,
                                                                          np.uint8))
    image = cv2.imread(str(STILL))
    for i in range(10, 20):  # (at --fps 6 the folder's even frames are read)
        cv2.imwrite(str(tmp_path / "shrinking" / f"{i:04d}.jpg"),
                    image[: image.shape[0] // 3, : image.shape[1] // 4])
    (tmp_path / "file").write_text("a file, not a folder\n")
    (tmp_path / "junk").write_text("12 34\n")
    for name, line in DAMAGED.items():
        (tmp_path / name).mkdir()
        journal = b'{"seq":0,"type":"pass"}\n' + line + b'{"seq":2,"type":"pass"}\n'
        (tmp_path / name / "board1.journal.jsonl").write_bytes(journal)
    return {
        **{name: str(tmp_path / name) for name in DAMAGED},
        "frames": str(frames),
        "steady": str(tmp_path / "steady"),
        "shrinking": str(tmp_path / "shrinking"),
        "boardless": str(tmp_path / "boardless"),
        "tmp": str(tmp_path / "scratch"),
        "file": str(tmp_path / "file"),
        "junk": str(tmp_path / "junk"),
        "still": str(STILL),
        "damaged": str(tmp_path / "damaged.mp4"),
    }


def damage_video(path: Path) -> None:
    """game_b with 20 kB zeroed a third of the way in: decoding stops there."""
    data = bytearray(VIDEO.read_bytes())
    third = len(data) // 3
    data[third:third + 20000] = bytes(20000)
    path.write_bytes(bytes(data))


def meddle(during: str | None, out: Path, monkeypatch) -> None:
    """What happens to the out-dir mid-run: made read-only after the live record's first write
    (faked where the tests run as root, whom permissions do not stop), or removed whole once
    the first still reading is journaled."""
    if during == "read-only":
        real, writes = tempfile.mkstemp, []

        def mkstemp(*args, dir=None, **kwargs):
            if Path(dir) == out:
                writes.append(dir)
                if len(writes) > 1:
                    raise PermissionError(13, "Permission denied")
            return real(*args, dir=dir, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    elif during == "vanishing":
        class ClearsTheOutDir:
            @hookimpl
            def tilecast_board_committed(self, session):
                shutil.rmtree(session.out_dir)

        built_ins = pluginmanager.built_ins
        monkeypatch.setattr(pluginmanager, "built_ins",
                            lambda: [*built_ins(), ("clears", ClearsTheOutDir())])


def run(line: str, places: dict[str, str], monkeypatch, capsys) -> tuple[int, list[str]]:
    """The command's exit status and its stderr lines, progress lines left out."""
    Path(places["tmp"]).mkdir()
    monkeypatch.chdir(places["tmp"])  # what a run that went ahead writes lands here
    try:
        status = main(line.format(**places).split())
    except SystemExit as exc:
        status = exc.code
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, [x for x in err.split("\n") if x.strip() and not x.startswith("\r")]


@pytest.mark.parametrize(("line", "during", "status", "named"),
                         [(line, None, 2, named) for line, named in MISTAKES]
                         + [(line, during, 1, named) for line, during, named
                            in FAILED_RUNS + RIDDEN_OUT],
                         ids=[case[0] + (f" ({case[1]})" if case[1] else "")
                              for case in [(line, None) for line, _ in MISTAKES]
                              + [(line, during) for line, during, _ in FAILED_RUNS + RIDDEN_OUT]])
def test_a_user_mistake_is_one_line_naming_the_input(line, during, status, named, places,
                                                     monkeypatch, capsys):
    if "{damaged}" in line:
        damage_video(Path(places["damaged"]))
    out = Path(places["tmp"]) / "out"
    meddle(during, out, monkeypatch)
    got, err = run(line, places, monkeypatch, capsys)
    assert got == status, err
    assert len(err) == 1 and err[0].startswith("tilecast "), err
    for part in named:
        assert part in err[0], err[0]
    if (line, during, named) in RIDDEN_OUT:  # the journal and the live record hold it all
        assert out.joinpath("board1.gcg").read_text() == \
            Path(places["tmp"], "g.gcg").read_text()
        assert '"type":"board"' in out.joinpath("board1.journal.jsonl").read_text()
    if status == 1:  # a failed run: the record of what was read is written
        assert Path(places["tmp"], "g.gcg").read_text().startswith("#player1")
    for name, damage in DAMAGED.items():  # nothing recorded is lost
        journal = Path(places[name]) / "board1.journal.jsonl"
        assert journal.read_bytes().count(b"\n") == 3 and damage in journal.read_bytes()


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
