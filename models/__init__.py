"""The shipped ONNX models (`tiles_int8.onnx`, `locator.onnx`), package data of `tilecast.models`
so an installed wheel finds them through importlib.resources. `tiles.onnx` is the tile classifier
as trained (float), kept in the checkout to quantize and to train from. The scripts beside them
train and evaluate the models from a checkout; nothing at run time imports them."""
