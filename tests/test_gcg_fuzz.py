"""Property tests of the GCG reader: any input either reads or raises GcgError, and whatever
reads comes back unchanged through the writer."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from tilecast.engine.board import Coord
from tilecast.engine.gcg import (
    GcgError,
    GcgEvent,
    GcgPlayer,
    GcgRecord,
    format_gcg,
    parse_gcg,
)

FUZZ = settings(max_examples=400, deadline=None)

VALID = """#character-encoding UTF-8
#player1 Tim Tim Weiss
#player2 Józef Józef Kowalski
#title Club game
#lexicon CSW21
#note before the first move
>Tim: ?AEITWX 8D WAITEd +24 24
#note a note
that continues
>Józef: DEEFINO 7c DEFO +22 22
>Tim: AEIMPYZ -- -24 0
>Józef: EIINSTU I2 UNITIES +68 90 UN, IT
>Tim: IIIU -IIU +0 0
>Józef: AAQQ -4 +0 90
>Tim: ANNSTUU - +0 0
>Józef: ANNSTUU (challenge) +5 95
>Tim: ADEIINR 15l DAIN.IER +86 86
>Tim:  (TUY) +12 98
>Józef: TUY (TUY) -12 83
>Józef:  (time) -10 73
#rack1 ABC
"""

# Characters that matter to the grammar, plus some that must pass through untouched.
GRAMMAR = list("#>:-+()?.\r\n \t0123456789ADHOZadoz") + ["é", "Ł", "\ufeff", "\x85", "\x00"]
chars = st.one_of(st.sampled_from(GRAMMAR), st.characters())


def reads_or_rejects(data: str | bytes) -> None:
    """The reader's contract: a record, or GcgError; and a record survives the writer."""
    try:
        record = parse_gcg(data, "fuzz.gcg")
    except GcgError as exc:
        assert exc.source == "fuzz.gcg"
        assert exc.line is None or exc.line >= 1
        return
    text = format_gcg(record)
    again = parse_gcg(text.encode("utf-8") if isinstance(data, bytes) else text, "again.gcg")
    assert without_positions(again) == without_positions(record)


def without_positions(record: GcgRecord) -> GcgRecord:
    events = tuple(dataclasses.replace(ev, line=0) for ev in record.events)
    return dataclasses.replace(record, source="", events=events)


@FUZZ
@given(st.text(alphabet=chars, max_size=200))
def test_random_text(text):
    reads_or_rejects(text)
    reads_or_rejects(VALID.split(">")[0] + text)


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes(data):
    reads_or_rejects(data)
    reads_or_rejects(b"#character-encoding UTF-8\n#player1 A A\n#player2 B B\n" + data)


@st.composite
def mutated(draw) -> str:
    """The valid record with a few lines deleted, duplicated or swapped and characters deleted,
    inserted or replaced."""
    lines = VALID.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    text = "\n".join(lines)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace"]))
        pos = draw(st.integers(0, max(0, len(text) - 1)))
        ch = draw(chars)
        if op == "delete":
            text = text[:pos] + text[pos + 1 :]
        elif op == "insert":
            text = text[:pos] + ch + text[pos:]
        else:
            text = text[:pos] + ch + text[pos + 1 :]
    return text


def test_the_unmutated_record_reads():
    record = parse_gcg(VALID.encode("utf-8"))
    assert len(record.events) == 12
    assert {ev.kind for ev in record.events} == {
        "play",
        "pass",
        "exchange",
        "withdraw",
        "challenge_bonus",
        "end_rack",
        "time",
    }


@FUZZ
@given(mutated())
def test_mutated_records(text):
    reads_or_rejects(text)
    reads_or_rejects(text.encode("utf-8", "surrogatepass"))
    reads_or_rejects(text.encode("utf-8", "replace").replace(b"UTF-8", b"ISO-8859-1", 1))


# --- records built field by field go through the writer and back unchanged -------------------

letters = st.sampled_from(list("ABCDEFGHIJKLMNOPQRSTUVWXYZĄĆĘŁŃÓŚŹŻÑ"))
racks = st.text(alphabet=st.one_of(letters, st.just("?")), max_size=8)
words = st.text(
    alphabet=st.one_of(letters, letters.map(str.lower), st.just(".")), min_size=1, max_size=15
)
numbers = st.integers(-999, 999)
# Free text on one line, as the reader gives it back: no line breaks, no outer blanks.
line_text = st.text(
    alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30
).map(lambda s: s.strip(" \t"))
notes = st.lists(line_text, max_size=3).map("\n".join)
coords = st.builds(Coord, st.integers(0, 14), st.integers(0, 14), st.booleans())


@st.composite
def events(draw, nicknames: tuple[str, str]) -> GcgEvent:
    kind = draw(st.sampled_from(["play", "pass", "exchange", "withdraw", "bonus", "end", "time"]))
    fields: dict = {"kind": kind}
    if kind == "play":
        fields.update(coord=draw(coords), word=draw(words))
    elif kind == "exchange":
        named = draw(racks.filter(bool) | st.just(""))
        count = len(named) if named else draw(st.integers(0, 99))
        fields.update(exchanged=named, exchange_count=count)
    elif kind == "bonus":
        fields["kind"] = "challenge_bonus"
    elif kind == "end":
        fields.update(kind="end_rack", tiles=draw(racks.filter(bool)))
    extra = " ".join(draw(st.lists(st.text("ABZ,.:()-+19", min_size=1, max_size=5), max_size=3)))
    return GcgEvent(
        line=0,
        player=draw(st.sampled_from(nicknames)),
        rack=draw(racks),
        score=draw(numbers),
        total=draw(numbers),
        extra=extra,
        note=draw(notes),
        **fields,
    )


nickname = st.text(
    alphabet=st.one_of(letters, st.sampled_from(list("abz_09.é"))), min_size=1, max_size=8
)
pragma_keys = st.sampled_from(["title", "description", "id", "lexicon", "incomplete", "x-custom"])


@st.composite
def records(draw) -> GcgRecord:
    nick1 = draw(nickname)
    nick2 = draw(nickname.filter(lambda n: n != nick1))
    players = (GcgPlayer(1, nick1, draw(line_text)), GcgPlayer(2, nick2, draw(line_text)))
    pragmas = draw(st.lists(st.tuples(pragma_keys, line_text), max_size=4))
    pragmas += draw(st.lists(st.tuples(st.sampled_from(["rack1", "rack2"]), racks.filter(bool))))
    return GcgRecord(
        source="",
        players=players,
        pragmas=tuple(pragmas),
        events=tuple(draw(st.lists(events((nick1, nick2)), max_size=6))),
        note=draw(notes),
    )


@FUZZ
@given(records())
def test_built_records_round_trip(record):
    text = format_gcg(record)
    assert text.isascii() or text.startswith("#character-encoding UTF-8\n")
    again = parse_gcg(text.encode("utf-8"))
    assert without_positions(again) == record
