"""Dev-time tool: rasterise A-Z and 0-9 of free sans fonts into the PNG atlases in glyphs/.

Rendering reads only those PNGs (with cv2), so neither Pillow nor system fonts are needed at run
time. Run after `apt-get install fonts-dejavu-core fonts-dejavu-extra fonts-liberation
fonts-freefont-ttf fonts-open-sans fonts-urw-base35 fonts-league-spartan fonts-lato
fonts-cantarell fonts-roboto-unhinted fonts-roboto-slab fonts-oldstandard fonts-goudybookletter
fonts-courier-prime fonts-quicksand fonts-comfortaa fonts-dosis fonts-bebas-neue fonts-beteckna
fonts-cabin fonts-sil-andika fonts-comic-neue fonts-humor-sans fonts-breip
fonts-dkg-handwriting fonts-rufscript` and `pip install pillow`:

    python -m tilecast.vision.render.make_glyphs

Atlas layout (see glyphs.py, which reads it): one row of CELL x CELL squares, characters in
CHARS order, white on black, each glyph's baseline at BASELINE and its left side bearing dropped.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .glyphs import ATLAS_DIR, BASELINE, CELL, CHARS, FONTS_SOURCE

CAP = 78  # pixel size that gives capitals about 56 px tall, leaving room for Q's tail and J


def render_atlas(path: str) -> np.ndarray:
    font = ImageFont.truetype(path, CAP)
    atlas = np.zeros((CELL, CELL * len(CHARS)), np.uint8)
    for i, ch in enumerate(CHARS):
        img = Image.new("L", (CELL, CELL), 0)
        draw = ImageDraw.Draw(img)
        left = font.getbbox(ch, anchor="ls")[0]
        draw.text((CELL // 2 - (font.getlength(ch) // 2) - left // 2, BASELINE), ch, fill=255,
                  font=font, anchor="ls")
        atlas[:, i * CELL:(i + 1) * CELL] = np.asarray(img)
    return atlas


def main() -> int:
    ATLAS_DIR.mkdir(exist_ok=True)
    missing = []
    for name, (path, _licence) in FONTS_SOURCE.items():
        if not Path(path).exists():
            missing.append(path)
            continue
        Image.fromarray(render_atlas(path)).save(ATLAS_DIR / f"{name}.png", optimize=True)
    if missing:
        print("missing font files (install the Debian packages named above):", *missing,
              sep="\n  ", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
