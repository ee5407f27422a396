"""Measure reading on real photos and tiles: ../shared/real (evaluation only, never trained on).

    .venv/bin/python benchmarks/real_eval.py                  # every set
    .venv/bin/python benchmarks/real_eval.py --sets boards    # boards-dev only
    .venv/bin/python benchmarks/real_eval.py --markdown       # tables for models/MODEL_CARD.md
    .venv/bin/python benchmarks/real_eval.py --real DIR       # another folder of the same kinds
    .venv/bin/python benchmarks/real_eval.py --sets boards --variants   # and altered copies

Sets (read ../shared/real/README.md):
- `boards-dev`: whole-board photos read as `tilecast read-board` reads them (the locator finds
  the board), and again at the labelled corners (the reader alone). A board is found when every
  corner lies within half a square of its label (corners matched in any of the board's eight
  orders; which corner is 1A is the reading's business, counted in its squares). A square listed
  in `other_tiles` as a blank counts right when read as `?`; another tile there (a symbol, a
  possible blank) counts right as `?` or `.`.
- `tiles-dev` and `tiles-964-dev`: crops of single squares cut by another tool's grid. Each is
  given to the classifier as the reader cuts a square (the square plus a quarter square of its
  surroundings each side): the crop is the square, so the surroundings are the crop's own edge
  pixels carried outwards. A game's crops are read together, as one frame's squares (see
  eval_crops). Reported per group (game) and per class; for tiles-dev also enrolled on one
  WESPA game and read on the other.

`--variants` also reads every boards-dev photo after each of a few changes a camera could make
(VARIANTS: turned a quarter or half, mirrored, shrunk, tilted, the board small in a larger frame,
heavy JPEG, turned by any angle, seen steeply, dim, warm or blurred, a rack over the near edge,
a hand near a corner), the labelled corners carried through the same change, and reports per
change how many are found within half a square and the squares right. Nothing altered is kept.

Per set: squares right, letters right, blank recall, empty-square precision (of squares read
empty, the share that are) and recall, per-class recall. Exit status 2 when ../shared/real is
absent (nothing to measure).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from tilecast.vision.classify import CLASSES, TileClassifier
from tilecast.vision.colour import PREMIUM_TYPE, UNKNOWN, centre_colours, weigh_by_colour
from tilecast.vision.reader import CROP, BoardReader
from tilecast.vision.rectify import cell_size_px

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real"
FOUND = 0.5  # squares: a corner this near its label counts as found
MARGIN = 0.25  # the reader's crop margin, in squares (rectify.cell_crops)


class Tally:
    """Counts of (truth, read) pairs, and the figures asked of every set."""

    def __init__(self) -> None:
        self.pairs: Counter[tuple[str, str]] = Counter()

    def add(self, truth: str, read: str, right: bool | None = None) -> None:
        self.pairs[(truth, read if right is None or not right else truth)] += 1

    def total(self, keep=lambda t: True) -> tuple[int, int]:
        n = sum(k for (t, _), k in self.pairs.items() if keep(t))
        ok = sum(k for (t, r), k in self.pairs.items() if keep(t) and t == r)
        return ok, n

    def figures(self) -> dict[str, object]:
        right, n = self.total()
        letters = self.total(lambda t: t.isalpha())
        blanks = self.total(lambda t: t == "?")
        read_empty = sum(k for (_, r), k in self.pairs.items() if r == ".")
        empty_right = self.pairs[(".", ".")]
        empties = self.total(lambda t: t == ".")
        per_class = {c: self.total(lambda t, c=c: t == c) for c in CLASSES}
        return {
            "squares": [right, n],
            "letters": list(letters),
            "blanks": list(blanks),
            "empty_precision": [empty_right, read_empty],
            "empty_recall": list(empties),
            "per_class": {c: list(v) for c, v in per_class.items() if v[1]},
            "confusions": [[t, r, k] for (t, r), k in self.pairs.most_common() if t != r][:12],
        }


def _share(pair) -> str:
    ok, n = pair
    return f"{ok}/{n} ({100 * ok / n:.1f}%)" if n else "-"


# ---------------------------------------------------------------- whole boards


def board_truth(label: dict) -> tuple[np.ndarray, dict[int, str]]:
    """[225] labels row-major as read upright, and the other_tiles squares with their kind."""
    rows = np.array([list(r) for r in label["rows"]]).ravel()
    other = {t["row"] * 15 + t["col"]: t["kind"] for t in label.get("other_tiles", [])}
    return rows, other


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance in squares, corners matched in the best of the eight orders."""
    cell = cell_size_px(truth)
    orders = [np.roll(np.arange(4), k) for k in range(4)]
    orders += [o[::-1] for o in orders]
    return min(float(np.linalg.norm(found[o] - truth, axis=1).max()) / cell for o in orders)


def score_board(tally: Tally, truth: np.ndarray, other: dict[int, str], read: list[str]) -> int:
    """Add a board's squares to the tally; return how many were wrong."""
    flat = "".join(read)
    wrong = 0
    for i, want in enumerate(truth):
        got = flat[i]
        kind = other.get(i)
        if kind == "blank":
            want = "?"
        right = got == want or (kind is not None and kind != "blank" and got in "?.")
        tally.add(want, got, right)
        wrong += not right
    return wrong


def read_photo(clf: TileClassifier, image: np.ndarray, corners: np.ndarray | None):
    from tilecast.commands.readboard import rows_of

    reader = BoardReader(clf, corners)
    reading = reader.read(image)
    if reading is None:
        return None, None, reader.why
    return rows_of(reading.probs), reading.corners, None


def eval_boards(folder: Path, clf: TileClassifier, report: dict) -> None:
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".png", ".jpeg"))
    auto, given = Tally(), Tally()
    rows, errors, perfect, perfect_given, found = [], [], 0, 0, 0
    for photo in photos:
        label = json.loads(photo.with_suffix(".json").read_text())
        truth, other = board_truth(label)
        c = label["corners_approx"]
        true_corners = np.float32([c[k] for k in ("tl", "tr", "br", "bl")])
        image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        t0 = time.perf_counter()
        read, corners, why = read_photo(clf, image, None)
        seconds = time.perf_counter() - t0
        if read is None:
            err, wrong = float("inf"), None
            score_board(auto, truth, other, ["." * 15] * 15)
        else:
            err = corner_error(corners, true_corners)
            wrong = score_board(auto, truth, other, read)
        errors.append(err)
        found += err <= FOUND
        perfect += wrong == 0
        read_g, _, _ = read_photo(clf, image, true_corners)
        wrong_g = score_board(given, truth, other, read_g)
        perfect_given += wrong_g == 0
        rows.append({"photo": photo.name, "corner_error": None if read is None else round(err, 3),
                     "wrong": wrong, "wrong_at_labelled_corners": wrong_g,
                     "not_found": why, "seconds": round(seconds, 2)})
    finite = np.array([e for e in errors if np.isfinite(e)])
    report["boards-dev"] = {
        "photos": len(photos),
        "found": found,
        "median_corner_error": float(np.median(finite)) if len(finite) else None,
        "worst_corner_error": float(max(errors)) if errors else None,
        "perfect": perfect,
        "read": auto.figures(),
        "perfect_at_labelled_corners": perfect_given,
        "read_at_labelled_corners": given.figures(),
        "photos_detail": rows,
    }


# ---------------------------------------------------------------- altered photos


def _turned(k: int):
    def turn(image: np.ndarray, corners: np.ndarray):
        h, w = image.shape[:2]
        x, y = corners[:, 0], corners[:, 1]
        moved = {1: (h - 1 - y, x), 2: (w - 1 - x, h - 1 - y), 3: (y, w - 1 - x)}[k]
        code = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}
        return cv2.rotate(image, code[k]), np.float32(np.stack(moved, axis=1))
    return turn


def _mirrored(image: np.ndarray, corners: np.ndarray):
    out = corners.copy()
    out[:, 0] = image.shape[1] - 1 - out[:, 0]
    return cv2.flip(image, 1), out


def _scaled(image: np.ndarray, corners: np.ndarray, long_side: int):
    f = long_side / max(image.shape[:2])
    size = (round(image.shape[1] * f), round(image.shape[0] * f))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.float32(corners * f)


def _warped(image: np.ndarray, corners: np.ndarray, to: list, fill: tuple
            ) -> tuple[np.ndarray, np.ndarray]:
    """The image mapped by the frame's corners onto `to`, in a frame of its own size."""
    h, w = image.shape[:2]
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(frame, np.float32(to))
    out = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderValue=fill)
    return out, cv2.perspectiveTransform(corners.reshape(1, 4, 2), m).reshape(4, 2)


def _tilted(image: np.ndarray, corners: np.ndarray):
    """The top of the frame a fifth narrower, as if the camera leant back."""
    h, w = image.shape[:2]
    return _warped(image, corners, [[0.1 * w, 0], [0.9 * w, 0], [w, h], [0, h]], (0, 0, 0))


def _far(image: np.ndarray, corners: np.ndarray):
    """The photo at half size in the middle of a frame of its own size, on its median colour."""
    h, w = image.shape[:2]
    to = [[w / 4, h / 4], [3 * w / 4, h / 4], [3 * w / 4, 3 * h / 4], [w / 4, 3 * h / 4]]
    fill = tuple(float(v) for v in np.median(image.reshape(-1, 3), axis=0))
    return _warped(image, corners, to, fill)


def _jpeg(image: np.ndarray, corners: np.ndarray):
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 30])
    return cv2.imdecode(data, cv2.IMREAD_COLOR), corners


def _rotated(degrees: float):
    """Turned by any angle (a turntable), in a frame grown to hold it, on the median colour."""
    def rotate(image: np.ndarray, corners: np.ndarray):
        h, w = image.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        cos, sin = abs(m[0, 0]), abs(m[0, 1])
        size = (int(h * sin + w * cos), int(h * cos + w * sin))
        m[:, 2] += (size[0] - w) / 2, (size[1] - h) / 2
        fill = tuple(float(v) for v in np.median(image.reshape(-1, 3), axis=0))
        out = cv2.warpAffine(image, m, size, flags=cv2.INTER_AREA, borderValue=fill)
        return out, np.float32(np.c_[corners, np.ones(4)] @ m.T)
    return rotate


def _steep(image: np.ndarray, corners: np.ndarray):
    """The top of the frame 60% as wide and lowered by a tenth: a camera low beside the board."""
    h, w = image.shape[:2]
    to = [[0.2 * w, 0.1 * h], [0.8 * w, 0.1 * h], [w, h], [0, h]]
    return _warped(image, corners, to, (0, 0, 0))


def _toned(gamma: float, gain: tuple):
    """Lightness through a gamma curve, then each channel (B, G, R) scaled, and sensor noise."""
    def tone(image: np.ndarray, corners: np.ndarray):
        x = (image.astype(np.float32) / 255) ** gamma * 255 * np.float32(gain)
        x += np.random.default_rng(0).normal(0, 3, x.shape).astype(np.float32)
        return np.uint8(np.clip(x, 0, 255)), corners
    return tone


def _blurred(image: np.ndarray, corners: np.ndarray):
    k = int(max(image.shape[:2]) / 300) * 2 + 3
    return cv2.GaussianBlur(image, (k, k), 0), corners


def _near_edge(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The playing area's edge nearest the photo's bottom (its two ends), and a square's size."""
    i = max(range(4), key=lambda k: corners[k, 1] + corners[(k + 1) % 4, 1])
    a, b = corners[i], corners[(i + 1) % 4]
    return a, b, float(np.linalg.norm(b - a)) / 15


def _rack(image: np.ndarray, corners: np.ndarray):
    """A dark rack over the near edge's first row, longer than the board (a home game filmed
    with the rack in front)."""
    a, b, square = _near_edge(corners)
    along = (b - a) / np.linalg.norm(b - a)
    inward = corners.mean(0) - (a + b) / 2
    inward /= np.linalg.norm(inward)
    p, q = a - 2 * square * along + 0.3 * square * inward, b + 2 * square * along
    q = q + 0.3 * square * inward
    band = [p, q, q + 1.2 * square * inward, p + 1.2 * square * inward]
    out = image.copy()
    cv2.fillConvexPoly(out, np.int32(band), (30, 60, 90))
    return out, corners


def _hand(image: np.ndarray, corners: np.ndarray):
    """A skin-coloured palm near the second corner, its arm leaving over the edge beside it
    (the corner itself stays in view)."""
    square = float(np.linalg.norm(corners[1] - corners[0])) / 15
    corner, centre = corners[1], corners.mean(0)
    d = (corner - centre) / np.linalg.norm(corner - centre)
    palm = corner - 2.5 * square * d
    edge = (corners[2] - corner) / np.linalg.norm(corners[2] - corner)
    outward = d - edge * float(d @ edge)
    arm = palm + 4 * square * outward / np.linalg.norm(outward)
    out, skin = image.copy(), (120, 150, 200)
    angle = float(np.degrees(np.arctan2(d[1], d[0])))
    cv2.ellipse(out, tuple(int(v) for v in palm), (int(2 * square), int(1.5 * square)), angle,
                0, 360, skin, -1)
    cv2.line(out, tuple(int(v) for v in palm), tuple(int(v) for v in arm), skin,
             int(2 * square))
    return out, corners


VARIANTS = {
    "turned 90": _turned(1), "turned 180": _turned(2), "turned 270": _turned(3),
    "mirrored": _mirrored, "640 px": lambda im, c: _scaled(im, c, 640), "tilted": _tilted,
    "small in frame": _far, "jpeg 30": _jpeg,
    "rotated 25": _rotated(25), "rotated 160": _rotated(160), "steep tilt": _steep,
    "dim": _toned(1.8, (0.7, 0.7, 0.7)), "warm light": _toned(1.0, (0.7, 0.9, 1.15)),
    "blurred": _blurred, "rack in front": _rack, "hand near a corner": _hand,
}


def eval_variants(folder: Path, clf: TileClassifier, report: dict) -> None:
    """Every photo after each change in VARIANTS, read as read-board reads it."""
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".png", ".jpeg"))
    out = {}
    for name, change in VARIANTS.items():
        tally, found, errors, misses = Tally(), 0, [], []
        for photo in photos:
            label = json.loads(photo.with_suffix(".json").read_text())
            truth, other = board_truth(label)
            c = label["corners_approx"]
            image, true_corners = change(cv2.imread(str(photo), cv2.IMREAD_COLOR),
                                         np.float32([c[k] for k in ("tl", "tr", "br", "bl")]))
            read, corners, why = read_photo(clf, image, None)
            if read is None:
                err = float("inf")
                score_board(tally, truth, other, ["." * 15] * 15)
            else:
                err = corner_error(corners, true_corners)
                score_board(tally, truth, other, read)
            errors.append(err)
            found += err <= FOUND
            if err > FOUND:
                misses.append([photo.name, None if read is None else round(err, 2), why])
        out[name] = {"photos": len(photos), "found": found,
                     "median_corner_error": float(np.median(errors)),
                     "squares": tally.figures()["squares"], "misses": misses}
    report["boards-dev variants"] = out


# ---------------------------------------------------------------- single-square crops


def as_reader_crop(crop: np.ndarray) -> np.ndarray:
    """A crop of one square, as the reader's crop of it (CROP pixels, MARGIN each side)."""
    inner = int(round(CROP / (1 + 2 * MARGIN)))
    square = cv2.resize(crop, (inner, inner), interpolation=cv2.INTER_AREA
                        if crop.shape[0] > inner else cv2.INTER_LINEAR)
    pad = CROP - inner
    return cv2.copyMakeBorder(square, pad // 2, pad - pad // 2, pad // 2, pad - pad // 2,
                              cv2.BORDER_REPLICATE)


def eval_crops(folder: Path, clf: TileClassifier, group_of, report: dict, name: str) -> None:
    """Each game's crops are read together, as the squares of one frame are: the colour check
    (vision.colour) takes its references from that game's own sure readings, by premium type,
    from the crops' row and column. Where the index gives no squares, their premium types are
    unknown (vision.colour.UNKNOWN: plain cells are compared with plain ones, and colour
    turns only a plain cell into a tile, a blank). The network alone is reported beside."""
    index = list(csv.DictReader((folder / "index.csv").open()))
    crops = [as_reader_crop(cv2.imread(str(folder / "images" / r["file"]), cv2.IMREAD_COLOR))
             for r in index]
    probs = np.concatenate([clf.predict(crops[i:i + 256]).probabilities
                            for i in range(0, len(crops), 256)])
    colours = centre_colours(crops)
    games = defaultdict(list)
    for i, r in enumerate(index):
        games[r.get("group", "")].append(i)
    weighed = probs.copy()
    for members in games.values():
        rows = [index[i] for i in members]
        types = (PREMIUM_TYPE[[int(r["row"]) * 15 + int(r["col"]) for r in rows]]
                 if "row" in rows[0] else np.full(len(rows), UNKNOWN))
        weighed[members] = weigh_by_colour(probs[members], colours[members], types=types)
    tally, alone, groups = Tally(), Tally(), defaultdict(Tally)
    for r, got, net in zip(index, weighed.argmax(1), probs.argmax(1), strict=True):
        tally.add(r["label"], CLASSES[got])
        alone.add(r["label"], CLASSES[net])
        groups[group_of(r)].add(r["label"], CLASSES[got])
    report[name] = {"crops": len(index), "read": tally.figures(), "network": alone.figures(),
                    "groups": {g: t.figures()["squares"] for g, t in sorted(groups.items())}}
    pairs = [(a, b) for a in games for b in games if a != b and a.startswith("wespa")
             and b.startswith("wespa")]
    report[name]["enrolled"] = {f"{a} -> {b}": enrolled(clf, crops, index, games[a], games[b])
                                for a, b in pairs}


def enrolled(clf: TileClassifier, crops: list, index: list, learn: list[int], read: list[int]
             ) -> dict[str, list[int]]:
    """Squares right reading one game's crops without and with the prototypes of another
    game's crops of the same venue (as `tilecast enroll` would learn them from that game)."""
    venue = clf.enroll([crops[i] for i in learn], [index[i]["label"] for i in learn])
    truth = [index[i]["label"] for i in read]
    out = {}
    for key, c in (("without", clf), ("enrolled", venue)):
        got = c.predict([crops[i] for i in read]).probabilities.argmax(1)
        out[key] = [int(sum(CLASSES[g] == t for g, t in zip(got, truth, strict=True))),
                    len(truth)]
    out["weight"] = [venue.prototypes.weight]
    return out


# ---------------------------------------------------------------- report


def print_report(report: dict, markdown: bool) -> None:
    if "boards-dev" in report:
        b = report["boards-dev"]
        print(f"## boards-dev: {b['photos']} photos")
        print(f"- found within {FOUND} square: {b['found']}/{b['photos']} (median corner error "
              f"{b['median_corner_error']:.3f} squares, worst {b['worst_corner_error']:.3f})")
        print(f"- read perfectly: {b['perfect']}/{b['photos']}; at the labelled corners "
              f"{b['perfect_at_labelled_corners']}/{b['photos']}")
        for key, title in (("read", "as read-board reads"),
                           ("read_at_labelled_corners", "at the labelled corners")):
            _print_figures(b[key], title, markdown)
        print("\n| photo | corner error (squares) | squares wrong | at labelled corners "
              "| why not found |")
        print("| --- | --- | --- | --- | --- |")
        for r in b["photos_detail"]:
            print(f"| {r['photo']} | {r['corner_error']} | {r['wrong']} | "
                  f"{r['wrong_at_labelled_corners']} | {r['not_found'] or ''} |")
    if "boards-dev variants" in report:
        print("\n## boards-dev, altered (--variants)\n")
        print("| change | found within half a square | median corner error | squares right "
              "| missed or off (squares) |")
        print("| --- | --- | --- | --- | --- |")
        for name, v in report["boards-dev variants"].items():
            off = ", ".join(f"{p} {e if e is not None else why.split(';')[0]}"
                            for p, e, why in v["misses"])
            print(f"| {name} | {v['found']}/{v['photos']} | {v['median_corner_error']:.3f} | "
                  f"{_share(v['squares'])} | {off} |")
    for name in ("tiles-dev", "tiles-964-dev"):
        if name in report:
            s = report[name]
            print(f"\n## {name}: {s['crops']} crops")
            _print_figures(s["read"], "no enrolment", markdown)
            _print_figures(s["network"], "the network alone (no colour check)", markdown)
            print("\n| group | right |\n| --- | --- |")
            for g, pair in s["groups"].items():
                print(f"| {g} | {_share(pair)} |")
            for pair, e in s.get("enrolled", {}).items():
                print(f"\nenrolled on {pair}: {_share(e['without'])} without, "
                      f"{_share(e['enrolled'])} enrolled (prototype weight {e['weight'][0]})")


def _print_figures(f: dict, title: str, markdown: bool) -> None:
    print(f"\n{title}: squares right {_share(f['squares'])}, letters right {_share(f['letters'])}"
          f", blank recall {_share(f['blanks'])}, empty-square precision "
          f"{_share(f['empty_precision'])}, recall {_share(f['empty_recall'])}")
    per = f["per_class"]
    print("\n| class | " + " | ".join(per) + " |")
    print("| --- |" + " --- |" * len(per))
    print("| right | " + " | ".join(f"{ok}/{n}" for ok, n in per.values()) + " |")
    if f["confusions"]:
        print("\nmost common confusions (truth -> read, count): " + ", ".join(
            f"{t}->{r} {k}" for t, r, k in f["confusions"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", type=Path, default=REAL, help="folder holding the sets")
    ap.add_argument("--sets", nargs="+", default=["boards", "tiles", "tiles-964"],
                    choices=["boards", "tiles", "tiles-964"])
    ap.add_argument("--model", type=Path, help="tile classifier ONNX (default: the shipped one)")
    ap.add_argument("--json", type=Path, help="also write the whole report here")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--variants", action="store_true",
                    help="also read altered copies of the boards-dev photos (slow: 8 x 21 reads)")
    args = ap.parse_args()
    if not args.real.is_dir():
        print(f"real_eval: {args.real} not present (the real sets live beside the repo in "
              "../shared/real); nothing measured", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    clf = TileClassifier.load(args.model)
    report: dict = {}
    if "boards" in args.sets:
        eval_boards(args.real / "boards-dev", clf, report)
        if args.variants:
            eval_variants(args.real / "boards-dev", clf, report)
    if "tiles" in args.sets:
        eval_crops(args.real / "tiles-dev", clf, lambda r: r["group"], report, "tiles-dev")
    if "tiles-964" in args.sets:
        eval_crops(args.real / "tiles-964-dev", clf, lambda r: r["label"] if r["label"] in "?."
                   else "letters", report, "tiles-964-dev")
    print_report(report, args.markdown)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
