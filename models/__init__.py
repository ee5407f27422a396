"""The shipped ONNX models (`tiles.onnx`, `locator.onnx`), package data of `tilecast.models` so
an installed wheel finds them through importlib.resources. The scripts beside them train and
evaluate the models from a checkout; nothing at run time imports them."""
