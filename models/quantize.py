"""Quantize the tile classifier to 8-bit integers for the reader: models/tiles.onnx (float: what
train.py writes and what `--init` starts from) becomes models/tiles_int8.onnx (what
TileClassifier loads by default).

On one CPU core the int8 network runs about two and a half times as fast as the float one, and
the reader spent about half of each frame in it (models/MODEL_CARD.md, "Session 22"). Only the
convolutions past the first are quantized, their weights per output channel; the first
convolution (cheap: one grey channel in), the embedding and the heads stay float. Activation
ranges are the 99.99th percentile over the squares of whole rendered board photos of training
looks (models/board_cells.py), never real data. Chosen among the ways tried by how seldom the
int8 network's top class differs from the float one's on 16,000 rendered crops (112 times;
every layer with min-max ranges: 174, all convolutions at the 99.999th percentile: 150). The
float model's SHA-256 is kept in the int8 model's metadata, so a test can tell when a retrained
model was not quantized again.

    .venv/bin/pip install onnx   # training only; never needed at run time
    .venv/bin/python models/quantize.py
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

import numpy as np
import onnx
from board_cells import render_board_chunk
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quant_pre_process,
    quantize_static,
)

from tilecast.vision.classify import preprocess

HERE = Path(__file__).resolve().parent
CALIBRATION_SEEDS = range(9001, 9005)  # board chunks of training looks, not in BOARD_SEEDS
BATCH = 64
PERCENTILE = 99.99  # of each activation's values, its range's end


class _Cells(CalibrationDataReader):
    """Preprocessed crops, BATCH at a time (whole batches only: the percentile calibration
    stacks them)."""

    def __init__(self, cells: np.ndarray) -> None:
        self.cells, self.at = cells[: len(cells) // BATCH * BATCH], 0

    def get_next(self) -> dict[str, np.ndarray] | None:
        if self.at >= len(self.cells):
            return None
        batch = self.cells[self.at:self.at + BATCH]
        self.at += BATCH
        return {"cells": batch}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def quantize(source: Path, out: Path, seeds: range = CALIBRATION_SEEDS) -> None:
    """Write the int8 model of `source` to `out`, with `source`'s metadata and hash."""
    crops = np.concatenate([render_board_chunk(seed)["images"] for seed in seeds])
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        convs = [n.name for n in onnx.load(str(prepared)).graph.node if n.op_type == "Conv"]
        quantize_static(str(prepared), str(out), _Cells(preprocess(list(crops))),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        nodes_to_quantize=convs[1:], calibrate_method=CalibrationMethod.Percentile,
                        extra_options={"CalibPercentile": PERCENTILE})
    model = onnx.load(str(out))
    meta = {p.key: p.value for p in onnx.load(str(source)).metadata_props}
    meta["float_sha256"] = sha256(source)
    del model.metadata_props[:]
    for key, value in sorted(meta.items()):
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(out))
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB from {source} "
          f"({len(crops)} calibration crops)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=HERE / "tiles.onnx", help="the float model")
    ap.add_argument("--out", type=Path, default=HERE / "tiles_int8.onnx")
    args = ap.parse_args()
    quantize(args.model, args.out)


if __name__ == "__main__":
    main()
