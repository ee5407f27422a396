"""`tilecast serve`: every board of an event in one server (live pages, overlays, operator
console, TD dashboard, JSON API), under waitress."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tilecast.commands.args import add_plugin_options, enrolled_arg, port, positive, positive_int
from tilecast.opening import Spec

if TYPE_CHECKING:
    from tilecast.server.config import ServerConfig

# Threads beyond the stream cap, so pages and API calls are answered while every stream is open.
SPARE_THREADS = 16
OUTBUF_LIMIT = 256 * 1024  # bytes queued for one client before its stream waits (then drops)
LOOKAHEAD = 1  # waitress reads ahead, so it sees at once that a stream's client has hung up


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="serve live boards, overlays, the operator console and the TD dashboard",
        description="Boards come from --board (repeatable) and/or an --event TOML file. "
        "Write tokens come from TILECAST_OPERATOR_TOKEN and TILECAST_TD_TOKEN, or are "
        "generated and printed.",
    )
    p.add_argument("--event", type=Path, help="TOML event file: boards, players, profile...")
    p.add_argument("--board", action="append", default=[], metavar="NAME=SOURCE",
                   help="a board and its camera index, stream URL, video or folder; "
                   "NAME alone for operator input only (repeatable)")
    p.add_argument("--out-dir", type=Path, help="journals, GCG files, alert logs, corners")
    p.add_argument("--profile", default="wespa", help="rule profile for --board boards")
    p.add_argument("--lexicon", default="", help="word list for --board boards (default: the "
                   "profile's where supplied, else ENABLE; 'none' for none)")
    p.add_argument("--delay", type=float, default=0.0,
                   help="broadcast delay in seconds for --board boards")
    p.add_argument("--tileset", type=enrolled_arg,
                   help="enrolled tile set (.npz from enroll) for --board boards")
    p.add_argument("--nats", default="", metavar="URL",
                   help="serve as the event's hall: every board from its edge through this "
                   "NATS JetStream broker (default: the event file's [nats] url, if any)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=port, default=8080)
    p.add_argument("--max-streams", type=positive_int, default=256,
                   help="live streams (event streams, camera previews) open at once")
    p.add_argument("--fps", type=positive, default=Spec.fps, help="camera frames read per second")
    p.add_argument("--still", type=positive, default=Spec.still_s,
                   help="seconds still before a commit")
    add_plugin_options(p)
    p.set_defaults(func=run)


def build_config(
    args: argparse.Namespace, env: dict[str, str]
) -> tuple[ServerConfig, list[str]]:
    """The server configuration the arguments and environment describe, and which tokens
    were generated (to print them)."""
    from tilecast.server.config import (
        ConfigError,
        ServerConfig,
        board_arg,
        broker,
        load_event,
        token,
    )

    settings, boards = load_event(args.event) if args.event else ({}, [])
    defaults = {"profile": args.profile, "lexicon": args.lexicon, "delay": args.delay,
                "tileset": args.tileset or ""}
    boards += [board_arg(text, defaults) for text in args.board]
    if not boards:
        raise ConfigError("give at least one --board or an --event file")
    out_dir = args.out_dir or Path(settings.get("out_dir", "tilecast-out"))
    operator, new_operator = token(env, "TILECAST_OPERATOR_TOKEN")
    td, new_td = token(env, "TILECAST_TD_TOKEN")
    config = ServerConfig(
        boards=tuple(boards), out_dir=out_dir, operator_token=operator, td_token=td,
        max_streams=args.max_streams, fps=args.fps, still_s=args.still,
        broker=broker(settings, args.nats),
    )
    generated = [name for name, new in (("operator", new_operator), ("td", new_td)) if new]
    return config, generated


def run(args: argparse.Namespace) -> int:
    import waitress

    from tilecast.pluginmanager import plugin_manager
    from tilecast.server.app import create_app
    from tilecast.server.config import ConfigError

    try:
        config, generated = build_config(args, dict(os.environ))
        app = create_app(config, plugin_manager(disabled=args.disabled_plugins))
    except (ConfigError, OSError, ValueError) as exc:
        print(f"tilecast serve: {exc}", file=sys.stderr)
        return 2
    base = f"http://{args.host}:{args.port}"
    print(f"Tilecast serving {len(config.boards)} board(s) on {base}/ (TD: {base}/td)")
    if config.broker is not None:
        print(f"  the hall of event {config.broker.event}: boards from {config.broker.url} "
              f"(stream {config.broker.stream})")
    for role in generated:
        value = config.operator_token if role == "operator" else config.td_token
        print(f"  {role} token (generated): {value}")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print("  warning: tokens travel in clear text; put TLS in front of this server",
              file=sys.stderr)
    try:
        waitress.serve(
            app,
            host=args.host,
            port=args.port,
            threads=config.max_streams + SPARE_THREADS,
            connection_limit=config.max_streams + 4 * SPARE_THREADS,
            outbuf_high_watermark=OUTBUF_LIMIT,
            asyncore_use_poll=True,  # select() stops at 1024 sockets
            channel_request_lookahead=LOOKAHEAD,  # so a closed stream frees its slot at once
            ident="tilecast",
        )
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["tilecast.server"].close()
    return 0
