"""Measure the board locator on labelled photos: corner error in cells, hit rate, speed.

    .venv/bin/python benchmarks/locate_eval.py                 # ../shared test split
    .venv/bin/python benchmarks/locate_eval.py --stress        # also turned/mirrored/dark/hand
    .venv/bin/python benchmarks/locate_eval.py --rendered 100  # other boards, from vision.render
    .venv/bin/python benchmarks/locate_eval.py --photos DIR --train DIR

Error per photo: the largest distance between a found corner and its label, divided by the
labelled playing area's side / 15 (its mean, in photo pixels). Corners are matched in the
documented order (clockwise from the corner nearest the image's top-left), up to a cyclic
shift: near 45 degrees two corners are about as near the top-left, and which one starts is
a tie; the report counts how often the order differs. A photo counts as a hit when the
error is at most a quarter of a cell; BoardNotFound counts as a miss. Times are wall-clock
per frame on one thread (OpenCV and onnxruntime both limited to one).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from tilecast.vision.corner_labels import LabelledPhoto, read_coco_corners
from tilecast.vision.locate import (
    BoardFix,
    BoardNotFound,
    LocateConfig,
    locate_board,
    order_corners,
    track,
)
from tilecast.vision.rectify import board_to_image, cell_size_px

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "real" / "board-corners"
TOLERANCE = 0.25

Variant = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _mirror(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return img[:, ::-1].copy(), np.c_[img.shape[1] - 1 - pts[:, 0], pts[:, 1]]


def _turn90(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clockwise quarter turn: the frame becomes portrait."""
    return np.rot90(img, -1).copy(), np.c_[img.shape[0] - 1 - pts[:, 1], pts[:, 0]]


def _tilt(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """20 degrees in the image plane about the board's centre, shrunk to stay in the frame."""
    m = cv2.getRotationMatrix2D(tuple(map(float, pts.mean(0))), 20, 0.8)
    out = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderValue=(40, 40, 40))
    return out, pts @ m[:, :2].T + m[:, 2]


def _dark(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dim, warm, uneven light."""
    ramp = np.linspace(0.35, 0.8, img.shape[1], dtype=np.float32)[None, :, None]
    out = img.astype(np.float32) * ramp * np.float32([0.7, 0.9, 1.1])
    return np.clip(out, 0, 255).astype(np.uint8), pts


def _hand(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A skin-coloured hand and arm over the middle of the right-hand side."""
    out = img.copy()
    mid = (pts[1] + pts[2]) / 2
    inward = pts.mean(0) - mid
    cell = cell_size_px(pts)
    centre = mid + inward / np.linalg.norm(inward) * 1.5 * cell
    cv2.ellipse(
        out,
        tuple(map(int, centre)),
        (int(2.2 * cell), int(1.6 * cell)),
        0,
        0,
        360,
        (120, 150, 210),
        -1,
    )
    cv2.line(
        out,
        tuple(map(int, centre)),
        (img.shape[1], int(centre[1])),
        (110, 140, 200),
        int(2.5 * cell),
    )
    return out, pts


def _hand_on_corner(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fist over the third corner (bottom right of an upright board), arm to the frame edge."""
    out = img.copy()
    cell = cell_size_px(pts)
    corner = pts[2]
    cv2.circle(out, tuple(map(int, corner)), int(1.5 * cell), (110, 140, 200), -1)
    cv2.line(
        out, tuple(map(int, corner)), (img.shape[1], img.shape[0]), (100, 130, 190), int(2.0 * cell)
    )
    return out, pts


def _rack(img: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A player's rack with seven tiles in front of the board's near edge (the side lowest in
    the frame), hiding its last square and a half, as a camera behind a player sees it."""
    out = img.copy()
    to_image = board_to_image(pts)
    near = max(range(4), key=lambda k: pts[k][1] + pts[(k + 1) % 4][1])  # side k: k to k+1

    def on_board(quad: np.ndarray) -> np.ndarray:
        centred = quad - 7.5
        for _ in range(near):  # a quarter turn takes side 0 (v = 0) to side 1
            centred = np.c_[-centred[:, 1], centred[:, 0]]
        return cv2.perspectiveTransform(np.float32(centred + 7.5)[None], to_image)[0]

    bar = np.float32([[2, -1.5], [13, -1.5], [13, 1.5], [2, 1.5]])
    cv2.fillConvexPoly(out, on_board(bar).astype(np.int32), (50, 95, 150))
    for k in range(7):
        x = 2.6 + 1.45 * k
        tile = np.float32([[x, -0.9], [x + 1.2, -0.9], [x + 1.2, 1.1], [x, 1.1]])
        cv2.fillConvexPoly(out, on_board(tile).astype(np.int32), (190, 215, 230))
        mark = np.float32([[x + 0.4, -0.4], [x + 0.8, -0.4], [x + 0.8, 0.6], [x + 0.4, 0.6]])
        cv2.fillConvexPoly(out, on_board(mark).astype(np.int32), (40, 40, 40))
    return out, pts


STRESS: dict[str, Variant] = {
    "mirrored": _mirror,
    "turned 90": _turn90,
    "tilted 20": _tilt,
    "dark": _dark,
    "hand": _hand,
    "hand on corner": _hand_on_corner,
    "rack in front": _rack,
}


Sample = tuple[str, np.ndarray, np.ndarray]  # name, BGR frame, corners in the documented order


def read_photos(photos: list[LabelledPhoto]) -> Iterator[Sample]:
    for photo in photos:
        yield photo.path.name, cv2.imread(str(photo.path)), photo.corners


def rendered_stills(n: int, hand: bool | None) -> Iterator[Sample]:
    """Frames from vision.render (other boards, tiles, tables, lenses); seeds 1000 onward."""
    from tilecast.vision.render import render_still, scattered_board

    for seed in range(1000, 1000 + n):
        board = scattered_board(np.random.default_rng(seed))
        img, truth = render_still(board, seed=seed, hand=hand)
        look = truth["look"]
        tiles = sum(ch != "." for row in board.rows() for ch in row)
        name = f"seed {seed} ({look['board']}, {look['tiles']}, tilt {look['tilt']}, {tiles} tiles)"
        yield name, img, order_corners(np.float32(truth["corners"]))


def evaluate(samples: Iterable[Sample], cfg: LocateConfig, variant: Variant | None = None) -> dict:
    errors, qualities, times, misses, names = [], [], [], [], []
    reordered = 0
    fixes: list[tuple[np.ndarray, BoardFix]] = []
    for name, img, truth in samples:
        names.append(name)
        if variant is not None:
            img, truth = variant(img, truth)
            truth = order_corners(truth)
        start = time.perf_counter()
        try:
            fix = locate_board(img, cfg)
        except BoardNotFound as err:
            misses.append(f"{name}: {err}")
            errors.append(np.inf)
            continue
        finally:
            times.append(time.perf_counter() - start)
        cell = cell_size_px(truth)
        shifted = [
            np.linalg.norm(np.roll(fix.corners, k, 0) - truth, axis=1).max() for k in range(4)
        ]
        errors.append(min(shifted) / cell)
        reordered += int(np.argmin(shifted) != 0)
        qualities.append(fix.quality)
        fixes.append((img, fix))
    track_times = []
    for img, fix in fixes:
        start = time.perf_counter()
        try:
            track(img, fix, cfg)
        except BoardNotFound:
            pass
        track_times.append(time.perf_counter() - start)
    return {
        "errors": np.array(errors),
        "qualities": np.array(qualities),
        "ms": 1000 * np.array(times),
        "track_ms": 1000 * np.array(track_times),
        "misses": misses,
        "names": names,
        "reordered": reordered,
    }


def _tiles(name: str) -> int | None:
    """The tile count a rendered still's name ends with, else None."""
    tail = name.rsplit(", ", 1)[-1]
    return int(tail.split()[0]) if tail.endswith(" tiles)") else None


def report(name: str, result: dict) -> None:
    e = result["errors"]
    hits = int((e <= TOLERANCE).sum())
    found = e[np.isfinite(e)]
    print(
        f"{name}: {hits}/{len(e)} within {TOLERANCE} cell ({100 * hits / len(e):.1f}%), "
        f"{len(found)} found"
    )
    print(f"  fixes more than half a square off (worse than a miss: read without a word): "
          f"{int((found > 0.5).sum())}")
    counts = [_tiles(n) for n in result["names"]]
    if all(c is not None for c in counts):  # rendered: a set holds 100 tiles, scatters more
        real = np.array(counts) <= 100
        print(f"  of the {int(real.sum())} with at most a set's 100 tiles: "
              f"{int((e[real] <= TOLERANCE).sum())} within {TOLERANCE} cell, "
              f"{int(np.isinf(e[real]).sum())} missed, {int((e[real] > 0.5).sum())} more than "
              "half a square off or missed")
    if len(found):
        print(f"  error (cells): median {np.median(found):.3f}, worst {found.max():.3f}")
        print(f"  corner order differs from the labels' on {result['reordered']}")
        print(
            f"  quality: min {result['qualities'].min():.2f}, "
            f"median {np.median(result['qualities']):.2f}"
        )
    ms, tms = result["ms"], result["track_ms"]
    print(f"  locate_board ms/frame: median {np.median(ms):.1f}, max {ms.max():.1f}")
    if len(tms):
        print(f"  track ms/frame: median {np.median(tms):.1f}, max {tms.max():.1f}")
    for miss in result["misses"]:
        print("  MISS", miss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=SHARED / "test")
    parser.add_argument(
        "--train",
        type=Path,
        default=SHARED / "train",
        help="training photos, to check that no original is in both",
    )
    parser.add_argument("--stress", action="store_true", help="also altered copies")
    parser.add_argument("--model", type=Path, help="another locator network to measure")
    parser.add_argument("--verbose", action="store_true", help="one line per photo")
    parser.add_argument("--rendered", type=int, default=0, help="also N vision.render stills")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    photos = read_coco_corners(args.photos)
    if args.train.is_dir():
        shared = {p.original for p in photos} & {p.original for p in read_coco_corners(args.train)}
        print(f"originals in both test and train: {len(shared)}")
    print(f"{len(photos)} photos of {len({p.original for p in photos})} originals")
    cfg = LocateConfig(model_path=args.model) if args.model else LocateConfig()
    locate_board(cv2.imread(str(photos[0].path)), cfg)  # load the model outside the timing
    runs = [("as taken", lambda: evaluate(read_photos(photos), cfg))]
    if args.stress:
        runs += [(k, lambda v=v: evaluate(read_photos(photos), cfg, v)) for k, v in STRESS.items()]
    if args.rendered:
        runs += [
            (f"rendered, {label}", lambda h=hand: evaluate(rendered_stills(args.rendered, h), cfg))
            for label, hand in (("no hand", False), ("hand", True))
        ]
    for name, run in runs:
        result = run()
        report(name, result)
        if args.verbose:
            for sample, err in zip(result["names"], result["errors"], strict=True):
                print(f"  {sample}: {err:.3f}")


if __name__ == "__main__":
    main()
