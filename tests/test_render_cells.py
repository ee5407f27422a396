"""Cell crops for classifier training: shapes, labels, reproducibility and the crop geometry."""

import numpy as np
import pytest

from tilecast.vision.render.cells import CLASSES, render_cells


@pytest.fixture(scope="module")
def batch():
    return render_cells(120, seed=7, size=48)


def test_shapes_and_labels(batch):
    images, labels = batch
    assert images.shape == (120, 48, 48, 3) and images.dtype == np.uint8
    assert set(labels.classes) <= set(CLASSES)
    assert set(labels.rotation.tolist()) <= {0, 90, 180, 270}
    assert labels.index.shape == (120,)
    assert all(CLASSES[i] == c for i, c in zip(labels.index, labels.classes, strict=True))
    empty = labels.classes == "."
    assert (labels.tile_family[empty] == "").all()
    assert (labels.tile_family[~empty] != "").all()
    assert set(labels.square) <= {"TW", "DW", "TL", "DL", "STAR", ""}
    assert (np.abs(labels.lift) <= 0.46).all()
    assert ((labels.occluded >= 0) & (labels.occluded <= 1)).all()


def test_reproducible_from_seed(batch):
    images, labels = render_cells(120, seed=7, size=48)
    assert np.array_equal(images, batch[0])
    assert np.array_equal(labels.classes, batch[1].classes)
    other, _ = render_cells(120, seed=8, size=48)
    assert not np.array_equal(other, images)


def test_classes_and_families_parameters_restrict_draws():
    _, labels = render_cells(80, seed=1, size=32, classes="Q?", looks=16,
                             tile_families=("deluxe_brown", "protile_red"))
    assert set(labels.classes) == {"Q", "?"}
    assert set(labels.tile_family) == {"deluxe_brown", "protile_red"}


def test_rotation_and_mirror_labels_turn_the_letter_upright():
    """An L's ink lies left of and below the square's centre once each crop is turned back by
    its labels (a wrong convention puts it right of or above the centre for some groups)."""
    images, labels = render_cells(800, seed=3, size=48, classes="L", mirror=0.3)
    assert 0.2 < labels.mirrored.mean() < 0.4
    yy, xx = np.mgrid[0:24, 0:24] - 11.5
    for rot in (0, 90, 180, 270):
        pick = labels.rotation == rot
        group = images[pick].astype(np.float32).mean(axis=3)
        assert len(group) > 100
        upright = np.stack([np.rot90(g, -rot // 90)[:, ::-1] if m else np.rot90(g, -rot // 90)
                            for g, m in zip(group, labels.mirrored[pick], strict=True)])
        # Ink as contrast against each crop's median (either polarity), inside the square.
        ink = np.abs(upright - np.median(upright, axis=(1, 2), keepdims=True))[:, 12:36, 12:36]
        w = ink / ink.sum(axis=(1, 2), keepdims=True)
        left, below = -(w * xx).sum(axis=(1, 2)), (w * yy).sum(axis=(1, 2))
        assert (left + below).mean() > 0.4, rot
