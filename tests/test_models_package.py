"""The ONNX models are package data of `tilecast.models`, so an installed wheel reads boards.

`.ci/wheel` checks the built wheel itself; this checks that the code looks for the models there,
and that the shipped int8 tile classifier was quantized from the trained float one in the
checkout (models/quantize.py), not left over from an earlier training.
"""

import hashlib
from importlib.resources import files
from pathlib import Path

import onnxruntime as ort
import pytest

from tilecast.vision import classify, outlines

FLOAT_MODEL = Path(__file__).resolve().parents[1] / "models" / "tiles.onnx"


@pytest.mark.parametrize(
    "default, name",
    [(classify.DEFAULT_MODEL, "tiles_int8.onnx"), (outlines.DEFAULT_MODEL, "locator.onnx")],
)
def test_the_default_models_are_found_as_package_data(default, name):
    shipped = files("tilecast.models") / name
    assert shipped.is_file()
    assert default == Path(str(shipped))


def test_the_shipped_tile_classifier_is_the_trained_one_quantized():
    if not FLOAT_MODEL.is_file():
        pytest.skip("the float model is in the checkout only, not in a wheel")
    meta = ort.InferenceSession(str(classify.DEFAULT_MODEL)).get_modelmeta().custom_metadata_map
    trained = ort.InferenceSession(str(FLOAT_MODEL)).get_modelmeta().custom_metadata_map
    assert meta["float_sha256"] == hashlib.sha256(FLOAT_MODEL.read_bytes()).hexdigest(), \
        "models/tiles.onnx changed: run models/quantize.py"
    assert {k: meta[k] for k in trained} == trained  # temperature, scale, classes kept
