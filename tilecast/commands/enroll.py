"""`tilecast enroll`: read a photo of the tile set laid out on the board, check the set is
complete and save the tiles' prototypes for the classifier."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from tilecast.commands.args import CORNERS_HELP, corners_arg, positive
from tilecast.commands.errors import OptionError, check_writable
from tilecast.commands.readboard import rows_of
from tilecast.config import load_profile, load_tileset
from tilecast.vision.classify import TileClassifier
from tilecast.vision.enroll import board_cells, enroll_board
from tilecast.vision.reader import reader_crops
from tilecast.vision.rectify import corners_from_points


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "enroll",
        help="learn a venue's tiles from a photo of the set laid out on the board",
        description="Lay the 100 tiles out in four 5x5 grids in the board's corners (rows 1-5 "
        "and 11-15, columns A-E and K-O), in alphabetical order with the blanks last, filling "
        "the top-left grid row by row, then top-right, bottom-left, bottom-right. Exit status "
        "1 when a tile is missing, extra or out of place (the prototypes are saved anyway).",
    )
    p.add_argument("image", type=Path, metavar="IMAGE",
                   help="a photo of the set laid out; with --record, a recorded game's video "
                   "(or folder of frames)")
    p.add_argument("--record", type=Path, metavar="GAME.gcg",
                   help="learn from a game already played: IMAGE is its video and this its "
                   "final record (as the operator corrected it); every settled frame that shows "
                   "a position of the record labels its squares")
    p.add_argument("--fps", type=positive, default=2.0, help="frames a second read of the video")
    p.add_argument("--profile", default="wespa", help="rule profile the record was played under")
    p.add_argument("--corners", type=corners_arg, metavar="X1,Y1,...", help=CORNERS_HELP)
    p.add_argument("-o", "--output", type=Path, default=Path("tileset.npz"),
                   help="where to save the prototypes (default tileset.npz)")
    p.add_argument("--model", type=Path, help="tile classifier ONNX (default: the shipped one)")
    p.add_argument("--tileset", default="english", help="tile set name or TOML path")
    p.set_defaults(func=run_enroll)


def run_enroll(args: argparse.Namespace) -> int:
    check_writable("-o", args.output)
    if args.record is not None:
        return enroll_game(args)
    image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if image is None:
        print(f"tilecast enroll: cannot read {args.image}", file=sys.stderr)
        return 2
    corners = args.corners
    if corners is not None:
        try:
            corners_from_points(corners, (image.shape[1], image.shape[0]))
        except ValueError as exc:
            raise OptionError(f"--corners: {exc}") from None
    else:
        from tilecast.vision.locate import BoardNotFound, locate_board

        try:
            corners = locate_board(image).corners
        except BoardNotFound as exc:
            print(f"tilecast enroll: {exc}; give --corners", file=sys.stderr)
            return 2
    try:
        tileset = load_tileset(args.tileset)
        clf = TileClassifier.load(args.model)
        check = enroll_board(clf, board_cells(image, corners), tileset)
    except (OSError, ValueError) as exc:
        print(f"tilecast enroll: {exc}", file=sys.stderr)
        return 2
    check.prototypes.save(args.output)
    for line in check.problems:
        print(line)
    tiles = int((check.read != ".").sum())
    verdict = "complete" if check.complete else f"{len(check.problems)} problems"
    print(f"{tiles} tiles read, set {verdict}; prototypes saved to {args.output}")
    return 0 if check.complete else 1


def enroll_game(args: argparse.Namespace) -> int:
    """`tilecast enroll VIDEO --record GAME.gcg`: the venue's tiles from a recorded game."""
    from tilecast.engine.gcg import GcgError, parse_gcg
    from tilecast.engine.replay import replay
    from tilecast.vision.enroll import GameEnrolment, record_positions
    from tilecast.vision.reader import BoardReader
    from tilecast.vision.sources import SourceError, frames
    from tilecast.vision.stillness import StillConfig

    try:
        tileset = load_tileset(args.tileset)
        record = parse_gcg(args.record.read_bytes(), str(args.record))
        done = replay(record, load_profile(args.profile), tileset)
        clf = TileClassifier.load(args.model)
    except (OSError, ValueError, GcgError) as exc:
        print(f"tilecast enroll: {exc}", file=sys.stderr)
        return 2
    if done.game is None:
        print(f"tilecast enroll: {args.record}: {done.discrepancies[0].reason}", file=sys.stderr)
        return 2
    gathered = GameEnrolment(record_positions(done.game), [], [], Counter())
    reader = BoardReader(clf, args.corners)
    rng = np.random.default_rng(0)
    still = StillConfig().motion
    fps = None
    try:
        for _, seconds, frame in frames(str(args.image)):
            if fps is not None and seconds < fps:
                continue
            fps = seconds + 1 / args.fps
            reading = reader.read(frame)
            if reading is None or reading.motion > still:
                continue
            read = np.array(list("".join(rows_of(reading.probs)))).reshape(15, 15)
            gathered.add(read, reader_crops(frame, reading.fix), reading.crop_of, rng)
        prototypes = gathered.prototypes(clf)
    except (SourceError, ValueError) as exc:
        print(f"tilecast enroll: {args.image}: {exc}", file=sys.stderr)
        return 2
    prototypes.save(args.output)
    counts = prototypes.counts
    print(f"{sum(gathered.used.values())} settled frames of {len(gathered.used)} positions of "
          f"{len(gathered.positions)} used ({gathered.refused} matched none); "
          f"{int(counts[:26].sum())} letter tiles, {int(counts[26])} blanks, "
          f"{int(counts[27])} empty squares; prototype weight {prototypes.weight:g}; "
          f"saved to {args.output}")
    return 0
