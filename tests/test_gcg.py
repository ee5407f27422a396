"""The GCG reader and writer: each event form, pragmata, notes, encodings, errors, the corpus."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from tilecast.engine.board import Coord
from tilecast.engine.gcg import MAX_LINE, GcgError, GcgRecord, format_gcg, parse_gcg

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "gcg"

HEAD = "#player1 Tim Tim Weiss\n#player2 Josh Josh Castellano\n"


def one_event(line: str):
    """The single event of a record made of the standard head and `line`."""
    (event,) = parse_gcg(HEAD + line + "\n").events
    return event


def error_of(text: str | bytes, source: str = "t.gcg") -> GcgError:
    with pytest.raises(GcgError) as info:
        parse_gcg(text, source)
    return info.value


def without_positions(record: GcgRecord) -> GcgRecord:
    """The record minus where it was read from, for comparing a record with its rewrite."""
    events = tuple(dataclasses.replace(ev, line=0) for ev in record.events)
    return dataclasses.replace(record, source="", events=events)


def round_trip(record: GcgRecord) -> GcgRecord:
    return parse_gcg(format_gcg(record).encode("utf-8"))


# --- event forms ---------------------------------------------------------------------------


def test_play():
    ev = one_event(">Tim: AEITW?X 8D WAITEd +24 24")
    assert (ev.kind, ev.player, ev.rack, ev.word) == ("play", "Tim", "AEITW?X", "WAITEd")
    assert ev.coord == Coord(7, 3, True)
    assert (ev.score, ev.total, ev.line, ev.extra, ev.note) == (24, 24, 3, "", "")


def test_play_down_and_played_through():
    ev = one_event(">Josh: ADEIINR E5 DAIN.IER +86 108")
    assert ev.coord == Coord(4, 4, False)
    assert ev.word == "DAIN.IER"


def test_played_through_letters_written_out_are_kept_as_written():
    assert one_event(">Josh: EEIKRSU 2B BRUIT +32 297").word == "BRUIT"


@pytest.mark.parametrize(
    ("text", "coord", "written"),
    [("d10", Coord(9, 3, False), "D10"), ("15l", Coord(14, 11, True), "15L")],
)
def test_lower_case_coordinates_are_normalised(text, coord, written):
    record = parse_gcg(HEAD + f">Tim: NOEL {text} NOEL +19 19\n")
    assert record.events[0].coord == coord
    assert f" {written} NOEL " in format_gcg(record)


def test_pass():
    ev = one_event(">Josh: GROUU - +0 287")
    assert (ev.kind, ev.rack, ev.score, ev.total) == ("pass", "GROUU", 0, 287)


def test_exchange_by_letters():
    ev = one_event(">Tim: DIIIILU -IIILU +0 0")
    assert (ev.kind, ev.exchanged, ev.exchange_count) == ("exchange", "IIILU", 5)


def test_exchange_with_blank():
    assert one_event(">Tim: ?AEIRST -? +0 0").exchanged == "?"


def test_exchange_by_count():
    ev = one_event(">Josh: IIIU -4 +0 349")
    assert (ev.kind, ev.exchanged, ev.exchange_count, ev.rack) == ("exchange", "", 4, "IIIU")


@pytest.mark.parametrize(("score", "value"), [("-67", -67), ("+0", 0)])
def test_withdrawn_phony(score, value):
    ev = one_event(f">Tim: AEIMPYZ --  {score} 110")
    assert (ev.kind, ev.rack, ev.score, ev.total) == ("withdraw", "AEIMPYZ", value, 110)


def test_challenge_bonus_with_and_without_rack():
    ev = one_event(">Josh: ANNSTUU (challenge) +5 172")
    assert (ev.kind, ev.rack, ev.score) == ("challenge_bonus", "ANNSTUU", 5)
    assert one_event(">Josh:  (challenge) +5 100").rack == ""


def test_end_rack_points_of_the_player_who_went_out():
    ev = one_event(">Josh:  (RELATCH) +24 539")
    assert (ev.kind, ev.rack, ev.tiles, ev.score, ev.total) == ("end_rack", "", "RELATCH", 24, 539)


def test_end_rack_deducted_from_own_rack():
    ev = one_event(">Tim: ?AEEOTT (?AEEOTT) -6 -6")
    assert (ev.kind, ev.rack, ev.tiles, ev.score, ev.total) == (
        "end_rack",
        "?AEEOTT",
        "?AEEOTT",
        -6,
        -6,
    )


def test_time_penalty_with_and_without_rack():
    ev = one_event(">Tim:  (time) -20 358")
    assert (ev.kind, ev.rack, ev.score, ev.total) == ("time", "", -20, 358)
    assert one_event(">Tim: NU (time) -10 422").rack == "NU"


def test_extra_tokens_after_the_total_are_kept():
    ev = one_event(">Tim: IEOSNNL   d10 NOEL            +19  338  NO, OF,  ET")
    assert (ev.word, ev.total, ev.extra) == ("NOEL", 338, "NO, OF, ET")


def test_empty_rack_before_a_play():
    ev = one_event(">Tim: 8D WAITE +24 24")
    assert (ev.rack, ev.kind, ev.word) == ("", "play", "WAITE")


def test_non_english_letters():
    ev = one_event(">Tim: ĆĘIKPST 8G STĘPIĆ +46 46")
    assert (ev.rack, ev.word) == ("ĆĘIKPST", "STĘPIĆ")


def test_tabs_and_spaces_separate_tokens():
    ev = one_event(">Tim:\tAEITW \t 8D\tWAITE\t+24\t24")
    assert (ev.rack, ev.word, ev.total) == ("AEITW", "WAITE", 24)


# --- pragmata --------------------------------------------------------------------------------


def test_players():
    record = parse_gcg(HEAD)
    assert [(p.number, p.nickname, p.name) for p in record.players] == [
        (1, "Tim", "Tim Weiss"),
        (2, "Josh", "Josh Castellano"),
    ]
    assert record.player_index("Josh") == 1
    with pytest.raises(GcgError, match="unknown player 'Jack'"):
        record.player_index("Jack")


def test_player_without_full_name():
    record = parse_gcg("#player1 Tim\n#player2 Josh\n")
    assert record.players[0].name == ""
    assert format_gcg(record).startswith("#player1 Tim\n#player2 Josh\n")


def test_pragmata_kept_in_order_and_read_through_properties():
    text = (
        "#character-encoding UTF-8\n#title A game\n" + HEAD + "#description Club night\n"
        "#id io.woogles p6QRjJHG\n#lexicon CSW21\n#game-type classic\n#incomplete\n"
        ">Tim: AEITW 8D WAITE +24 24\n#rack1 ABC?\n#rack2 DEF\n#title Renamed\n"
    )
    record = parse_gcg(text)
    assert record.pragmas == (
        ("title", "A game"),
        ("description", "Club night"),
        ("id", "io.woogles p6QRjJHG"),
        ("lexicon", "CSW21"),
        ("game-type", "classic"),
        ("incomplete", ""),
        ("rack1", "ABC?"),
        ("rack2", "DEF"),
        ("title", "Renamed"),
    )
    assert record.title == "Renamed"  # the later line wins
    assert (record.description, record.game_id, record.lexicon) == (
        "Club night",
        "io.woogles p6QRjJHG",
        "CSW21",
    )
    assert record.incomplete
    assert (record.final_rack(0), record.final_rack(1)) == ("ABC?", "DEF")


def test_absent_pragmata():
    record = parse_gcg(HEAD)
    assert (record.title, record.lexicon, record.incomplete, record.final_rack(0)) == (
        None,
        None,
        False,
        None,
    )


# --- notes -----------------------------------------------------------------------------------


def test_notes_attach_to_the_game_or_the_preceding_event():
    text = (
        HEAD + "#note before any move\n"
        ">Tim: AEITW 8D WAITE +24 24\n"
        "#note this\nis\n\n  a multiline  \nnote\n"
        ">Josh: DEEFINO 7C DEFO +22 22\n"
        ">Tim: EIINSTU I2 UNITIES +68 92\n#note one\n#note two\n"
    )
    record = parse_gcg(text)
    assert record.note == "before any move"
    assert [ev.note for ev in record.events] == ["this\nis\na multiline\nnote", "", "one\ntwo"]


def test_notes_keep_their_own_lines_and_continuation_lines():
    """Macondo joins consecutive #note lines with nothing between and a continuation line with
    a line break, so a rewrite keeps each line as it was written."""
    text = HEAD + "#note a\n#note b\nc\n>Tim: AEITW 8D WAITE +24 24\n#note d\ne\n#note f\n"
    record = parse_gcg(text)
    assert (record.note, record.note_marks) == ("a\nb\nc", (1,))
    assert (record.events[0].note, record.events[0].note_marks) == ("d\ne\nf", (2,))
    assert format_gcg(record) == text


def test_note_after_a_closing_pragma_still_belongs_to_the_last_event():
    record = parse_gcg(HEAD + ">Tim: AEITW 8D WAITE +24 24\n#rack2 ABC\n#note late\n")
    assert record.events[0].note == "late"


def test_text_that_continues_no_note_is_an_error():
    err = error_of(HEAD + "#title x\nstray words\n")
    assert (err.line, err.reason) == (4, "text outside a note: 'stray words'")


def test_writer_keeps_note_lines_that_look_like_pragmata_or_events():
    record = parse_gcg(HEAD + ">Tim: AEITW 8D WAITE +24 24\n#note plain\n")
    note = "first\n#hashtag\n>arrow\n\nlast"
    changed = dataclasses.replace(
        record, events=(dataclasses.replace(record.events[0], note=note),)
    )
    assert round_trip(changed).events[0].note == note


# --- encodings and line ends -----------------------------------------------------------------


def test_iso_8859_1_is_the_default_for_bytes():
    data = (
        b"#player1 c\xe9sar c\xe9sar\n#player2 h\xe9rcules h\xe9rcules\n"
        b">c\xe9sar: DINNVWY 8D WINDY +32 32\n"
    )
    record = parse_gcg(data)
    assert record.players[0].nickname == "césar"
    assert record.events[0].player == "césar"


def test_utf8_when_declared():
    data = "#character-encoding UTF-8\n#player1 césar César\n#player2 łukasz Łukasz\n".encode()
    record = parse_gcg(data)
    assert (record.players[0].name, record.players[1].nickname) == ("César", "łukasz")
    assert record.pragmas == ()


def test_undeclared_utf8_reads_as_iso_8859_1():
    record = parse_gcg("#player1 césar césar\n#player2 doug doug\n".encode())
    assert record.players[0].nickname == "cÃ©sar"


def test_byte_order_mark_means_utf8():
    record = parse_gcg(b"\xef\xbb\xbf#player1 c\xc3\xa9sar x\n#player2 doug doug\n")
    assert record.players[0].nickname == "césar"


def test_byte_order_mark_contradicting_declaration():
    err = error_of(b"\xef\xbb\xbf#character-encoding ISO-8859-1\n" + HEAD.encode())
    assert err.line == 1
    assert "byte order mark" in err.reason


def test_invalid_utf8_is_reported_on_its_line():
    data = b"#character-encoding UTF-8\r\n" + HEAD.encode() + b">Tim: AEITW 8D W\xe9ITE +24 24\r\n"
    err = error_of(data)
    assert (err.line, err.reason.startswith("not valid UTF-8")) == (4, True)


@pytest.mark.parametrize("eol", ["\r\n", "\r", "\n"])
def test_line_ends(eol):
    text = eol.join(
        ["#player1 Tim Tim", "#player2 Josh Josh", "", ">Tim: AEITW 8D WAITE +24 24", ""]
    )
    record = parse_gcg(text.encode("ascii"))
    assert record.events[0].line == 4
    assert record.players[1].name == "Josh"


@pytest.mark.parametrize("value", ["ASCII", "ISO8859-6", ""])
def test_unsupported_encoding(value):
    err = error_of(f"#character-encoding {value}\n{HEAD}".encode())
    assert err.line == 1
    assert f"unsupported character encoding {value!r}" in err.reason


def test_encoding_declared_after_line_one():
    err = error_of(HEAD + "#character-encoding UTF-8\n")
    assert (err.line, err.reason) == (3, "#character-encoding must be on the first line")


def test_str_input_checks_the_declaration_too():
    assert parse_gcg("#character-encoding UTF-8\n" + HEAD).players[1].nickname == "Josh"
    assert error_of("#character-encoding ASCII\n" + HEAD).line == 1


# --- errors ----------------------------------------------------------------------------------


def test_error_carries_source_line_and_reason():
    err = error_of(HEAD + ">Tim: AEITW 8D WAITE 24 24\n", source="games/r1.gcg")
    assert isinstance(err, ValueError)
    assert (err.source, err.line) == ("games/r1.gcg", 3)
    assert err.reason == "malformed score '24' (want +N or -N)"
    assert str(err) == "games/r1.gcg:3: malformed score '24' (want +N or -N)"


def test_error_without_a_line():
    err = error_of("#player1 Tim Tim\n", source="x.gcg")
    assert (err.line, str(err)) == (None, "x.gcg: no #player2 line")


def test_a_line_longer_than_the_cap_is_refused_before_it_is_read():
    line = ">Tim: AEITW 8D " + "A" * 10_000_000 + " +24 24"
    err = error_of(HEAD + line + "\n")
    assert err.line == 3
    assert err.reason == f"line is {len(line)} characters long (at most {MAX_LINE})"
    longest = "#note " + "x" * (MAX_LINE - 6)
    assert parse_gcg(HEAD + longest).note == "x" * (MAX_LINE - 6)
    assert error_of(HEAD + longest + "x").line == 3


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        (">" + "J" * 5000 + ": AEITW 8D WAITE +24 24", "unknown player"),
        (">Tim: AEITW 8D " + "W2" * 2500 + " +24 24", "malformed word"),
        ("#rack1 " + "3" * 5000, "#rack1 is not a rack"),
        ("x" * 5000, "text outside a note"),
    ],
)
def test_errors_quote_a_short_excerpt_of_a_long_token(line, quoted):
    reason = error_of(HEAD + line).reason
    assert reason.startswith(quoted) and "... (5000 characters)" in reason
    assert len(reason) < 120


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (">Tim: AEI3TW 8D WAITE +24 24", "malformed rack 'AEI3TW'"),
        (">Tim: aeitw 8D WAITE +24 24", "malformed rack 'aeitw'"),
        (">Tim: AEITW 8D WA2TE +24 24", "malformed word 'WA2TE'"),
        (">Tim: AEITW 8P WAITE +24 24", "not a board coordinate: '8P'"),
        (">Tim: AEITW 16D WAITE +24 24", "not a board coordinate: '16D'"),
        (">Tim: AEITW 8D +24 24", "malformed word '+24'"),
        (">Tim: AEITW 8D", "play at 8D has no word"),
        (">Tim: AEITW 8D WAITE +24", "needs a score and a total"),
        (">Tim: AEITW 8D WAITE +2x4 24", "malformed score '+2x4'"),
        (">Tim: AEITW 8D WAITE +24 2.4", "malformed total '2.4'"),
        (">Tim: AEITW -K.OI +0 0", "malformed exchange '-K.OI'"),
        (">Tim: AEITW (#) +2 2", "malformed rack in '(#)'"),
        (">Tim: AEITW WAITE +24 24", "unrecognised move 'WAITE'"),
        (">Tim: AEITW", "event has no move"),
        (">Tim AEITW 8D WAITE +24 24", "an event line starts '>nickname:'"),
        (">: AEITW 8D WAITE +24 24", "an event line starts '>nickname:'"),
        (">Jack: AEITW 8D WAITE +24 24", "unknown player 'Jack'"),
        ("# title", "'#' without a pragma name"),
        ("#rack1 AB3", "#rack1 is not a rack: 'AB3'"),
    ],
)
def test_malformed_lines_are_rejected_with_their_line(line, reason):
    err = error_of(HEAD + line + "\n")
    assert err.line == 3
    assert reason in err.reason


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", None, "empty record"),
        ("\n  \n", None, "empty record"),
        (">Tim: AEITW 8D WAITE +24 24\n" + HEAD, 1, "unknown player 'Tim'"),
        (
            "#player1 Tim Tim\n>Tim: AEITW 8D WAITE +24 24\n#player2 Jo Jo\n",
            3,
            "after the first event",
        ),
        ("#player1 Tim Tim\n#player1 Jo Jo\n", 2, "#player1 declared twice"),
        ("#player1 Tim Tim\n#player2 Tim Tom\n", 2, "nickname 'Tim' is already #player1"),
        (HEAD + "#player3 Ann Ann\n", 3, "#player1 and #player2 only"),
        ("#player1\n", 1, "#player1 has no nickname"),
        ("#player1 a:b A\n", 1, "contains ':'"),
        ("#title only\n", None, "no #player1 line"),
    ],
)
def test_structural_errors(text, line, reason):
    err = error_of(text)
    assert err.line == line
    assert reason in err.reason


def test_semantic_problems_are_left_to_the_replay():
    """Wrong totals, off-turn moves, letters not on the rack, plays off the board all read."""
    record = parse_gcg(
        HEAD + "#description after the head is fine\n"
        ">Tim: AEITW 8D ZZZZZ +999 5\n>Tim: AEITW H9 .PILATES +83 223\n"
        ">Josh: (time) -20 -20\n>Josh: (challenge) +5 0\n"
    )
    assert [ev.kind for ev in record.events] == ["play", "play", "time", "challenge_bonus"]


# --- writer ----------------------------------------------------------------------------------


def test_writer_output_is_standard_gcg():
    text = (
        "#title Final\n#player1 Tim Tim Weiss\n#player2 Josh Josh\n#note good luck\n"
        ">Tim: AEITW?X 8d WAITEd +24 24\n#rack2 DEF\n>Josh:   DEFO - +0 0\n"
        ">Tim: AX -AX +0 24\n>Josh: DEFO -- -10 -10\n>Josh: (challenge) +5 -5\n"
        ">Tim: X  -2  +0  24   note  this\n>Josh: (X) +16 11\n>Tim: X (X) -8 16\n"
        ">Tim: (time) -10 6\n"
    )
    assert format_gcg(parse_gcg(text)) == (
        "#player1 Tim Tim Weiss\n#player2 Josh Josh\n#title Final\n#note good luck\n"
        ">Tim: AEITW?X 8D WAITEd +24 24\n#rack2 DEF\n>Josh: DEFO - +0 0\n"
        ">Tim: AX -AX +0 24\n>Josh: DEFO -- -10 -10\n>Josh:  (challenge) +5 -5\n"
        ">Tim: X -2 +0 24 note this\n>Josh:  (X) +16 11\n>Tim: X (X) -8 16\n"
        ">Tim:  (time) -10 6\n"
    )


def test_writer_keeps_pragmata_where_they_stand_among_the_moves():
    text = (
        HEAD + "#rack1 ABC\n#title early\n>Tim: AEITW 8D WAITE +24 24\n#note n\n"
        "#description late\n>Josh: DEFO 7C DEFO +22 22\n#rack2 XYZ\n"
    )
    record = parse_gcg(text)
    assert record.pragma_after == (0, 0, 1, 2)
    assert format_gcg(record) == text
    assert parse_gcg(format_gcg(record)).pragmas == record.pragmas


def test_built_records_put_pragmata_first_and_final_racks_last():
    events = parse_gcg(HEAD + ">Tim: AEITW 8D WAITE +24 24\n").events
    pragmas = (("title", "t"), ("rack1", "ABC"), ("lexicon", "CSW21"))
    record = GcgRecord("", parse_gcg(HEAD).players, pragmas, events)
    assert record.pragma_after == (0, 1, 1)
    assert format_gcg(record).endswith(">Tim: AEITW 8D WAITE +24 24\n#rack1 ABC\n#lexicon CSW21\n")


@pytest.mark.parametrize("after", [(0,), (0, 2), (1, 0)])
def test_pragma_positions_must_fit_the_pragmata_and_events(after):
    events = parse_gcg(HEAD + ">Tim: AEITW 8D WAITE +24 24\n").events
    with pytest.raises(ValueError, match="pragma"):
        GcgRecord("", parse_gcg(HEAD).players, (("a", ""), ("b", "")), events, pragma_after=after)


@pytest.mark.parametrize(
    "line",
    [">Josh:  (challenge) +5 5", ">Josh:  (time) -10 -10", ">Josh:  (ABC) +10 10"],
)
def test_an_empty_rack_field_keeps_its_place(line):
    text = format_gcg(parse_gcg(HEAD + line.replace(":  ", ": ") + "\n"))
    assert text.endswith(line + "\n")


def test_writer_declares_utf8_only_when_needed():
    ascii_text = format_gcg(parse_gcg("#character-encoding UTF-8\n" + HEAD))
    assert not ascii_text.startswith("#character-encoding")
    text = format_gcg(parse_gcg(b"#player1 c\xe9sar x\n#player2 doug doug\n"))
    assert text.startswith("#character-encoding UTF-8\n#player1 césar x\n")
    assert parse_gcg(text.encode("utf-8")).players[0].nickname == "césar"


# --- corpus ----------------------------------------------------------------------------------

# Files of the corpus that do not read, each checked by hand: (line, part of the reason).
EXPECTED_FAILURES = {
    # An encoding GCG does not define.
    "macondo/gcgio__testdata__name_weird_encoding_with_header.gcg": (
        1,
        "unsupported character encoding 'ISO8859-6'",
    ),
    "magpie/unsupported_character_encoding.gcg": (1, "unsupported character encoding 'ASCII'"),
    "magpie/encoding_wrong_place.gcg": (20, "#character-encoding must be on the first line"),
    # Tokens of the wrong shape.
    "magpie/challenge_bonus_rack_malformed.gcg": (24, "malformed rack 'DEII--R'"),
    "magpie/end_penalty_rack_malformed.gcg": (15, "malformed rack '?AEE3TT'"),
    "magpie/end_points_rack_malformed.gcg": (45, "malformed rack in '(#)'"),
    "magpie/exchange_malformed.gcg": (6, "malformed exchange '-K.OI'"),
    "magpie/invalid_tile_placement.gcg": (27, "not a board coordinate: 'M70'"),
    "magpie/malformed_challenge_rack.gcg": (13, "malformed rack '~!#'"),
    "magpie/malformed_play.gcg": (11, "malformed word 'D.CR2IaLS'"),
    "magpie/malformed_rack.gcg": (30, "malformed rack 'KLMO8RTV'"),
    "magpie/pass_rack_malformed.gcg": (28, "malformed rack 'HLMOO3Y'"),
    "magpie/no_matching_token.gcg": (10, "unrecognised move 'DAIN.IER'"),
    "scorable/cresta-yorra-2006.gcg": (47, "an event line starts '>nickname:'"),  # '>Cresta" (LN)'
    # Players that events cannot be attributed to.
    "magpie/empty.gcg": (None, "empty record"),
    "magpie/duplicate_nicknames.gcg": (3, "nickname 'Tim' is already #player1"),
    "quackle/test__positions__consonant_heaviness_tendency.gcg": (
        2,
        "nickname 'NoName' is already #player1",
    ),
    "magpie/player_number_redundant.gcg": (3, "#player1 declared twice"),
    "magpie/move_before_player.gcg": (4, "#player2 after the first event"),
    "magpie/player_does_not_exist.gcg": (30, "unknown player 'Jack'"),
    "quackle/test__positions__multiplayer-crash.gcg": (3, "#player1 and #player2 only"),
}


@pytest.fixture(scope="module")
def corpus() -> dict[str, bytes]:
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} not present (shared test material lives beside the repo)")
    return {f"{p.parent.name}/{p.name}": p.read_bytes() for p in sorted(CORPUS.glob("*/*.gcg"))}


def test_corpus_fails_exactly_on_the_known_malformed_files(corpus):
    failures = {}
    for name, data in corpus.items():
        try:
            parse_gcg(data, name)
        except GcgError as exc:
            assert exc.source == name
            failures[name] = (exc.line, exc.reason)
    assert sorted(failures) == sorted(EXPECTED_FAILURES)
    for name, (line, reason) in EXPECTED_FAILURES.items():
        assert failures[name][0] == line, name
        assert reason in failures[name][1], name


def test_corpus_round_trips_through_the_writer(corpus):
    readable = [name for name in corpus if name not in EXPECTED_FAILURES]
    assert len(readable) > 150
    for name in readable:
        record = parse_gcg(corpus[name], name)
        assert without_positions(round_trip(record)) == without_positions(record), name


_TOKEN_COORD = re.compile(r"[0-9]{1,2}[a-o]|[a-o][0-9]{1,2}")


def as_other_tools_read_it(text: str) -> tuple[set[str], list[tuple]]:
    """What a line-based GCG tool takes from `text`, found without parse_gcg: the player lines,
    and in order each move line's fields (blanks between them collapsed, coordinates in
    capitals) and each other pragma with the number of moves before it; note text per move.
    Where a pragma stands matters (Macondo refuses #title, #lexicon... after the first move)."""
    players, items, moves, note = set(), [], 0, None
    for raw in re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")):
        line = " ".join(raw.split())
        if not line or line.startswith("#character-encoding"):
            continue
        if line.startswith("#player"):
            players.add(line)
        elif line.startswith(">"):
            nick, fields = line.split(": ", 1) if ": " in line else (line, "")
            fields = [f.upper() if _TOKEN_COORD.fullmatch(f) else f for f in fields.split(" ")]
            items.append(("move", nick, *fields))
            moves, note = moves + 1, None
        elif line.startswith("#note"):
            note = [moves, line.removeprefix("#note").strip()]
            items.append(note)
        elif line.startswith("#"):
            items.append(("pragma", moves, line))
            note = None
        else:
            note.append(line)  # a continuation of the note
    notes = [(n[0], "\n".join(n[1:])) for n in items if isinstance(n, list)]
    return players, [i for i in items if not isinstance(i, list)] + notes


def decoded(data: bytes) -> str:
    """A corpus file's text: UTF-8 when a byte order mark or line 1 says so, else ISO-8859-1."""
    first = data.split(b"\n", 1)[0].strip().lower()
    utf8 = data.startswith(b"\xef\xbb\xbf") or first.startswith(b"#character-encoding utf")
    return data.decode("utf-8" if utf8 else "iso-8859-1")


def test_corpus_rewrites_change_nothing_other_tools_read(corpus):
    """Every readable record, rewritten: the same moves field by field, the same pragmata
    between the same moves, the same notes; one blank between fields, and the rack field in
    its place when empty."""
    for name in corpus:
        if name in EXPECTED_FAILURES:
            continue
        record = parse_gcg(corpus[name], name)
        text = format_gcg(record)
        assert as_other_tools_read_it(text) == as_other_tools_read_it(decoded(corpus[name])), name
        moves = [line for line in text.splitlines() if line.startswith(">")]
        for line, event in zip(moves, record.events, strict=True):
            fields = line.split(": ", 1)[1]
            assert fields.startswith(" ") == (event.rack == ""), line
            assert "  " not in fields.removeprefix(" "), line


def test_corpus_game_with_a_multiline_note_and_time_penalty(corpus):
    record = parse_gcg(corpus["magpie/success_standard.gcg"])
    assert (record.title, record.description, record.lexicon) == (
        "test game",
        "Created with Macondo",
        "CSW21",
    )
    assert record.game_id == "io.woogles p6QRjJHG"
    assert len(record.events) == 29
    assert record.events[16].note == "this\nis\na\nmultiline\nnote"
    assert [(ev.kind, ev.total) for ev in record.events[-2:]] == [("end_rack", 378), ("time", 358)]
    assert record.player_index(record.events[-1].player) == 1


@pytest.mark.parametrize(
    ("name", "nickname"),
    [
        ("magpie/name_iso8859-1.gcg", "césar"),
        ("magpie/name_utf8_with_header.gcg", "césar"),
        ("magpie/name_utf8_noheader.gcg", "cÃ©sar"),
        ("magpie/utf8_dos.gcg", "angwantibo"),
    ],
)
def test_corpus_encodings(corpus, name, nickname):
    assert parse_gcg(corpus[name]).players[0].nickname == nickname


def test_corpus_polish_crlf_utf8(corpus):
    record = parse_gcg(corpus["macondo/gcgio__testdata__polish_endgame.gcg"])
    assert record.events[2].word == "STĘPIĆ"
    assert record.events[-1].tiles == "BHUWZ"
