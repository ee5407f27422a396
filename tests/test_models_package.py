"""The ONNX models are package data of `tilecast.models`, so an installed wheel reads boards.

`.ci/wheel` checks the built wheel itself; this checks that the code looks for the models there.
"""

from importlib.resources import files
from pathlib import Path

import pytest

from tilecast.vision import classify, outlines


@pytest.mark.parametrize(
    "default, name",
    [(classify.DEFAULT_MODEL, "tiles.onnx"), (outlines.DEFAULT_MODEL, "locator.onnx")],
)
def test_the_default_models_are_found_as_package_data(default, name):
    shipped = files("tilecast.models") / name
    assert shipped.is_file()
    assert default == Path(str(shipped))
