"""Read photos labelled with the board's four corners (COCO keypoints, as Roboflow exports).

Used to train and measure the locator; the corner order is the file's (for the shared set:
nearest the photo's top-left first, then clockwise as seen in the photo).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    corners: np.ndarray  # (4, 2) float32, photo pixels

    @property
    def original(self) -> str:
        """Name shared by a photo and its augmented copies (the part before '_jpg.rf.')."""
        return self.path.name.split("_jpg")[0]


def read_coco_corners(folder: Path) -> list[LabelledPhoto]:
    """Every photo in folder/_annotations.coco.json that has four labelled keypoints."""
    data = json.loads((folder / "_annotations.coco.json").read_text())
    names = {image["id"]: image["file_name"] for image in data["images"]}
    photos = []
    for ann in data["annotations"]:
        points = np.asarray(ann.get("keypoints", []), np.float32).reshape(-1, 3)
        if len(points) == 4:
            photos.append(LabelledPhoto(folder / names[ann["image_id"]], points[:, :2].copy()))
    return sorted(photos, key=lambda p: p.path.name)
