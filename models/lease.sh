#!/usr/bin/env bash
# Retrain the tile network in one call on a lent GPU machine, and bring the models back.
#
# A lease is short (15 minutes of device time a session with the machine's start, 10 minutes a
# command), so the whole retrain is one command: tilecast installed without its dependencies
# (the machine's image has torch, onnx, onnxruntime and opencv, and nothing can be fetched
# there), the training cache rendered on every core, then training warm from the shipped
# weights with session 17's batch and its second run's learning rate, on the renderer as it is
# now, bounded by the clock. Into $OUT: tiles.onnx (float),
# tiles_int8.onnx (what the reader loads), tiles.pt (the weights as training goes, kept
# should the command be stopped at its limit) and train.log.
#
#     run: bash models/lease.sh          (timeout_s 600; the defaults take about 8 minutes)
#
# Then, here: copy the files into models/ and measure before shipping (models/MODEL_CARD.md,
# "Retraining on a lent GPU"). A CPU try of the whole path, in a few minutes:
#
#     OUT=/tmp/lease PYTHON=.venv/bin/python MINUTES=0.2 TRAIN_CHUNKS=1 BOARD_CHUNKS=1 \
#         LOADERS=1 BATCH=64 bash models/lease.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder the models go to}"
PYTHON=${PYTHON:-python3}
WORKERS=${WORKERS:-$(nproc)}
LOADERS=${LOADERS:-$((WORKERS - 1))}
MINUTES=${MINUTES:-3.5}
TRAIN_CHUNKS=${TRAIN_CHUNKS:-128}
BOARD_CHUNKS=${BOARD_CHUNKS:-192}
BATCH=${BATCH:-512}
LR=${LR:-1.5e-3}
SITE=$(mktemp -d)
mkdir -p "$OUT"
retrain() {
    "$PYTHON" -m pip install -q --no-deps --no-build-isolation --no-index --target "$SITE" .
    export PYTHONPATH="$SITE" PYTHONUNBUFFERED=1
    "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())'
    "$PYTHON" models/train.py --cache /tmp/tilecast-lease-cells --workers "$WORKERS" \
        --loaders "$LOADERS" --train-chunks "$TRAIN_CHUNKS" --board-chunks "$BOARD_CHUNKS" \
        --batch "$BATCH" --lr "$LR" --steps 0 --minutes "$MINUTES" --init models/tiles.onnx \
        --checkpoint "$OUT/tiles.pt" --out "$OUT/tiles.onnx"
    "$PYTHON" models/quantize.py --model "$OUT/tiles.onnx" --out "$OUT/tiles_int8.onnx"
}
retrain 2>&1 | tee "$OUT/train.log"  # the log ends with the run (pipefail keeps its status)
