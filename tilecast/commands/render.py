"""`tilecast render`: synthetic camera footage of a game, cell crops, and contact sheets."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from tilecast.commands.args import positive
from tilecast.vision.render.cells import render_cells
from tilecast.vision.render.script import (
    RenderTurn,
    gcg_script,
    selfplay_script,
    turns_from_json,
)
from tilecast.vision.render.sheets import crops_sheet, frames_sheet
from tilecast.vision.render.video import render_game


def register(sub: argparse._SubParsersAction) -> None:
    render = sub.add_parser("render", help="render synthetic footage and training crops")
    rsub = render.add_subparsers(dest="render_command", required=True)
    game = rsub.add_parser(
        "game", help="render a game to an .mp4 (truth in NAME.truth.json) or a frame folder",
        description="SOURCE is a .gcg record, a .json script "
        '([{"player": 0, "withdrawn": false, "tiles": [[row, col, "A"], ...]}, ...], 0-based, '
        "lower case for a blank) or selfplay:SEED for a computer-vs-computer game.")
    game.add_argument("source")
    game.add_argument("out", type=Path, help="NAME.mp4 or a folder")
    game.add_argument("--seed", type=int, default=0, help="draws the look (default 0)")
    game.add_argument("--fps", type=positive, default=10.0)
    game.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    game.set_defaults(func=run_game)
    cells = rsub.add_parser("cells", help="render labelled cell crops into an .npz")
    cells.add_argument("n", type=int)
    cells.add_argument("out", type=Path)
    cells.add_argument("--seed", type=int, default=0)
    cells.add_argument("--size", type=int, default=64)
    cells.add_argument("--mirror", type=float, default=0.0, help="share of mirrored crops")
    cells.set_defaults(func=run_cells)
    sheets = rsub.add_parser("sheets", help="contact sheets of frames and crops (PNG)")
    sheets.add_argument("frames", type=Path)
    sheets.add_argument("crops", type=Path)
    sheets.add_argument("--seed", type=int, default=0)
    sheets.set_defaults(func=run_sheets)


def load_script(source: str) -> list[RenderTurn]:
    if source.startswith("selfplay:"):
        return selfplay_script(int(source.split(":", 1)[1]))
    path = Path(source)
    if path.suffix.lower() == ".gcg":
        return gcg_script(path.read_bytes(), str(path))
    return turns_from_json(json.loads(path.read_text(encoding="utf-8")))


def _size(text: str) -> tuple[int, int]:
    w, h = text.lower().split("x")
    return int(w), int(h)


def run_game(args: argparse.Namespace) -> int:
    try:
        turns = load_script(args.source)
        size = _size(args.size)
    except (OSError, ValueError) as exc:
        print(f"tilecast render game: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    truth = render_game(turns, args.out, seed=args.seed, fps=args.fps, size=size)
    frames = len(json.loads(truth.read_text())["frames"])
    took = time.perf_counter() - start
    print(f"{frames} frames, {len(turns)} turns in {took:.1f} s -> {args.out} (truth {truth})")
    return 0


def run_cells(args: argparse.Namespace) -> int:
    images, labels = render_cells(args.n, args.seed, size=args.size, mirror=args.mirror)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, images=images, classes=labels.classes,
                        rotation=labels.rotation, mirrored=labels.mirrored,
                        tile_family=labels.tile_family, board_family=labels.board_family,
                        square=labels.square, lift=labels.lift, occluded=labels.occluded)
    print(f"{args.n} crops -> {args.out}")
    return 0


def run_sheets(args: argparse.Namespace) -> int:
    turns = selfplay_script(args.seed)
    for path, img in ((args.frames, frames_sheet(turns, list(range(args.seed, args.seed + 12)))),
                      (args.crops, crops_sheet(seed=args.seed))):
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), img)
        print(f"-> {path}")
    return 0
