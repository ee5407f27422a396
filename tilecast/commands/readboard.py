"""`tilecast read-board IMAGE`: the board in one photo, as 15 rows of letters."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from tilecast.commands.args import CORNERS_HELP, corners_arg, enrolled_arg
from tilecast.engine.infer import CLASSES


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read-board", help="read every square of a board photo")
    p.add_argument("image", help="photo or video frame (any format OpenCV reads)")
    p.add_argument("--corners", type=corners_arg, metavar="X1,Y1,...", help=CORNERS_HELP)
    p.add_argument("--tileset", dest="enrolled", type=enrolled_arg,
                   help="enrolled tile set (.npz from enroll)")
    p.add_argument("--json", action="store_true", help="rows, corners, confidences as JSON")
    p.set_defaults(func=run)


def rows_of(probs: np.ndarray) -> list[str]:
    """15 strings: 'A'-'Z', '?' for a blank, '.' for an empty square."""
    top = probs.argmax(axis=1)
    return ["".join(CLASSES[k] for k in top[r * 15 : (r + 1) * 15]) for r in range(15)]


def run(args: argparse.Namespace) -> int:
    import cv2

    from tilecast.vision import TileClassifier
    from tilecast.vision.reader import BoardReader
    from tilecast.vision.rectify import corners_from_points, too_small

    image = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if image is None:
        print(f"tilecast read-board: cannot read image {args.image}", file=sys.stderr)
        return 2
    corners = args.corners
    if corners is not None:
        try:
            corners = corners_from_points(corners, (image.shape[1], image.shape[0]))
        except ValueError as exc:
            print(f"tilecast read-board: --corners: {exc}", file=sys.stderr)
            return 2
    clf = TileClassifier.load(tileset=args.enrolled)
    reader = BoardReader(clf, corners)
    reading = reader.read(image)
    if reading is None:
        print(f"tilecast read-board: no board found in {args.image}: {reader.why}",
              file=sys.stderr)
        return 2
    small = too_small(reading.fix)
    if small:
        print(f"tilecast read-board: warning: {small}", file=sys.stderr)
    rows = rows_of(reading.probs)
    if not args.json:
        print("\n".join(rows))
        return 0
    confidence = reading.probs.max(axis=1).astype(float).reshape(15, 15).round(3).tolist()
    json.dump(
        {
            "rows": rows,
            "corners": [[round(float(v), 1) for v in point] for point in reading.corners],
            "confidence": confidence,
            "orientation": reading.orientation,
            "mirrored": reading.mirrored,
            "tiles": sum(len(r) - r.count(".") for r in rows),
        },
        sys.stdout,
    )
    print()
    return 0
