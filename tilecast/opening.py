"""Opening a board: the one place that builds its session, reader, frame source and stillness
gate from a spec, for `tilecast annotate`, `tilecast run` and every board the server watches.

A board resumed from its journal reads on as it left off. A file's frames are read again from
the start, on the same sampling grid, without recording the ones the journal already holds: the
reader and the stillness gate then stand exactly where the unbroken run's stood (its camera
view, each square's averaged reading, what was still), so the record cannot differ from it. A
camera's past frames are gone: its reader starts from the camera view the journal recorded.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pluggy

from tilecast.config import load_profile, load_tileset
from tilecast.engine.game import Game
from tilecast.engine.lexicon import Lexicon
from tilecast.events import SessionInfo
from tilecast.recorder import Recorder
from tilecast.session import Session
from tilecast.vision.stillness import StillConfig

if TYPE_CHECKING:
    from tilecast.hall.mirror import Mirror
    from tilecast.vision.reader import BoardReader
    from tilecast.vision.sources import Frame
    from tilecast.vision.stillness import StillnessGate

T = TypeVar("T")
Corners = tuple[tuple[float, float], ...]  # four (x, y) image points, in the vision order


@dataclass(frozen=True)
class Spec:
    """What a board is: its name, where its frames come from and how they are read, and the
    rules and words its game is recorded by. `enrolled` is a venue's tile set (.npz from
    `tilecast enroll`), `tileset` the letters' counts and values (a shipped name or TOML)."""

    name: str
    out_dir: Path
    source: str = ""
    players: tuple[str, str] = ("Player 1", "Player 2")
    profile: str = "wespa"
    lexicon: str = ""
    tileset: str = "english"
    enrolled: str = ""
    corners: Corners | None = None
    fps: float = 6.0  # frames read per second: the one default, the CLI's and the server's
    still_s: float = StillConfig.still_s  # seconds a board rests before it is read
    realtime: bool = False  # play a file at its own speed, as if it were a camera

    def __post_init__(self) -> None:
        from tilecast.names import board_name, player_name

        for field, value, check in [("board", self.name, board_name),
                                    ("player1", self.players[0], player_name),
                                    ("player2", self.players[1], player_name)]:
            try:
                check(value)
            except ValueError as exc:
                raise SpecError(field, value, str(exc)) from None

    @property
    def info(self) -> SessionInfo:
        return SessionInfo(self.name, self.players, self.profile, str(self.out_dir),
                           self.source, self.lexicon)


class SpecError(ValueError):
    """A spec's profile, lexicon or tile set that cannot be loaded; `field` and `value` name
    it and `why` says what is wrong."""

    def __init__(self, field: str, value: str, why: str) -> None:
        super().__init__(f"{field} {value}: {why}")
        self.field, self.value, self.why = field, value, why


def _load(field: str, value: str, load: Callable[[str], T]) -> T:
    try:
        return load(value)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SpecError(field, value, why) from None


class RiddenOut(RuntimeError):
    """Bad input a run rode out with everything recorded (a frame of another size, an out-dir
    removed mid-run): said in one line, and the run ends with status 1."""


@dataclass
class OpenBoard:
    """A board ready to watch: its session, resumed from its journal, and what reads it."""

    spec: Spec
    session: Session

    @property
    def replays(self) -> bool:
        """Whether the source is a file or folder, whose frames a resumed run can read again."""
        return Path(self.spec.source).exists()

    @property
    def replay_until(self) -> int:
        """The last frame a resumed run reads again without recording it (-1: none)."""
        return self.session.resume_frame if self.replays else -1

    def reader(self, corners: np.ndarray | None = None) -> BoardReader:
        """The shipped classifier (with the enrolled set) behind a reader at `corners` or else
        the spec's (None: it finds the board). A camera's reader starts from the journaled
        camera view; a file's finds it again from the replayed frames."""
        from tilecast.vision import TileClassifier
        from tilecast.vision.reader import BoardReader

        classifier = TileClassifier.load(tileset=self.spec.enrolled or None)
        if corners is None and self.spec.corners is not None:
            corners = np.float32(self.spec.corners)
        view = None if self.replays else self.session.camera_view
        return BoardReader(classifier, corners, view=view)

    def frames(self, stop: threading.Event | None = None) -> Iterator[Frame]:
        """A file or folder at about `fps` from its first frame, on the sampling grid an
        unbroken run uses; a camera or stream thinned to `fps`. With `realtime`, no faster
        than the frames' own times (the replayed ones at once), until `stop` is set."""
        from tilecast.vision.sources import frames, native_fps, thinned

        spec = self.spec
        if self.replays:
            step = max(1, round(native_fps(spec.source) / spec.fps))
            source = frames(spec.source, step=step)
        else:
            source = thinned(frames(spec.source), spec.fps)
        if not spec.realtime:
            return source
        return _paced_after(source, self.replay_until, stop)

    def ridden_out(self, troubles: Iterable[str] = ()) -> RiddenOut | None:
        """What the run met and rode out, as one error naming each input: the source's
        `troubles` (what watch returned) and an out-dir removed mid-run (see Journal.rewritten);
        None when there was nothing. Asked at the run's end (closing the session may write the
        journal again)."""
        said = [f"{self.spec.source}: {trouble}" for trouble in troubles]
        if self.session.journal.rewritten:
            said.append(f"out-dir {self.spec.out_dir}: removed during the run; the journal was "
                        "written again from memory")
        return RiddenOut("; ".join(said)) if said else None

    def gate(self) -> StillnessGate:
        from tilecast.vision.stillness import StillnessGate

        return StillnessGate(StillConfig(still_s=self.spec.still_s))


def _paced_after(source: Iterator[Frame], last: int, stop: threading.Event | None
                 ) -> Iterator[Frame]:
    """The frames up to index `last` at once, the rest at their own pace."""
    from tilecast.vision.sources import paced

    for item in source:
        if item[0] > last:
            yield from paced(itertools.chain([item], source), stop)
            return
        yield item


def open_board(
    spec: Spec,
    pm: pluggy.PluginManager,
    lexicons: dict[str, Lexicon] | None = None,
    session_type: type[Session] = Session,
) -> OpenBoard:
    """Load the spec's rules, tile set and word list (SpecError naming the one that fails) and
    open its session, which resumes from the journal in `out_dir`. The word list is the spec's
    ('none': none), else the profile's where supplied, else ENABLE (tilecast.lexicons.choose);
    one passed over is said on stderr. `lexicons` caches word lists by name across boards."""
    info, recorder = _record(spec, lexicons)
    session = session_type(info, recorder, pm)
    return OpenBoard(spec, session)


def open_mirror(spec: Spec, pm: pluggy.PluginManager,
                lexicons: dict[str, Lexicon] | None = None) -> Mirror:
    """A board the hall shows: the spec's record, folded from the entries its edge publishes
    (tilecast.hall.mirror), with the rules, tile set and word list `open_board` loads."""
    from tilecast.hall.mirror import Mirror

    info, recorder = _record(spec, lexicons)
    return Mirror(info, recorder, pm)


def _record(spec: Spec, lexicons: dict[str, Lexicon] | None) -> tuple[SessionInfo, Recorder]:
    """The board's session info and an empty recorder under its rules (see open_board)."""
    from tilecast.lexicons import choose, load_lexicon

    rules = _load("profile", spec.profile, load_profile)
    choice = choose(spec.lexicon or None, rules.lexicon)
    if choice.passed_over:
        print(f"tilecast: {choice.passed_over}; using {choice.name}", file=sys.stderr)
    lexicons = {} if lexicons is None else lexicons
    lexicon = None
    if choice.load:
        if choice.load not in lexicons:
            field = "lexicon" if spec.lexicon else "profile"
            lexicons[choice.load] = _load(field, choice.load, load_lexicon)
        lexicon = lexicons[choice.load]
    tileset = _load("tileset", spec.tileset, load_tileset)
    return replace(spec.info, lexicon=choice.name), Recorder(rules, tileset, lexicon)


def annotate(
    spec: Spec,
    output: Path,
    pm: pluggy.PluginManager | None = None,
    events: Iterable[dict[str, Any]] = (),
    progress: bool = False,
    tap: Callable[[Iterator[Frame]], Iterator[Frame]] | None = None,
) -> Game:
    """Record a video (or folder of frames) offline, as fast as it reads, resuming from the
    journal in the spec's `out_dir`; write the GCG to `output` and return the game (a file
    that stops decoding partway, or a plugin that stops the run: the GCG of what was read, then
    SourceDamaged or hookspecs.StopRun; bad input ridden out, or no board in any frame: the
    whole GCG, then RiddenOut).
    `pm`
    defaults to the built-in and installed plugins; `events` are the operator entries the
    camera cannot see (tilecast.watch.load_events); `tap` wraps the frame source (a benchmark
    times each frame)."""
    from tilecast.engine.record import gcg_text
    from tilecast.files import write_atomic
    from tilecast.hookspecs import StopRun
    from tilecast.pluginmanager import plugin_manager
    from tilecast.vision.sources import SourceDamaged, frame_count
    from tilecast.watch import watch

    board = open_board(spec, pm or plugin_manager())
    reader = board.reader()
    source = board.frames()
    if tap is not None:
        source = tap(source)
    total = frame_count(spec.source)
    stopped: Exception | None = None
    troubles: list[str] = []
    try:
        troubles = watch(board.session, reader, source, board.gate(), list(events), total,
                         progress, board.replay_until)
    except (SourceDamaged, StopRun) as exc:
        stopped = exc  # what was read before the damage is recorded all the same
    try:
        board.session.close()
    except StopRun as exc:
        stopped = stopped or exc
    game = board.session.game
    write_atomic(output, gcg_text(game, spec.players, spec.name, board.session.info.lexicon))
    stopped = stopped or board.ridden_out(troubles)
    if stopped is not None:
        raise stopped
    return game
