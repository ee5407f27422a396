"""`tilecast annotate VIDEO` (offline, as fast as the CPU allows) and `tilecast run` (live)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tilecast.commands.args import (
    CORNERS_HELP,
    add_plugin_options,
    board_arg,
    corners_arg,
    enrolled_arg,
    player_arg,
    positive,
)
from tilecast.commands.errors import ConfigError, check_folder, check_writable
from tilecast.hookspecs import StopRun
from tilecast.opening import OpenBoard, RiddenOut, Spec, SpecError, annotate, open_board
from tilecast.pluginmanager import plugin_manager
from tilecast.session import SharedSession
from tilecast.watch import EventsFileError, load_events, watch

if TYPE_CHECKING:
    from tilecast.hall.broker import Broker

OPTIONS = {"profile": "--profile", "lexicon": "--lexicon", "tileset": "--tileset"}


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
    live.add_argument("--nats", default="", metavar="URL",
                      help="also publish the journal to the event's NATS JetStream stream "
                      "and take the hall's entries (an edge; docs/hall.md)")
    live.add_argument("--event", dest="event_name", default="", metavar="EVENT",
                      help="with --nats: the event's name, or its TOML file (name, [nats])")
    _common(live)
    live.set_defaults(func=run_live)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", default="board1", type=board_arg,
                   help="board name (files are named after it)")
    p.add_argument("--out-dir", type=Path, help="journal, live GCG and alert log folder")
    p.add_argument("--lexicon", help="word list file, 'enable' for ENABLE or 'none' (default: "
                   "the profile's lexicon where supplied, else ENABLE)")
    p.add_argument("--profile", default="wespa", help="rule profile name or TOML path")
    p.add_argument("--tileset", dest="enrolled", type=enrolled_arg,
                   help="enrolled tile set (.npz from enroll)")
    p.add_argument("--events", type=Path, help="JSONL operator events (passes, exchanges, ...)")
    p.add_argument("--player1", default="Player 1", type=player_arg)
    p.add_argument("--player2", default="Player 2", type=player_arg)
    p.add_argument("--corners", type=corners_arg, metavar="X1,Y1,...", help=CORNERS_HELP)
    p.add_argument("--fps", type=positive, default=Spec.fps, help="frames per second to read")
    p.add_argument("--still", type=positive, default=Spec.still_s,
                   help="seconds still before a commit")
    add_plugin_options(p)


def board_spec(args: argparse.Namespace, source: str, out_dir: Path,
               realtime: bool = False) -> Spec:
    """The board the command line describes."""
    corners = None if args.corners is None else tuple(map(tuple, args.corners.tolist()))
    return Spec(
        args.board, out_dir, source, (args.player1, args.player2), args.profile,
        args.lexicon or "", enrolled=args.enrolled or "", corners=corners, fps=args.fps,
        still_s=args.still, realtime=realtime,
    )


def _usage(exc: SpecError) -> ConfigError:
    """The spec's error as the command line's: naming the option (and the value, unless the
    reason does)."""
    option = OPTIONS.get(exc.field, exc.field)
    return ConfigError(f"{option if exc.value in exc.why else f'{option} {exc.value}'}: {exc.why}")


def _open(spec: Spec, args: argparse.Namespace) -> OpenBoard:
    try:  # (shared: an edge submits the hall's entries from its own thread)
        return open_board(spec, plugin_manager(disabled=args.disabled_plugins), None,
                          SharedSession)
    except SpecError as exc:
        raise _usage(exc) from None


def run_annotate(args: argparse.Namespace) -> int:
    from tilecast.vision.sources import SourceDamaged, SourceError

    check_writable("-o", args.output)
    out_dir = args.out_dir or args.output.with_suffix(".tilecast")
    check_folder("--out-dir", out_dir)
    journal = out_dir / f"{args.board}.journal.jsonl"
    if args.fresh and journal.exists():
        journal.unlink()
    try:
        events = load_events(args.events) if args.events else []
    except (OSError, EventsFileError) as exc:
        print(f"tilecast annotate: {exc}", file=sys.stderr)
        return 2
    pm = plugin_manager(disabled=args.disabled_plugins)
    try:
        game = annotate(board_spec(args, args.video, out_dir), args.output, pm, events,
                        progress=True)
    except SpecError as exc:
        raise _usage(exc) from None
    except (SourceDamaged, StopRun, RiddenOut) as exc:
        print(f"tilecast annotate: {exc}; what was read is recorded in {args.output}",
              file=sys.stderr)
        return 1
    except SourceError as exc:
        print(f"tilecast annotate: {exc}", file=sys.stderr)
        return 2
    print(f"{len(game.turns)} turns, scores {game.scores[0]}-{game.scores[1]}; "
          f"GCG written to {args.output}")
    return 0


def _broker(args: argparse.Namespace) -> Broker | None:
    """The broker `--nats` and `--event` (a name, or the event file) name, if any."""
    from tilecast.server.config import ConfigError as EventError
    from tilecast.server.config import broker, load_event

    given = Path(args.event_name)
    try:
        if args.event_name.endswith(".toml") or given.is_file():
            settings, _ = load_event(given)
            return broker(settings, args.nats)
        if args.nats and not args.event_name:
            raise ConfigError("--nats needs --event (the event's name or file)")
        return broker({}, args.nats, args.event_name)
    except EventError as exc:
        raise ConfigError(f"--event: {exc}") from None


def run_live(args: argparse.Namespace) -> int:
    from tilecast.hall.edge import Edge
    from tilecast.vision.sources import SourceDamaged, SourceError

    out_dir = args.out_dir or Path("tilecast-out")
    check_folder("--out-dir", out_dir)
    hub = _broker(args)
    board = _open(board_spec(args, args.source, out_dir, args.realtime), args)
    session = board.session
    edge = None
    if hub is not None:  # an edge: the stream gets every entry, the hall's entries come here
        edge = Edge(hub, session)
        edge.start()
    if session.recorder.lexicon is not None:
        # Built now rather than at the first blank the lexicon cannot name, which would hold
        # a live game's broadcast up for a second or two.
        _ = session.recorder.lexicon.spelling
    troubles: list[str] = []
    try:
        events = load_events(args.events) if args.events else []
        troubles = watch(session, board.reader(), board.frames(), board.gate(), events,
                         replay_until=board.replay_until)
    except KeyboardInterrupt:
        pass
    except SourceDamaged as exc:
        print(f"tilecast run: {exc}; what was read is recorded", file=sys.stderr)
        return 1
    except (OSError, EventsFileError, SourceError) as exc:
        print(f"tilecast run: {exc}", file=sys.stderr)
        return 2
    finally:
        session.close()
        if edge is not None:
            left = edge.close()
            if left:
                print(f"tilecast run: {left} entries not yet on the broker; they are in the "
                      "journal, and the next run with --nats publishes them", file=sys.stderr)
    ridden = board.ridden_out(troubles)
    if ridden is not None:
        print(f"tilecast run: {ridden}; what was read is recorded", file=sys.stderr)
        return 1
    return 0
