"""GCG game records: a reader that checks the shape of every line, and a writer for it.

The reader is syntactic on purpose: whether a move is legal, a score right or a rack possible is
for the replay engine to judge and report, so a record with such mistakes still reads here. What
is rejected (with GcgError) is text that cannot be understood as GCG. See docs/gcg.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .board import Coord, format_coord, parse_coord

_BOM = "\ufeff"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")
_BLANKS = re.compile(r"[ \t]+")
_SCORE = re.compile(r"[+-][0-9]{1,9}")
_TOTAL = re.compile(r"[+-]?[0-9]{1,9}")
_EXCHANGE_COUNT = re.compile(r"[0-9]{1,2}")
_COORD_LIKE = re.compile(r"[0-9]+[A-Za-z]|[A-Za-z][0-9]+")
_PLAYER_KEY = re.compile(r"player([0-9]+)")
_RACK_KEY = re.compile(r"rack([0-9]+)")
_ENCODINGS = {
    "UTF-8": "utf-8",
    "UTF8": "utf-8",
    "ISO-8859-1": "iso-8859-1",
    "ISO8859-1": "iso-8859-1",
}
_ENCODING_KEY = "character-encoding"
MAX_LINE = 8192  # characters; the longest line of 211 real records is 1472 (a note)


class GcgError(ValueError):
    """A record that cannot be read: where (source, 1-based line or None) and why."""

    def __init__(self, source: str, line: int | None, reason: str) -> None:
        super().__init__(source, line, reason)
        self.source = source
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True)
class GcgPlayer:
    number: int
    nickname: str
    name: str


@dataclass(frozen=True)
class GcgEvent:
    """One '>' line. For end_rack, `rack` is what precedes the parentheses and `tiles` what is
    inside; for exchange, `exchange_count` is always set, `exchanged` when the tiles are named.
    `note_marks`: see GcgRecord.
    """

    line: int
    player: str
    rack: str
    kind: str
    score: int
    total: int
    coord: Coord | None = None
    word: str = ""
    exchanged: str = ""
    exchange_count: int = 0
    tiles: str = ""
    extra: str = ""
    note: str = ""
    note_marks: tuple[int, ...] = ()


@dataclass(frozen=True)
class GcgRecord:
    """A whole record. `pragmas` holds every pragma except #playerN, #note and
    #character-encoding (kept elsewhere or implied by the text), in file order.

    `pragma_after[i]` is how many events precede pragmas[i], so a rewrite keeps each pragma
    where it stood among the moves (other tools read a pragma differently after the first move).
    Left empty, it is the usual layout: every pragma before the moves, except that from the
    first #rackN on (the racks where the record stops) they follow the last move.

    A note's lines after the first are written as continuation lines, except those listed in
    `note_marks` (0-based line numbers), which get a #note line of their own as they had when
    read: tools join a continuation with a line break but consecutive #note lines without one.
    """

    source: str
    players: tuple[GcgPlayer, ...]
    pragmas: tuple[tuple[str, str], ...]
    events: tuple[GcgEvent, ...]
    note: str = ""
    pragma_after: tuple[int, ...] = ()
    note_marks: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        after = self.pragma_after
        if not after and self.pragmas:
            racks = (i for i, (key, _) in enumerate(self.pragmas) if _RACK_KEY.fullmatch(key))
            split = next(racks, len(self.pragmas))
            after = (0,) * split + (len(self.events),) * (len(self.pragmas) - split)
            object.__setattr__(self, "pragma_after", after)
        if len(after) != len(self.pragmas):
            raise ValueError(f"{len(after)} pragma positions for {len(self.pragmas)} pragmata")
        if any(not 0 <= a <= len(self.events) for a in after) or list(after) != sorted(after):
            raise ValueError(f"pragma positions {after} are not in order among the events")

    def pragma(self, key: str) -> str | None:
        """Value of the last pragma `key` (a later line overrides an earlier one), or None."""
        found = None
        for k, value in self.pragmas:
            if k == key:
                found = value
        return found

    @property
    def title(self) -> str | None:
        return self.pragma("title")

    @property
    def description(self) -> str | None:
        return self.pragma("description")

    @property
    def lexicon(self) -> str | None:
        return self.pragma("lexicon")

    @property
    def game_id(self) -> str | None:
        return self.pragma("id")

    @property
    def incomplete(self) -> bool:
        return self.pragma("incomplete") is not None

    def final_rack(self, index: int) -> str | None:
        """The #rack1/#rack2 rack of player `index` (0 or 1) if the record gives one."""
        return self.pragma(f"rack{index + 1}")

    def player_index(self, nickname: str) -> int:
        """0 for #player1, 1 for #player2."""
        for i, player in enumerate(self.players):
            if player.nickname == nickname:
                return i
        raise GcgError(self.source, None, f"unknown player {excerpt(nickname)!r}")


def parse_gcg(data: bytes | str, source: str = "<gcg>") -> GcgRecord:
    """Read a GCG record; raises GcgError, and nothing else, for anything it cannot read.

    bytes are ISO-8859-1 unless line 1 declares '#character-encoding UTF-8' or a UTF-8 byte order
    mark starts them; str is taken as already decoded (a declaration on line 1 is still checked).
    """
    return _Reader(source).read(_decode(data, source))


def format_gcg(record: GcgRecord) -> str:
    """Write `record` as GCG text that parse_gcg reads back to an equal record (line numbers and
    source aside). Encode the result as UTF-8: it declares so on line 1 when it is not ASCII.

    Players come first, then the pragmata that precede the moves and the game's note; each move
    is followed by its note and then the pragmata that stood after it (`pragma_after`).
    """
    gaps: list[list[str]] = [[] for _ in range(len(record.events) + 1)]
    for (key, value), after in zip(record.pragmas, record.pragma_after, strict=True):
        gaps[after].append(_join(f"#{key}", value))
    lines = [_join(f"#player{p.number}", p.nickname, p.name) for p in record.players]
    lines += gaps[0]
    lines += _note_lines(record.note, record.note_marks)
    for event, pragmas in zip(record.events, gaps[1:], strict=True):
        lines.append(_format_event(event))
        lines += _note_lines(event.note, event.note_marks)
        lines += pragmas
    text = "\n".join(lines) + "\n"
    return text if text.isascii() else f"#{_ENCODING_KEY} UTF-8\n{text}"


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _note_lines(note: str, marks: tuple[int, ...]) -> list[str]:
    """A note as a #note line and continuation lines; a line in `marks`, or one that would not
    read back as a continuation, gets a #note line of its own."""
    if not note:
        return []
    out = []
    for i, text in enumerate(note.split("\n")):
        own_line = i == 0 or i in marks or not _continues(text)
        out.append(_join("#note", text) if own_line else text)
    return out


def _continues(text: str) -> bool:
    """Whether a note line can be written as a continuation (not empty, no '#' or '>' first)."""
    text = text.lstrip(" \t")
    return bool(text) and text[0] not in "#>"


def _format_event(ev: GcgEvent) -> str:
    if ev.kind == "play":
        if ev.coord is None:
            raise ValueError(f"play on line {ev.line} has no coordinate")
        move = f"{format_coord(ev.coord)} {ev.word}"
    elif ev.kind == "exchange":
        move = "-" + (ev.exchanged or str(ev.exchange_count))
    elif ev.kind == "end_rack":
        move = f"({ev.tiles})"
    else:
        moves = {"pass": "-", "withdraw": "--", "challenge_bonus": "(challenge)", "time": "(time)"}
        if ev.kind not in moves:
            raise ValueError(f"unknown event kind {ev.kind!r}")
        move = moves[ev.kind]
    # The rack field keeps its place when empty (">nick:  (challenge) +5 29"): other tools
    # read a line with one space there as an end-of-game rack, or not at all.
    return _join(f">{ev.player}: {ev.rack}", move, f"{ev.score:+d}", str(ev.total), ev.extra)


def _decode(data: bytes | str, source: str) -> str:
    if isinstance(data, str):
        text = data.removeprefix(_BOM)
        _declared_codec(_LINE_BREAK.split(text, maxsplit=1)[0], source)
        return text
    bom = data.startswith(_BOM.encode("utf-8"))
    if bom:
        data = data[len(_BOM.encode("utf-8")) :]
    first = _LINE_BREAK_BYTES.split(data, maxsplit=1)[0].decode("iso-8859-1")
    codec = _declared_codec(first, source)
    if bom and codec == "iso-8859-1":
        raise GcgError(source, 1, "declares ISO-8859-1 but starts with a UTF-8 byte order mark")
    codec = codec or ("utf-8" if bom else "iso-8859-1")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = len(_LINE_BREAK_BYTES.split(data[: exc.start]))
        raise GcgError(source, line, f"not valid {codec.upper()}: {exc.reason}") from None


def _declared_codec(first_line: str, source: str) -> str | None:
    """The codec line 1 declares, None when it declares none; GcgError for one not in GCG."""
    parts = _BLANKS.split(first_line.strip(" \t"), maxsplit=1)
    if parts[0] != "#" + _ENCODING_KEY:
        return None
    value = parts[1] if len(parts) > 1 else ""
    if value.upper() not in _ENCODINGS:
        raise GcgError(
            source, 1, f"unsupported character encoding {excerpt(value)!r} (UTF-8 or ISO-8859-1)"
        )
    return _ENCODINGS[value.upper()]


def excerpt(text: str, limit: int = 40) -> str:
    """At most `limit` characters of `text`, saying how long it was: messages quote records,
    and a record may be hostile (a 10 MB word must not come back whole)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _is_tile_letter(ch: str) -> bool:
    return ch.isalpha() and not ch.islower()


def _is_rack(token: str) -> bool:
    """Tiles as drawn: letters in upper case, '?' for a blank (an empty token is an empty rack)."""
    return all(ch == "?" or _is_tile_letter(ch) for ch in token)


def _is_word(token: str) -> bool:
    """Letters as played: upper case tile, lower case blank, '.' for a square played through."""
    return token != "" and all(ch == "." or ch.isalpha() for ch in token)


class _Reader:
    """One pass over the lines; holds what is read so far."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.players: dict[int, GcgPlayer] = {}
        self.pragmas: list[tuple[str, str]] = []
        self.pragma_after: list[int] = []  # events read before each pragma
        self.events: list[GcgEvent] = []
        self.notes: dict[int, list[str]] = {}  # event index (-1: the game) -> note lines
        self.marks: dict[int, list[int]] = {}  # the same -> lines that had a #note of their own
        self.in_note = False

    def error(self, line: int | None, reason: str) -> GcgError:
        return GcgError(self.source, line, reason)

    def read(self, text: str) -> GcgRecord:
        empty = True
        for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
            if len(raw) > MAX_LINE:  # before any token is taken apart or kept
                raise self.error(number, f"line is {len(raw)} characters long (at most {MAX_LINE})")
            line = raw.strip(" \t")
            if not line:
                continue
            empty = False
            if line[0] == "#":
                self.in_note = self.pragma(number, line)
            elif line[0] == ">":
                self.event(number, line)
                self.in_note = False
            elif self.in_note:
                self.notes[len(self.events) - 1].append(line)
            else:
                raise self.error(number, f"text outside a note: {excerpt(line)!r}")
        if empty:
            raise self.error(None, "empty record")
        for n in (1, 2):
            if n not in self.players:
                raise self.error(None, f"no #player{n} line")
        events = tuple(
            replace(ev, note="\n".join(self.notes[i]), note_marks=tuple(self.marks.get(i, ())))
            if i in self.notes
            else ev
            for i, ev in enumerate(self.events)
        )
        return GcgRecord(
            source=self.source,
            players=(self.players[1], self.players[2]),
            pragmas=tuple(self.pragmas),
            events=events,
            note="\n".join(self.notes.get(-1, [])),
            note_marks=tuple(self.marks.get(-1, ())),
            pragma_after=tuple(self.pragma_after),
        )

    def pragma(self, number: int, line: str) -> bool:
        """Read a '#' line; True when it opens a note that later lines may continue."""
        parts = _BLANKS.split(line[1:], maxsplit=1)
        key, value = parts[0], (parts[1] if len(parts) > 1 else "")
        if not key:
            raise self.error(number, "'#' without a pragma name")
        if key == "note":
            lines = self.notes.setdefault(len(self.events) - 1, [])
            if lines and _continues(value):  # could have continued the note, but did not
                self.marks.setdefault(len(self.events) - 1, []).append(len(lines))
            lines.append(value)
            return True
        if key == _ENCODING_KEY:
            if number != 1:
                raise self.error(number, "#character-encoding must be on the first line")
            return False
        if m := _PLAYER_KEY.fullmatch(key):
            self.player(number, m[1], value)
            return False
        if _RACK_KEY.fullmatch(key) and not (_is_rack(value) and value):
            raise self.error(number, f"#{key} is not a rack: {excerpt(value)!r}")
        self.pragmas.append((key, value))
        self.pragma_after.append(len(self.events))
        return False

    def player(self, number: int, digits: str, value: str) -> None:
        if digits not in ("1", "2"):
            raise self.error(number, f"#player{digits}: a GCG game has #player1 and #player2 only")
        n = int(digits)
        if self.events:
            raise self.error(number, f"#player{n} after the first event")
        if n in self.players:
            raise self.error(number, f"#player{n} declared twice")
        parts = _BLANKS.split(value, maxsplit=1)
        nickname, name = parts[0], (parts[1] if len(parts) > 1 else "")
        if not nickname:
            raise self.error(number, f"#player{n} has no nickname")
        if ":" in nickname:
            raise self.error(number, f"nickname {excerpt(nickname)!r} contains ':'")
        for other in self.players.values():
            if other.nickname == nickname:
                raise self.error(
                    number, f"nickname {excerpt(nickname)!r} is already #player{other.number}"
                )
        self.players[n] = GcgPlayer(n, nickname, name)

    def event(self, number: int, line: str) -> None:
        head, colon, rest = line[1:].partition(":")
        nickname = head.strip(" \t")
        if not colon or not nickname:
            raise self.error(number, "an event line starts '>nickname:'")
        if nickname not in {p.nickname for p in self.players.values()}:
            raise self.error(
                number, f"unknown player {excerpt(nickname)!r} (not declared by #player1/2)"
            )
        rest = rest.strip(" \t")
        tokens = _BLANKS.split(rest) if rest else []
        rack = ""
        if tokens and not _looks_like_move(tokens[0]):
            rack = tokens.pop(0)
            if not _is_rack(rack):
                raise self.error(number, f"malformed rack {excerpt(rack)!r}")
        if not tokens:
            raise self.error(number, "event has no move")
        fields = self.move(number, tokens.pop(0), tokens)
        if len(tokens) < 2:
            raise self.error(number, "event needs a score and a total")
        score, total = tokens[0], tokens[1]
        if not _SCORE.fullmatch(score):
            raise self.error(number, f"malformed score {excerpt(score)!r} (want +N or -N)")
        if not _TOTAL.fullmatch(total):
            raise self.error(number, f"malformed total {excerpt(total)!r}")
        self.events.append(
            GcgEvent(
                line=number,
                player=nickname,
                rack=rack,
                score=int(score),
                total=int(total),
                extra=" ".join(tokens[2:]),
                **fields,
            )
        )

    def move(self, number: int, move: str, rest: list[str]) -> dict:
        """The kind of move and its own fields; a play also takes its word from `rest`."""
        simple = {"-": "pass", "--": "withdraw", "(challenge)": "challenge_bonus", "(time)": "time"}
        if move in simple:
            return {"kind": simple[move]}
        if len(move) > 2 and move[0] == "(" and move[-1] == ")":
            if not _is_rack(move[1:-1]):
                raise self.error(number, f"malformed rack in {excerpt(move)!r}")
            return {"kind": "end_rack", "tiles": move[1:-1]}
        if move[0] == "-":
            body = move[1:]
            if _EXCHANGE_COUNT.fullmatch(body):
                return {"kind": "exchange", "exchange_count": int(body)}
            if not _is_rack(body):
                raise self.error(number, f"malformed exchange {excerpt(move)!r}")
            return {"kind": "exchange", "exchanged": body, "exchange_count": len(body)}
        if _COORD_LIKE.fullmatch(move):
            try:
                coord = parse_coord(move)
            except ValueError:
                raise self.error(number, f"not a board coordinate: {excerpt(move)!r}") from None
            if not rest:
                raise self.error(number, f"play at {move} has no word")
            word = rest.pop(0)
            if not _is_word(word):
                raise self.error(number, f"malformed word {excerpt(word)!r}")
            return {"kind": "play", "coord": coord, "word": word}
        raise self.error(
            number,
            f"unrecognised move {excerpt(move)!r} (want a coordinate and word, '-', '-TILES', "
            "'--', '(challenge)', '(time)' or '(TILES)')",
        )


def _looks_like_move(token: str) -> bool:
    """Whether `token` is meant as the move, not a rack (racks hold no digits, '-' or '(')."""
    return token[0] in "-(" or bool(_COORD_LIKE.fullmatch(token))
