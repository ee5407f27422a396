"""`tilecast demo`: a whole game seen through the real pipeline, live in the browser.

Two computer players play a game (ENABLE word list), the renderer films it, and the server
records the video as if it were a camera, in real time, so the live page fills in move by move.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from tilecast.commands.args import port, positive
from tilecast.opening import Spec


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="self-play, render, record and serve a game live")
    p.add_argument("--seed", type=int, default=23, help="which game to play and film")
    p.add_argument("--out-dir", type=Path, default=Path("demo-out"))
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=port, default=8080)
    p.add_argument("--fps", type=positive, default=5.0, help="frames per second of the video")
    p.set_defaults(func=run)


def film(seed: int, video: Path, fps: float) -> None:
    """Self-play a game and render it (with a withdrawn phony or two) to `video`."""

    from tilecast.config import load_profile, load_tileset
    from tilecast.engine.selfplay import self_play
    from tilecast.lexicons import load_lexicon
    from tilecast.vision.render.script import turns_from_game
    from tilecast.vision.render.video import render_game

    game = self_play(
        load_lexicon("enable"), load_tileset("english"), load_profile("wespa"), seed, phonies=0.1
    ).game
    turns = turns_from_game(game)
    print(
        f"filming a self-play game: {len(game.turns)} turns, final "
        f"{game.scores[0]}-{game.scores[1]} ...",
        flush=True,
    )
    render_game(turns, video, seed=seed, fps=fps)


def run(args: argparse.Namespace) -> int:
    from tilecast.commands import serve

    video = args.out_dir / f"game{args.seed}.mp4"
    if not video.exists():
        film(args.seed, video, args.fps)
    records = args.out_dir / "server"
    shutil.rmtree(records, ignore_errors=True)  # each demo records the game afresh
    print(f"Live board: http://{args.host}:{args.port}/boards/demo  (Ctrl-C to stop)", flush=True)
    options = argparse.Namespace(
        event=None,
        board=[f"demo={video}"],
        out_dir=records,
        profile="wespa",
        lexicon="enable",
        delay=0.0,
        tileset=None,
        host=args.host,
        port=args.port,
        max_streams=64,
        fps=args.fps,
        still=Spec.still_s,
        disabled_plugins=[],
    )
    return serve.run(options)
