"""Read what stands on each board cell: a letter, a blank, or nothing, and how the tile is turned.

The network (models/tiles_int8.onnx: the trained models/tiles.onnx with its convolutions
quantized to 8 bits by models/quantize.py, run by onnxruntime) sees each cell crop (the square
plus a 25% margin each side, as rectify.cell_crops cuts it) shrunk to INPUT_SIZE, in grey and
normalised per crop, so that dark letters on pale tiles and pale letters on dark tiles look alike
to it. It gives three things per cell: cosine logits over CLASSES, an orientation (four turns, each
mirrored or not, since some webcam feeds are mirrored) and an L2-normalised embedding, which
prototypes of a venue's own tiles (vision.enroll lays out and checks such an enrolment).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from tilecast.engine.infer import CLASSES

LETTERS = 26  # the first 26 classes are letters
INPUT_SIZE = 48
# Package data of tilecast.models (the checkout's models/), so an installed wheel finds it too.
DEFAULT_MODEL = Path(str(files("tilecast.models") / "tiles_int8.onnx"))
OUTPUTS = ["logits", "orientation", "embedding"]


@dataclass(frozen=True)
class ClassifyConfig:
    """How a venue's prototypes are mixed in and when a cell gets a second look: tuning values."""

    nearest: int = 3  # enrolled examples per class that a cell is compared with
    weights: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8)  # prototype weights to choose from
    doubt: float = 0.9  # a cell read less surely than this is read again in its other 3 turns


CLASSIFY = ClassifyConfig()


class Session(Protocol):
    """What TileClassifier needs of an onnxruntime InferenceSession (so tests can fake one)."""

    def run(self, output_names: list[str], input_feed: dict[str, np.ndarray]) -> list: ...


def preprocess(cells: Sequence[np.ndarray], size: int = INPUT_SIZE) -> np.ndarray:
    """Cells (BGR or grey uint8, any size) as the network's input, float32 [n, 1, size, size].

    Grey, zero mean and unit contrast per crop: the tile's colours vary by venue, its shapes
    do not. The contrast floor keeps near-uniform crops (empty squares) from amplifying noise.
    (A grey-plus-chroma input was tried: it took held-out letters for blanks, 0.88% of
    whole-board cells wrong against 0.43% for grey; models/MODEL_CARD.md.)
    """
    out = np.empty((len(cells), 1, size, size), np.float32)
    for i, cell in enumerate(cells):
        small = cell.shape[0] <= size and cell.shape[1] <= size
        img = cv2.resize(cell, (size, size),
                         interpolation=cv2.INTER_LINEAR if small else cv2.INTER_AREA)
        out[i, 0] = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    flat = out.reshape(len(cells), -1)
    flat -= flat.mean(1, keepdims=True)
    flat /= np.maximum(flat.std(1, keepdims=True), 8.0)
    return out


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@dataclass(frozen=True)
class Prototypes:
    """Embeddings of a venue's own tiles and squares, labelled, mixed into the network's logits.

    The network's logits are scale * cos(embedding, class weight). An enrolled class's logit
    moves, by `weight`, towards scale * its mean cosine to the `nearest` enrolled examples of
    that class, so a tile style the network never saw is judged by its likeness to that
    style's own tiles. Nearest examples rather than one mean per class, because empty squares
    of several premium colours, or tiles under uneven light, do not average into one good
    prototype (measured: models/MODEL_CARD.md).

    The prototypes only say which letter a tile is: whether a square holds a tile, and whether
    a tile is a blank, stay the network's (and the colour check's), where a layout photo's two
    blanks and its empty corners teach little and had made readings worse. The weight is the
    one that best reads the enrolment's own tiles, each judged by the others (choose_weight):
    a venue whose tiles the network already reads gets little or none.
    """

    vectors: np.ndarray  # [m, D] unit embeddings of the enrolled cells
    labels: np.ndarray  # [m] their class indices into CLASSES
    weight: float = 0.4

    @classmethod
    def from_embeddings(cls, embeddings: np.ndarray, labels: Sequence[str],
                        weight: float = 0.4) -> Prototypes:
        index = np.array([CLASSES.index(c) for c in labels], np.int64)
        return cls(np.asarray(embeddings, np.float32), index, weight)

    @property
    def counts(self) -> np.ndarray:
        """[28] enrolled examples per class."""
        return np.bincount(self.labels, minlength=len(CLASSES))

    def adapt(self, logits: np.ndarray, embeddings: np.ndarray, scale: float,
              cfg: ClassifyConfig = CLASSIFY) -> np.ndarray:
        similar = embeddings @ self.vectors.T
        out = logits.copy()
        for c in np.unique(self.labels):
            nearest = np.sort(similar[:, self.labels == c], axis=1)[:, -cfg.nearest:].mean(1)
            out[:, c] += self.weight * (scale * nearest - logits[:, c])
        return out

    def letters(self, probabilities: np.ndarray, adapted: np.ndarray,
                temperature: float) -> np.ndarray:
        """`probabilities` with their letter share spread over the letters as the adapted
        logits say; the blank and empty-square probabilities unchanged.

        Only on cells the network reads as a letter the venue enrolled. A square it reads as
        empty or as a blank keeps its reading: its letter share, gathered on one letter, could
        outweigh the empty square. So does a tile it reads as a letter with no enrolled
        example (a game's record may hold no Z): only the enrolled letters' logits move, and
        the venue's other letters would draw it in (enrolled from one rendered game and reading
        another, Z read as L or D in every frame)."""
        out = probabilities.copy()
        enrolled = np.zeros(len(CLASSES), bool)
        enrolled[self.labels[self.labels < LETTERS]] = True
        cells = enrolled[probabilities.argmax(1)]
        share = probabilities[cells, :LETTERS].sum(1, keepdims=True)
        out[cells, :LETTERS] = share * softmax(adapted[cells, :LETTERS] / temperature)
        return out

    def save(self, path: str | Path) -> None:
        np.savez(path, classes=CLASSES, vectors=self.vectors, labels=self.labels,
                 weight=self.weight)

    @classmethod
    def load(cls, path: str | Path) -> Prototypes:
        with np.load(path) as data:
            if str(data["classes"]) != CLASSES:
                raise ValueError(f"{path}: prototypes for classes {data['classes']}")
            return cls(data["vectors"], data["labels"], float(data["weight"]))


@dataclass(frozen=True)
class TileReading:
    """One cell: label 'A'-'Z', '?' (blank) or '.' (empty); rotation of the letter in the crop,
    degrees counter-clockwise (np.rot90(crop, -rotation // 90) makes it upright, then [:, ::-1]
    if mirrored)."""

    label: str
    confidence: float  # calibrated probability of label
    rotation: int
    mirrored: bool


@dataclass(frozen=True)
class Prediction:
    """Everything one network call gives for a batch of cells."""

    probabilities: np.ndarray  # [n, 28] over CLASSES, calibrated
    orientation: np.ndarray  # [n, 8]: index 4 * mirrored + rotation // 90
    embeddings: np.ndarray  # [n, D], unit length
    logits: np.ndarray  # [n, 28], the network's own (a second look's mean where it took one)

    def readings(self) -> list[TileReading]:
        best = self.probabilities.argmax(1)
        turn = self.orientation.reshape(-1, 2, 4).sum(1).argmax(1)
        mirrored = self.orientation[:, 4:].sum(1) > 0.5
        return [TileReading(CLASSES[b], float(self.probabilities[i, b]), int(turn[i]) * 90,
                            bool(mirrored[i])) for i, b in enumerate(best)]


@dataclass(frozen=True)
class TileClassifier:
    """The tile network plus its calibration, and optionally a venue's enrolment."""

    session: Session = field(repr=False)
    temperature: float = 1.0  # divides the logits; fitted on held-out tile styles
    scale: float = 1.0  # the cosine logit scale the network was trained with
    prototypes: Prototypes | None = None
    config: ClassifyConfig = CLASSIFY

    @classmethod
    def load(cls, path: str | Path | None = None, tileset: str | Path | None = None,
             threads: int = 1) -> TileClassifier:
        """The shipped model (or the one at `path`), calibrated as trained; optionally with a
        venue's tile prototypes saved by `tilecast enroll`. One intra-op thread by default: several
        cameras may share few cores."""
        import onnxruntime as ort

        path = Path(path) if path is not None else DEFAULT_MODEL
        if not path.is_file():
            raise FileNotFoundError(f"{path} missing: train it with models/train.py, then "
                                    "quantize it with models/quantize.py")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        meta = session.get_modelmeta().custom_metadata_map
        if meta.get("classes", CLASSES) != CLASSES:
            raise ValueError(f"{path} reads classes {meta['classes']!r}, expected {CLASSES!r}")
        return cls(session, float(meta.get("temperature", 1.0)), float(meta.get("scale", 1.0)),
                   Prototypes.load(tileset) if tileset is not None else None)

    def predict(self, cells: Sequence[np.ndarray],
                still: np.ndarray | None = None) -> Prediction:
        """All outputs for a batch of cells (use it once per frame): one network call, and one
        more for the doubtful cells.

        A cell read less surely than `doubt` is read once more in its other three quarter turns
        (one more call for all of them), and its class logits are the mean of the four. The
        network was trained on every turn, so each is a fair second look; on held-out whole
        boards this cut the squares read wrong by a sixth to a fifth, for about 3% more
        network work (models/MODEL_CARD.md). Orientation and embedding stay the first look's.
        `still` (bool per cell, default all) limits the second look to cells that are worth
        it: a video reader passes False for squares still moving, which it reads again anyway.
        """
        if len(cells) == 0:
            return Prediction(np.zeros((0, len(CLASSES)), np.float32),
                              np.zeros((0, 8), np.float32), np.zeros((0, 0), np.float32),
                              np.zeros((0, len(CLASSES)), np.float32))
        x = preprocess(cells)
        logits, orientation, embeddings = self._run(x)
        adapted = self._adapt(logits, embeddings)
        probabilities = softmax(logits / self.temperature)
        doubtful = probabilities.max(1) < self.config.doubt
        doubtful = np.flatnonzero(doubtful if still is None else doubtful & still)
        if len(doubtful):
            turned = np.concatenate([np.rot90(x[doubtful], k, axes=(2, 3)) for k in (1, 2, 3)])
            more, _, more_embeddings = self._run(np.ascontiguousarray(turned))
            n = len(doubtful)
            logits[doubtful] = (logits[doubtful] + more.reshape(3, n, -1).sum(0)) / 4
            probabilities[doubtful] = softmax(logits[doubtful] / self.temperature)
            if adapted is not None:
                more = self._adapt(more, more_embeddings).reshape(3, n, -1)
                adapted[doubtful] = (adapted[doubtful] + more.sum(0)) / 4
        if adapted is not None:
            probabilities = self.prototypes.letters(probabilities, adapted, self.temperature)
        return Prediction(probabilities, softmax(orientation), embeddings, logits)

    def _run(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One network call on preprocessed cells: logits, orientation logits, embeddings."""
        logits, orientation, embeddings = self.session.run(OUTPUTS, {"cells": x})
        return logits, orientation, embeddings

    def _adapt(self, logits: np.ndarray, embeddings: np.ndarray) -> np.ndarray | None:
        if self.prototypes is None:
            return None
        return self.prototypes.adapt(logits, embeddings, self.scale, self.config)

    def classify(self, cells: Sequence[np.ndarray]) -> list[TileReading]:
        return self.predict(cells).readings()

    def probabilities(self, cells: Sequence[np.ndarray]) -> np.ndarray:
        return self.predict(cells).probabilities

    def enroll(self, cells: Sequence[np.ndarray], labels: Sequence[str]) -> TileClassifier:
        """A classifier adapted to the tiles in these labelled cells (e.g. a venue's set laid
        out before the game): their class prototypes are mixed into the logits, as much as
        they help read these cells (choose_weight)."""
        pred = self.with_prototypes(None).predict(cells)
        return self.with_prototypes(self.prototypes_from(pred, labels))

    def prototypes_from(self, pred: Prediction, labels: Sequence[str]) -> Prototypes:
        """Prototypes of labelled cells already predicted (without prototypes), weighted by
        choose_weight."""
        protos = Prototypes.from_embeddings(pred.embeddings, labels)
        weight = choose_weight(protos, pred.logits, self.scale, self.temperature, self.config)
        return Prototypes(protos.vectors, protos.labels, weight)

    def with_prototypes(self, prototypes: Prototypes | None) -> TileClassifier:
        return TileClassifier(self.session, self.temperature, self.scale, prototypes, self.config)


def choose_weight(protos: Prototypes, logits: np.ndarray, scale: float, temperature: float,
                  cfg: ClassifyConfig = CLASSIFY) -> float:
    """The prototype weight (of `cfg.weights`) that best reads the enrolled letter tiles when
    each is judged by the others alone (leave one out), by the mean log-probability of its
    letter; the smallest such weight on a tie, 0 when prototypes do not help at all."""
    tiles = np.flatnonzero(protos.labels < LETTERS)
    if len(tiles) == 0:
        return 0.0
    similar = protos.vectors[tiles] @ protos.vectors.T
    similar[np.arange(len(tiles)), tiles] = -np.inf  # a tile may not vouch for itself
    base = logits[tiles]
    probabilities = softmax(base / temperature)
    truth = protos.labels[tiles]
    best, chosen = -np.inf, 0.0
    for w in cfg.weights:
        adapted = base.copy()
        for c in np.unique(protos.labels):
            near = np.sort(similar[:, protos.labels == c], axis=1)[:, -cfg.nearest:]
            seen = np.isfinite(near)
            count = seen.sum(1)
            cos = np.where(seen, near, 0).sum(1) / np.maximum(count, 1)
            pulled = base[:, c] + w * (scale * cos - base[:, c])
            adapted[:, c] = np.where(count > 0, pulled, base[:, c])
        p = protos.letters(probabilities, adapted, temperature)
        score = float(np.log(np.clip(p[np.arange(len(tiles)), truth], 1e-9, 1)).mean())
        if score > best + 1e-6:
            best, chosen = score, float(w)
    return chosen
