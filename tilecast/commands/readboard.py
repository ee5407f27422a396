"""`tilecast read-board IMAGE`: the board in one photo, as 15 rows of letters."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from tilecast.engine.infer import CLASSES, EMPTY_CLASS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read-board", help="read every square of a board photo")
    p.add_argument("image", help="photo or video frame (any format OpenCV reads)")
    p.add_argument("--corners", help="x1,y1,...,x4,y4 of the playing area (skips localisation)")
    p.add_argument("--tileset", dest="enrolled", help="enrolled tile set (.npz from enroll)")
    p.add_argument("--json", action="store_true", help="rows, corners, confidences as JSON")
    p.set_defaults(func=run)


def rows_of(probs: np.ndarray) -> list[str]:
    """15 strings: 'A'-'Z', '?' for a blank, '.' for an empty square."""
    top = probs.argmax(axis=1)
    return ["".join(CLASSES[k] for k in top[r * 15 : (r + 1) * 15]) for r in range(15)]


def run(args: argparse.Namespace) -> int:
    import cv2

    from tilecast.commands.record import corners_arg
    from tilecast.vision import TileClassifier
    from tilecast.vision.reader import BoardReader

    image = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if image is None:
        print(f"tilecast read-board: cannot read image {args.image}", file=sys.stderr)
        return 2
    clf = TileClassifier.load(tileset=args.enrolled)
    reading = BoardReader(clf, corners_arg(args.corners)).read(image)
    if reading is None:
        print(f"tilecast read-board: no board found in {args.image}", file=sys.stderr)
        return 2
    rows = rows_of(reading.probs)
    if not args.json:
        print("\n".join(rows))
        return 0
    confidence = reading.probs.max(axis=1).reshape(15, 15).round(3).tolist()
    json.dump(
        {
            "rows": rows,
            "corners": np.round(reading.corners, 1).tolist(),
            "confidence": confidence,
            "orientation": reading.orientation,
            "mirrored": reading.mirrored,
            "tiles": int((reading.probs[:, EMPTY_CLASS] < 0.5).sum()),
        },
        sys.stdout,
    )
    print()
    return 0
