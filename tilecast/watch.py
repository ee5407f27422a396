"""The frame loop shared by `tilecast annotate` (offline) and `tilecast run` (live), and the
events file that carries what the camera cannot see (passes, exchanges, challenges, clocks)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tilecast.engine.board import CENTRE, SIZE, Board
from tilecast.engine.infer import CLASSES, EMPTY_CLASS, Inferred, infer_play, line_groups
from tilecast.engine.lexicon import Lexicon
from tilecast.entries import EVENTS, InputError, parse_entry
from tilecast.observation import Observation
from tilecast.recorder import Recorder
from tilecast.session import Session
from tilecast.vision.reader import PINNED, BoardReader, Reading, in_view
from tilecast.vision.rectify import too_small
from tilecast.vision.stillness import StillnessGate


@dataclass(frozen=True)
class WatchConfig:
    """When the first play's words turn the camera view: the frame loop's tuning value."""

    first_view_odds: float = 0.5  # another view's words, against the tiles as read, to turn it
    doubtful_view_odds: float = 0.02  # the same, where no view's words reach first_view_odds
    # A board turned on its turntable: the recorded tiles, as read where the record has them
    # (their mean probability), in the held view and in the view that now reads them there.
    turntable_lost: float = 0.4  # the held view reads them no better than this
    turntable_found: float = 0.5  # another quarter turn reads them at least this well (a
    # play withdrawn while the board turned leaves its tiles in the record, none on the board)
    turntable_tiles: int = 2  # recorded tiles off the centre square needed to tell


WATCH = WatchConfig()


class EventsFileError(InputError):
    """A line of an events file that is not a valid event: where, and which field."""


def load_events(path: str | Path) -> list[dict[str, Any]]:
    """One JSON object per line, each an operator entry (see tilecast.entries) with a finite
    `time` (seconds into the source); blank lines are skipped. Returned in time order, each
    tagged with its line; the first bad line is an EventsFileError, before anything is read."""
    events = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = parse_entry(json.loads(line), EVENTS)
        except json.JSONDecodeError as exc:
            raise EventsFileError(f"{path}:{number}: not JSON: {exc.msg}") from exc
        except InputError as exc:
            raise EventsFileError(f"{path}:{number}: {exc}") from exc
        if entry.time is None:
            raise EventsFileError(f'{path}:{number}: an event needs a "time" (seconds)')
        events.append({**entry.as_json(), "events_line": number})
    return sorted(events, key=lambda e: e["time"])


def watch(
    session: Session,
    reader: BoardReader,
    frames: Iterable[tuple[int, float, Any]],
    gate: StillnessGate,
    events: list[dict[str, Any]] = (),
    total: int = 0,
    progress: bool = False,
    replay_until: int = -1,
    cfg: WatchConfig = WATCH,
) -> list[str]:
    """Feed frames through the reader and stillness gate into the session, submitting each
    event once the source reaches its time. Events already journaled (a resumed run) are
    skipped, and frames up to `replay_until` (those a resumed run's journal already holds) are
    read without recording, to bring the reader and gate to where the unbroken run had them.
    Returns what was wrong with the source but read all the same (a frame of another size
    than the first), for the run to say: it met bad input."""
    done = {e.get("events_line") for e in session.journal.entries if "events_line" in e}
    pending = [e for e in events if e["events_line"] not in done]
    last = None
    # The first play's words decide the camera view where the tiles cannot (see _first_view);
    # also while replaying, so that a resumed run's reader stands where the unbroken run's did.
    votes = getattr(reader, "votes", None)  # (a scripted reader in a test has none)
    first = votes is not None and votes.max() < PINNED
    # From then on, the tiles' votes turn the view only where the board's words read better
    # in the new view; as well, only where the new view is the transpose (the same words, each
    # down instead of across: only the tiles tell those two apart) or moves no recorded tile
    # (a first play along row 8 turned upside down). A face whose letters the network reads
    # turned (a serif set, a mirrored feed) would otherwise move every recorded tile to another
    # square mid-game, as it did where misreads left no word readable either way. (Not before
    # the first play: a play half laid can read a word fragment in a wrong view.)
    lexicon = session.recorder.lexicon if votes is not None else None
    held = None
    troubles: list[str] = []
    size = None  # the first frame's (width, height)
    count = 0
    try:
        for index, time, frame in frames:
            count += 1
            replayed = index <= replay_until
            shape = getattr(frame, "shape", None)  # (a scripted source in a test has none)
            if shape is not None and size is None:
                size = shape[1::-1]
            elif shape is not None and shape[1::-1] != size and not troubles:
                troubles.append(f"frame {index} is {shape[1]}x{shape[0]} pixels, the first was "
                                f"{size[0]}x{size[1]}; read as it is")
            while pending and pending[0]["time"] <= time:
                event = pending.pop(0)
                if not replayed:  # (a replayed frame's events were journaled or refused before)
                    _submit_event(session, event)
            reading = reader.read(frame)
            if reading is not None and held is not None and reading.view != held \
                    and lexicon is not None \
                    and not _turn_by_words(reading, held, lexicon, session.game.board):
                reading = reader.hold(reading, held)
            # A board turned on its turntable: the record's tiles say how far, once there are
            # any; before, the tiles now on the board do (the running votes lag behind).
            turned = None if reading is None or votes is None else reader.tiles_view() \
                if first else _turned_on_table(reading, session.game.board, reader, cfg)
            if turned is not None:
                reading = reader.hold(reading, turned)
            if reading is not None and last is None and not replayed:
                _warn_if_small(session, reading, time)
            if reading is not None:
                held = None if first else reading.view  # (the first play's words decide first)
                last = (index, time, reading.view)
                probs = gate.feed(time, reading.motion, reading.probs)
                view = reading.view
                if probs is not None and first and session.recorder.lexicon is not None \
                        and (probs[:, EMPTY_CLASS] < 0.5).sum() >= 2:
                    decided = _first_view(reader, reading, probs, session.recorder, cfg)
                    if decided is not None:
                        probs, view = decided
                    # (undecided only while nothing is recorded: a play the recorder takes
                    # without a run over the centre, one joined to tiles it never saw, holds
                    # the view it was read in)
                    if decided is not None or not session.game.board.is_empty:
                        first = False
                        held = view
                if probs is not None and not replayed:
                    session.camera(Observation(probs, index, time, view, gate.emptied))
            if progress and total and (100 * (index + 1)) // total != (100 * index) // total:
                print(
                    f"\r{100 * (index + 1) // total:3d}% frame {index + 1}/{total}",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        if last is not None and (probs := gate.flush(last[1])) is not None:
            session.camera(Observation(probs, last[0], last[1], last[2], gate.emptied))
        for event in pending:
            _submit_event(session, event)
        if count and last is None:  # (else an empty record would be all the user saw)
            why = getattr(reader, "why", "")
            troubles.append(f"no board found in any of its {count} frames read"
                            + (f" (the last: {why})" if why else ""))
        return troubles
    finally:
        if progress and total:  # (the progress line ends, also when the source fails)
            print(file=sys.stderr)


def _first_view(reader: BoardReader, reading: Reading, probs: np.ndarray,
                recorder: Recorder, cfg: WatchConfig = WATCH) -> tuple[np.ndarray, int] | None:
    """The first still reading with tiles, in the camera view whose tiles make a play of
    lexicon words on the empty board. A view mirrored or turned half round reads every word
    backwards (ZINNIA as AINNIZ), and the letters that would tell the tiles' way up may not
    (a serif A, a value-less hand-lettered face): the words can. The reader's own view stays
    when its play reads as words, or when no view's does (a view and its mirror turned a
    quarter read the same words: the tiles tell those apart); of several, the likeliest
    reading, then the votes, choose. The reader reads on in the view chosen. None when the
    tiles make no play in any view (a tile or two still being laid, a stray reading): the
    next still reading decides."""
    cut = _cut(reading, probs)

    def play_in(view: int, lexicon: Lexicon | None) -> Inferred:
        seen = in_view(cut, view)
        added = [divmod(int(i), SIZE) for i in np.flatnonzero(seen[:, EMPTY_CLASS] < 0.5)]
        # the run of tiles over the centre square, stray readings elsewhere aside
        runs = [run for run in line_groups(Board(), added) if CENTRE in run] or [added]
        run = max(runs, key=lambda run: (len(run), sum(1 - seen[r * SIZE + c, EMPTY_CLASS]
                                                       for r, c in run)))
        return infer_play(Board(), seen.tolist(), run, recorder.tileset, lexicon)

    seen_play = play_in(reading.view, None)
    if not seen_play.legal:  # (a play's shape is legal in every view or in none)
        return None
    read_as_seen = seen_play.probability
    plays = [play_in(view, recorder.lexicon) for view in range(8)]
    # Words found only by reading other letters than those seen are no evidence (NNIND read
    # as USING): a view's words must be read about as surely as the tiles read at all; failing
    # that, with a letter in doubt (DJINN read DNINN, its J at 0.08 beside N). The reader's
    # own view first each time, so that a word of another lexicon read in it (DELOPED, not in
    # ENABLE) keeps it against a view that reads a word only with a letter the camera all but
    # rules out (the backwards DEPOLED as DEPOSED).
    for odds in (cfg.first_view_odds, cfg.doubtful_view_odds):
        found = [(play.probability, reader.votes[view], view)
                 for view, play in enumerate(plays)
                 if play.legal and play.probability >= odds * read_as_seen]
        if any(view == reading.view for *_, view in found):
            return probs, reading.view
        if found:
            view = max(found)[2]
            reader.adopt(view)
            return in_view(cut, view), view
    return probs, reading.view


def _turn_by_words(reading: Reading, held: int, lexicon: Lexicon, recorded: Board) -> bool:
    """Whether the board's words let the reading's new view replace the held one."""
    before = in_view(_cut(reading), held)
    now, then = words_read(reading.probs, lexicon), words_read(before, lexicon)
    if now != then:
        return now > then
    squares = [r * SIZE + c for r, c, _ in recorded.tiles()]
    return reading.view == _transposed(held) or np.array_equal(
        reading.probs[squares].argmax(1), before[squares].argmax(1))


def _turned_on_table(reading: Reading, recorded: Board, reader: BoardReader,
                     cfg: WatchConfig) -> int | None:
    """The view that reads the recorded tiles where the record has them, when the reading's
    own no longer does and the tiles now on the board (`reader.tiles_votes`) agree: the board
    was turned on its turntable (a quarter or half turn; the feed stays mirrored or not). None
    while the reading's view still reads them, or no view does (a hand over the board, a
    board knocked out of place), or the tiles vote for the reading's own (the view the votes
    turned to: a first play's transpose, which only the tiles tell)."""
    # (the centre square reads the same in every view: it tells none apart)
    tiles = [(r, c, tile) for r, c, tile in recorded.tiles() if (r, c) != CENTRE]
    if len(tiles) < cfg.turntable_tiles:
        return None
    squares = [r * SIZE + c for r, c, _ in tiles]
    classes = [CLASSES.index(tile.face) for _, _, tile in tiles]
    if reading.probs[squares, classes].mean() > cfg.turntable_lost:
        return None  # (the usual frame: the held view reads them)
    cut = _cut(reading)

    def read_there(view: int) -> float:
        return float(in_view(cut, view)[squares, classes].mean())

    mirrored = reading.view // 4 * 4
    best = max((v for v in range(mirrored, mirrored + 4) if v != reading.view), key=read_there)
    votes = reader.tiles_votes()
    if read_there(best) < cfg.turntable_found or votes[best] <= votes[reading.view]:
        return None
    return best


def _transposed(view: int) -> int:
    """The view that reads the board `view` reads turned about its diagonal from 1A."""
    board = in_view(np.arange(SIZE * SIZE), view).reshape(SIZE, SIZE)
    return next(v for v in range(8)
                if np.array_equal(in_view(np.arange(SIZE * SIZE), v), board.T.ravel()))


def _cut(reading: Reading, probs: np.ndarray | None = None) -> np.ndarray:
    """A reading's squares (or `probs` in its board order) back in the cut's order."""
    probs = reading.probs if probs is None else probs
    cut = np.empty_like(probs)
    cut[reading.crop_of] = probs
    return cut


def words_read(probs: np.ndarray, lexicon: Lexicon) -> int:
    """How many of the board's words, read as the likeliest letters (runs of two or more tiles
    along a row or column, none of them a blank), are in the lexicon."""
    tiles = (probs[:, EMPTY_CLASS] < 0.5).reshape(SIZE, SIZE)
    letters = np.array(list(CLASSES))[probs[:, :EMPTY_CLASS].argmax(1)].reshape(SIZE, SIZE)
    found = 0
    for grid, present in ((letters, tiles), (letters.T, tiles.T)):
        for row, here in zip(grid, present, strict=True):
            runs = "".join(c if t else " " for c, t in zip(row, here, strict=True)).split()
            found += sum(len(w) > 1 and "?" not in w and w in lexicon for w in runs)
    return found


def _warn_if_small(session: Session, reading: Reading, time: float) -> None:
    """When the board's squares are too small in the frame to read every letter at a run's
    first reading, say so at once (a live camera can still be moved, or set to more pixels)
    and tell the TD by a journaled `camera-resolution` alert, once per game (a resumed run
    does not repeat it). Later changes of the fix are not checked again."""
    why = too_small(reading.fix)
    if not why or "camera-resolution" in session.recorder.raised.kinds:
        return
    print(f"tilecast: warning: {why}", file=sys.stderr)
    session.submit({"type": "alert", "kind": "camera-resolution", "message": why,
                    "severity": "warning", "time": round(time, 3)})


def _submit_event(session: Session, event: dict[str, Any]) -> None:
    try:
        session.submit(event)
    except InputError as exc:
        print(f"events line {event['events_line']}: {exc}", file=sys.stderr)
