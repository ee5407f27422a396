"""`tilecast annotate VIDEO` (offline, as fast as the CPU allows) and `tilecast run` (live)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tilecast.commands.args import (
    CORNERS_HELP,
    add_plugin_options,
    corners_arg,
    enrolled_arg,
    positive,
)
from tilecast.commands.errors import check_writable, loaded
from tilecast.config import load_profile, load_tileset
from tilecast.engine.record import gcg_text
from tilecast.events import SessionInfo
from tilecast.files import write_atomic
from tilecast.pluginmanager import plugin_manager
from tilecast.recorder import Recorder
from tilecast.session import Session
from tilecast.watch import EventsFileError, load_events, watch


def register(sub: argparse._SubParsersAction) -> None:
    annotate = sub.add_parser("annotate", help="record a game from a video file")
    annotate.add_argument("video", help="video file or folder of frames")
    annotate.add_argument("-o", "--output", type=Path, required=True, help="GCG file to write")
    annotate.add_argument("--fresh", action="store_true", help="ignore an earlier run's journal")
    _common(annotate)
    annotate.set_defaults(func=run_annotate)
    live = sub.add_parser("run", help="record a game live from a camera or stream")
    live.add_argument("--source", required=True, help="camera index, stream URL, file or folder")
    live.add_argument("--realtime", action="store_true", help="play a file at its own speed")
    _common(live)
    live.set_defaults(func=run_live)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", default="board1", help="board name (files are named after it)")
    p.add_argument("--out-dir", type=Path, help="journal, live GCG and alert log folder")
    p.add_argument("--lexicon", help="word list file (default: none; 'enable' for ENABLE)")
    p.add_argument("--profile", default="wespa", help="rule profile name or TOML path")
    p.add_argument("--tileset", dest="enrolled", type=enrolled_arg,
                   help="enrolled tile set (.npz from enroll)")
    p.add_argument("--events", type=Path, help="JSONL operator events (passes, exchanges, ...)")
    p.add_argument("--player1", default="Player 1")
    p.add_argument("--player2", default="Player 2")
    p.add_argument("--corners", type=corners_arg, metavar="X1,Y1,...", help=CORNERS_HELP)
    p.add_argument("--fps", type=positive, default=6.0, help="frames per second to read")
    p.add_argument("--still", type=positive, default=1.0, help="seconds still before a commit")
    add_plugin_options(p)


def _session(args: argparse.Namespace, out_dir: Path, source: str) -> Session:
    from tilecast.lexicons import load_lexicon

    lexicon = loaded("--lexicon", args.lexicon, load_lexicon) if args.lexicon else None
    rules = loaded("--profile", args.profile, load_profile)
    recorder = Recorder(rules, load_tileset("english"), lexicon)
    info = SessionInfo(
        args.board, (args.player1, args.player2), args.profile, str(out_dir), source,
        args.lexicon or "",
    )
    return Session(info, recorder, plugin_manager(disabled=args.disabled_plugins))


def _reader(args: argparse.Namespace, session: Session):
    from tilecast.vision import TileClassifier
    from tilecast.vision.reader import BoardReader

    clf = TileClassifier.load(tileset=args.enrolled)
    return BoardReader(clf, args.corners, view=session.camera_view)


def resumed_frames(spec: str, session: Session, fps: float, realtime: bool = False):
    """Frames of a file or folder at about `fps`, starting after the last frame the journal
    has (on the same sampling grid, so a resumed run reads the frames an unbroken one would).
    Live sources just stream."""
    from tilecast.vision.sources import frames, native_fps, paced

    if not Path(spec).exists():
        return frames(spec)
    step = max(1, round(native_fps(spec) / fps)) if fps > 0 else 1
    start = (session.resume_frame // step + 1) * step if session.resume_frame >= 0 else 0
    source = frames(spec, start=start, step=step)
    return paced(source) if realtime else source


def run_annotate(args: argparse.Namespace) -> int:
    from tilecast.vision.sources import SourceError, frame_count
    from tilecast.vision.stillness import StillConfig, StillnessGate

    check_writable("-o", args.output)
    out_dir = args.out_dir or args.output.with_suffix(".tilecast")
    journal = out_dir / f"{args.board}.journal.jsonl"
    if args.fresh and journal.exists():
        journal.unlink()
    try:
        events = load_events(args.events) if args.events else []
    except (OSError, EventsFileError) as exc:
        print(f"tilecast annotate: {exc}", file=sys.stderr)
        return 2
    session = _session(args, out_dir, args.video)
    reader = _reader(args, session)
    try:
        source = resumed_frames(args.video, session, args.fps)
        gate = StillnessGate(StillConfig(still_s=args.still))
        watch(session, reader, source, gate, events, frame_count(args.video), progress=True)
    except SourceError as exc:
        print(f"tilecast annotate: {exc}", file=sys.stderr)
        return 2
    session.close(settle=True)
    write_gcg(session, args.output)
    print(
        f"{len(session.game.turns)} turns, scores {session.game.scores[0]}-"
        f"{session.game.scores[1]}; GCG written to {args.output}"
    )
    return 0


def run_live(args: argparse.Namespace) -> int:
    from tilecast.vision.sources import SourceError
    from tilecast.vision.stillness import StillConfig, StillnessGate

    out_dir = args.out_dir or Path("tilecast-out")
    session = _session(args, out_dir, args.source)
    if session.recorder.lexicon is not None:
        # Built now rather than at the first blank the lexicon cannot name, which would hold
        # a live game's broadcast up for a second or two.
        _ = session.recorder.lexicon.spelling
    try:
        events = load_events(args.events) if args.events else []
        reader = _reader(args, session)
        source = resumed_frames(args.source, session, args.fps, realtime=args.realtime)
        watch(session, reader, source, StillnessGate(StillConfig(args.still)), events)
    except KeyboardInterrupt:
        pass
    except (OSError, EventsFileError, SourceError) as exc:
        print(f"tilecast run: {exc}", file=sys.stderr)
        return 2
    finally:
        session.close()
    return 0


def write_gcg(session: Session, path: Path) -> None:
    """The session's record as GCG, written atomically (the same text the live file holds)."""
    info = session.info
    write_atomic(path, gcg_text(session.game, info.players, info.board, info.lexicon))
