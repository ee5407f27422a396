"""A strict GCG grammar, written from the format's definition
(https://www.poslfit.com/scrabble/gcg/) and what Macondo and Quackle demand of it, that every
record Tilecast writes for other tools must pass: `tilecast annotate` on the fixture videos and
`tilecast selfplay`. It is independent of engine.gcg, so a writer bug cannot hide behind the
reader."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tilecast.cli import main
from tilecast.vision.locate import order_corners

ROOT = Path(__file__).resolve().parents[1]
VIDEOS = sorted((ROOT / "fixtures" / "render").glob("*.mp4"))

NICK = r"[^\s:]+"
RACK = r"[A-Z?]*"
COORD = re.compile(r"(?P<row>[1-9]|1[0-5])(?P<col>[A-O])|(?P<col2>[A-O])(?P<row2>[1-9]|1[0-5])")
MOVE = re.compile(
    rf">(?P<nick>{NICK}): (?P<rack>{RACK}) (?P<move>\S+(?: [A-Za-z.]+)?) "
    r"(?P<score>[+-](?:0|[1-9][0-9]*)) (?P<total>-?(?:0|[1-9][0-9]*))"
)
PRAGMA = re.compile(r"#(?P<key>[a-z][a-z0-9-]*)(?: (?P<value>\S.*))?")
HEAD_ONLY = {"title", "description", "id", "lexicon"}  # Macondo refuses these after a move


def shown_tiles(word: str) -> str:
    """The tiles a play puts down: a letter for itself, '?' for a blank, nothing for '.'."""
    return "".join("?" if ch.islower() else ch for ch in word if ch != ".")


def violations(text: str) -> list[str]:
    """Every way `text` breaks the grammar, as 'line N: why' (empty when it is strict GCG)."""
    found: list[str] = []
    if not text.endswith("\n") or "\r" in text:
        found.append("lines must end with a single LF")
    lines = text.split("\n")[:-1]
    players: dict[str, int] = {}
    totals: Counter[str] = Counter()
    moves = 0
    in_note = False
    last_play: tuple[str, str, int] | None = None  # (nick, rack, score) of the standing play
    last_turn = ""  # nick of the last play, pass or exchange
    ended = False
    for n, line in enumerate(lines, 1):

        def bad(why: str, n: int = n) -> None:
            found.append(f"line {n}: {why}")

        if line != line.strip() or not line or "  " in line.replace(":  ", ": ", 1):
            bad("blank line, or blanks around or doubled between fields")
        if line.startswith("#character-encoding"):
            if n != 1 or line != "#character-encoding UTF-8":
                bad("#character-encoding UTF-8 belongs on line 1 only")
            continue
        if line.startswith("#"):
            pragma = PRAGMA.fullmatch(line)
            if pragma is None:
                bad("malformed pragma")
                continue
            key, value = pragma["key"], pragma["value"] or ""
            in_note = key == "note"
            if m := re.fullmatch(r"player([12])", key):
                parts = value.split(" ", 1)
                if moves or not re.fullmatch(NICK, parts[0]) or parts[0] in players:
                    bad("#playerN: a new nickname without ':', before the first move")
                players[parts[0]] = int(m[1])
            elif re.fullmatch(r"rack[12]", key) and not re.fullmatch(r"[A-Z?]+", value):
                bad(f"#{key} is not a rack")
            elif key in HEAD_ONLY and moves:
                bad(f"#{key} after the first move")
            continue
        if not line.startswith(">"):
            if not in_note or line[0] in "#>":
                bad("text that continues no note")
            continue
        in_note = False
        moves += 1
        m = MOVE.fullmatch(line)
        if m is None:
            bad("not '>nick: RACK move score total' with one blank between fields")
            continue
        nick, rack, move, score = m["nick"], m["rack"], m["move"], int(m["score"])
        if nick not in players:
            bad(f"unknown player {nick!r}")
        if not rack and re.fullmatch(r"-(?:[A-Z?]+|[1-7])?", move):
            bad("a pass or exchange needs a rack (Macondo's patterns want one)")
        totals[nick] += score
        if int(m["total"]) != totals[nick]:
            bad(f"total {m['total']} is not the previous total plus {m['score']}")
            totals[nick] = int(m["total"])
        turn = True
        if " " in move:
            coord, word = move.split(" ")
            c = COORD.fullmatch(coord)
            tiles = shown_tiles(word)
            if c is None:
                bad(f"coordinate {coord!r} is not 8G (across) or H8 (down), in capitals")
            else:
                # 8G runs along row 8 from column G, H8 down column H from row 8
                start = ord(c["col"]) - ord("A") + 1 if c["row"] else int(c["row2"])
                if start + len(word) - 1 > 15:
                    bad(f"{coord} {word} runs off the board")
            if not tiles or Counter(tiles) - Counter(rack):
                bad(f"rack {rack!r} does not hold the tiles played, {tiles!r}")
            last_play = (nick, rack, score)
        elif move == "-":
            if score != 0:
                bad("a pass scores +0")
            last_play = None
        elif move == "--":
            if last_play is None or last_play[0] != nick:
                bad("a withdrawal without a play of this player before it")
            elif score != -last_play[2] or sorted(rack) != sorted(last_play[1]):
                bad("a withdrawal takes back the play's score, shown with the play's rack")
            last_play, turn = None, False
        elif re.fullmatch(r"-(?:[A-Z?]+|[1-7])", move):
            named = "" if move[1:].isdigit() else move[1:]
            if score != 0 or Counter(named) - Counter(rack):
                bad("an exchange scores +0 and its tiles come from the rack")
            last_play = None
        elif move == "(challenge)":
            if last_play is None or last_play[0] != nick or score <= 0:
                bad("a challenge bonus is positive and goes to the player of the last play")
            turn = False
        elif move == "(time)":
            if score >= 0:
                bad("a time penalty is negative")
            ended, turn = True, False
        elif re.fullmatch(r"\([A-Z?]+\)", move):
            own = rack != ""
            if own and (sorted(rack) != sorted(move[1:-1]) or score > 0):
                bad("a rack deducted is the player's own rack, shown before it, with -points")
            if not own and score < 0:
                bad("the rack bonus for going out is not negative")
            ended, turn = True, False
        else:
            bad(f"unrecognised move {move!r}")
            turn = False
        if turn:  # a play, pass or exchange
            if ended:
                bad("a turn after the game ended")
            if nick == last_turn:
                bad("two turns in a row by one player")
            last_turn = nick
    if sorted(players.values()) != [1, 2]:
        found.append("needs #player1 and #player2")
    return found


# --- the grammar itself ------------------------------------------------------------------

VALID = """#character-encoding UTF-8
#player1 Ann Ann Smith
#player2 Bob Bob Jones
#description Tilecast
#lexicon ENABLE
#id tilecast board1
>Ann: AEFIMRT 8G FIRM +18 18
#note a note
that continues
>Bob: ?DENOTW H5 TOW.ED +18 18
>Bob: DENOTW? -- -18 0
>Ann: AEGT J7 GATE +16 34
>Ann:  (challenge) +5 39
>Bob: ?DENOTW -?W +0 0
>Ann: AE -1 +0 39
>Bob: DENOT - +0 0
>Ann: AE 10G AE +10 49
>Bob: INU (INU) -3 -3
>Ann:  (INU) +3 52
>Bob:  (time) -10 -13
#rack1 AE
"""


def test_the_grammar_accepts_every_kind_of_line():
    assert violations(VALID) == []


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        (">Ann:  (challenge)", ">Ann: (challenge)", "one blank between fields"),
        (">Ann: AEFIMRT 8G", ">Ann: 8G", "not '>nick: RACK move"),
        ("8G FIRM", "8g FIRM", "coordinate '8g'"),
        ("8G FIRM", "16G FIRM", "coordinate '16G'"),
        ("8G FIRM", "P8 FIRM", "coordinate 'P8'"),
        ("8G FIRM", "8M FIRM", "runs off the board"),
        ("AEFIMRT 8G", "AEIRT 8G", "does not hold the tiles played"),
        ("+18 18\n#note", "+18 19\n#note", "total 19"),
        ("DENOTW? -- -18", "DENOTW? -- -17", "takes back the play's score"),
        (">Bob: DENOTW? --", ">Ann: DENOTW? --", "withdrawal without a play"),
        (">Ann:  (challenge) +5 39", ">Bob:  (challenge) +5 5", "challenge bonus"),
        ("-?W +0", "-XW +0", "exchange scores +0"),
        (">Bob: DENOT - +0 0", ">Bob: DENOT - +1 1", "a pass scores +0"),
        (">Bob: DENOT - +0 0", ">Bob:  - +0 0", "a pass or exchange needs a rack"),
        (">Ann: AE -1 +0 39", ">Ann:  -1 +0 39", "a pass or exchange needs a rack"),
        ("(time) -10 -13", "(time) +10 7", "time penalty is negative"),
        (">Bob: INU (INU) -3", ">Bob: IN (INU) -3", "player's own rack"),
        ("-1 +0 39", "-ZZ9 +0 39", "unrecognised move"),
        ("#rack1 AE", "#lexicon ENABLE", "#lexicon after the first move"),
        ("#rack1 AE", "#rack1 ae", "#rack1 is not a rack"),
        ("that continues", "# that continues", "malformed pragma"),
        (">Bob: DENOT - +0 0", ">Ann: AE - +0 39", "two turns in a row"),
        ("#rack1 AE", ">Ann: AE - +0 52", "a turn after the game ended"),
        ("#player2 Bob Bob Jones", "#player2 Ann Bob", "a new nickname"),
        ("#description Tilecast\n", "#description  Tilecast\n", "doubled between fields"),
        ("\n#note a note", "\n\n#note a note", "blank line"),
    ],
)
def test_the_grammar_refuses(old, new, why):
    assert old in VALID
    found = violations(VALID.replace(old, new, 1))
    assert any(why in v for v in found), found


def test_the_grammar_wants_lf_line_ends():
    assert "lines must end with a single LF" in violations(VALID.replace("\n", "\r\n"))


# --- what Tilecast writes ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_selfplay_records_are_strict_gcg(tmp_path, capsys, seed):
    out = tmp_path / "game.gcg"
    assert main(["selfplay", "--seed", str(seed), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert violations(text) == []
    assert text.count("\n>") > 10


def corners(video: Path) -> str:
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    found = order_corners(np.float32(truth["frames"][0]["corners"]))  # a still camera
    return ",".join(f"{v:.1f}" for v in found.ravel())


# What the camera cannot see, entered from an events file: lines of every other kind.
EVENTS = [
    {"type": "exchange", "tiles": "QU?", "time": 0.5},
    {"type": "pass", "time": 9999},
    {"type": "exchange", "count": 3, "time": 9999},
    {"type": "time", "player": 0, "seconds_over": 700, "time": 9999},  # a forfeit: the end
]


@pytest.mark.parametrize("events", [False, True], ids=["camera", "camera+events"])
@pytest.mark.parametrize("video", VIDEOS, ids=[v.stem for v in VIDEOS])
def test_annotate_records_are_strict_gcg(tmp_path, video, events):
    out = tmp_path / "game.gcg"
    command = [sys.executable, "-m", "tilecast.cli", "annotate", str(video), "-o", str(out),
               "--corners", corners(video), "--out-dir", str(tmp_path / "run")]
    if events:
        lines = "".join(json.dumps(e) + "\n" for e in EVENTS)
        (tmp_path / "events.jsonl").write_text(lines)
        command += ["--events", str(tmp_path / "events.jsonl")]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    text = out.read_text(encoding="utf-8")
    assert violations(text) == []
    assert " -- " in text or text.count("\n>") >= 3  # the camera recorded plays
    if events:
        assert ":  (time) " in text and ": QU? -QU? +0 0" in text
        # the pass and the exchange of three unnamed tiles show nothing of their racks: a
        # stand-in tile each, and a note saying so
        assert re.search(r": [A-Z] - \+0 ", text) and re.search(r": [A-Z] -3 \+0 ", text)
        assert text.count("#note Tilecast: rack unknown;") == 2


# --- what real records do -------------------------------------------------------------------

PASS_OR_EXCHANGE = re.compile(r">[^:]+:[ \t]+(\S*)[ \t]+-(?:[A-Z?]+|[0-9]+)?[ \t]+\+0\b")


@pytest.mark.parametrize("tool", ["macondo", "liwords"])
def test_records_macondo_and_woogles_wrote_always_give_a_pass_or_exchange_its_rack(tool):
    """Why a pass or exchange whose rack Tilecast does not know gets a stand-in tile rather
    than an empty field: no record these tools wrote has one (docs/gcg.md)."""
    from tests.conftest import shared_dir

    lines = [line for path in sorted(shared_dir("gcg", tool).glob("*.gcg"))
             for line in path.read_bytes().decode("latin-1").splitlines()]
    moves = [m for line in lines if (m := PASS_OR_EXCHANGE.match(line))]
    assert len(moves) > 10
    assert [m.string for m in moves if not m[1]] == []
