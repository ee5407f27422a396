"""Letter and digit masks from the committed font atlases, scaled and laid out with cv2 only."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
CELL = 96  # atlas square per character, pixels
BASELINE = 74  # baseline row inside each square
ATLAS_DIR = Path(__file__).resolve().parent / "glyphs"

# Atlas name -> (Debian font file it is made from, licence). Geometric faces (URW Gothic, League
# Spartan) stand in for the Futura-like faces of tournament tiles; the others add variety.
FONTS_SOURCE = {
    "dejavu_sans": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVu (Bitstream Vera)"),
    "dejavu_sans_bold": ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                         "DejaVu (Bitstream Vera)"),
    "liberation_sans": ("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                        "SIL OFL 1.1"),
    "liberation_sans_bold": ("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
                             "SIL OFL 1.1"),
    "freesans": ("/usr/share/fonts/truetype/freefont/FreeSans.ttf", "GPL-3+ with font exception"),
    "freesans_bold": ("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
                      "GPL-3+ with font exception"),
    "opensans_semibold": ("/usr/share/fonts/truetype/open-sans/OpenSans-Semibold.ttf",
                          "Apache-2.0"),
    "opensans_bold": ("/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf", "Apache-2.0"),
    "urw_gothic_book": ("/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf",
                        "AGPL-3 with font exception"),
    "urw_gothic_demi": ("/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
                        "AGPL-3 with font exception"),
    "league_spartan_semibold": (
        "/usr/share/fonts/opentype/league-spartan/LeagueSpartan-SemiBold.otf", "SIL OFL 1.1"),
    "league_spartan_bold": ("/usr/share/fonts/opentype/league-spartan/LeagueSpartan-Bold.otf",
                            "SIL OFL 1.1"),
    "lato_bold": ("/usr/share/fonts/truetype/lato/Lato-Bold.ttf", "SIL OFL 1.1"),
    "lato_black": ("/usr/share/fonts/truetype/lato/Lato-Black.ttf", "SIL OFL 1.1"),
    "cantarell_bold": ("/usr/share/fonts/opentype/cantarell/Cantarell-Bold.otf", "SIL OFL 1.1"),
    "roboto_medium": ("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
                      "Apache-2.0"),
    "roboto_bold": ("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
                    "Apache-2.0"),
}
# Faces that real sets and boards use beside the sans ones: serif, slab, rounded, condensed and
# hand-lettered (the home sets whose owners letter their own tiles).
_TT, _OT = "/usr/share/fonts/truetype/", "/usr/share/fonts/opentype/"
FONTS_SOURCE |= {
    "dejavu_serif_bold": (_TT + "dejavu/DejaVuSerif-Bold.ttf", "DejaVu (Bitstream Vera)"),
    "dejavu_serif_condensed": (_TT + "dejavu/DejaVuSerifCondensed.ttf",
                               "DejaVu (Bitstream Vera)"),
    "liberation_serif": (_TT + "liberation/LiberationSerif-Regular.ttf", "SIL OFL 1.1"),
    "liberation_serif_bold": (_TT + "liberation/LiberationSerif-Bold.ttf", "SIL OFL 1.1"),
    "freeserif_bold": (_TT + "freefont/FreeSerifBold.ttf", "GPL-3+ with font exception"),
    "c059_roman": (_OT + "urw-base35/C059-Roman.otf", "AGPL-3 with font exception"),
    "c059_bold": (_OT + "urw-base35/C059-Bold.otf", "AGPL-3 with font exception"),
    "p052_bold": (_OT + "urw-base35/P052-Bold.otf", "AGPL-3 with font exception"),
    "urw_bookman_demi": (_OT + "urw-base35/URWBookman-Demi.otf", "AGPL-3 with font exception"),
    "nimbus_roman_bold": (_OT + "urw-base35/NimbusRoman-Bold.otf",
                          "AGPL-3 with font exception"),
    "oldstandard_bold": (_TT + "fonts-oldstandard/OldStandard-Bold.ttf", "SIL OFL 1.0"),
    "goudy_bookletter": (_OT + "sortsmill/GoudyBookletter1911.otf", "public domain"),
    "roboto_slab_bold": (_OT + "roboto/slab/RobotoSlab-Bold.otf", "Apache-2.0"),
    "roboto_slab": (_OT + "roboto/slab/RobotoSlab-Regular.otf", "Apache-2.0"),
    "courier_prime_bold": (_OT + "courier-prime/Courier Prime Bold.otf", "SIL OFL 1.1"),
    "nimbus_mono_bold": (_OT + "urw-base35/NimbusMonoPS-Bold.otf", "AGPL-3 with font exception"),
    "quicksand_bold": (_TT + "quicksand/Quicksand-Bold.ttf", "SIL OFL 1.1"),
    "comfortaa_bold": (_TT + "comfortaa/Comfortaa-Bold.ttf", "SIL OFL 1.1"),
    "dosis_bold": (_OT + "dosis/Dosis-Bold.otf", "SIL OFL 1.1"),
    "dosis_medium": (_OT + "dosis/Dosis-Medium.otf", "SIL OFL 1.1"),
    "bebas_neue_bold": (_OT + "bebas-neue/BebasNeue-Bold.otf", "SIL OFL 1.1"),
    "roboto_condensed_bold": (_TT + "roboto/unhinted/RobotoCondensed-Bold.ttf", "Apache-2.0"),
    "liberation_sans_narrow_bold": (_TT + "liberation/LiberationSansNarrow-Bold.ttf",
                                    "SIL OFL 1.1"),
    "nimbus_sans_narrow_bold": (_OT + "urw-base35/NimbusSansNarrow-Bold.otf",
                                "AGPL-3 with font exception"),
    "dejavu_sans_condensed_bold": (_TT + "dejavu/DejaVuSansCondensed-Bold.ttf",
                                   "DejaVu (Bitstream Vera)"),
    "beteckna_bold": (_TT + "beteckna/BetecknaGS-Bold.ttf", "GPL-3"),
    "cabin_bold": (_OT + "cabin/Cabin-Bold.otf", "SIL OFL 1.1"),
    "andika_bold": (_TT + "andika/Andika-Bold.ttf", "SIL OFL 1.1"),
    "comic_neue_bold": (_OT + "comic-neue/ComicNeue-Bold.otf", "SIL OFL 1.1"),
    "humor_sans": (_TT + "humor-sans/Humor-Sans.ttf", "SIL OFL 1.1"),
    "breip": (_TT + "breip/Breip.ttf", "SIL OFL 1.0"),
    "dkg_bold": (_TT + "fifthhorseman/dkgBd.ttf", "GPL-3+"),
    "rufscript": (_TT + "rufscript/Rufscript010.ttf", "GPL-3+ with font exception"),
}
FONT_KINDS = {
    "serif": ("dejavu_serif_bold", "dejavu_serif_condensed", "liberation_serif",
              "liberation_serif_bold", "freeserif_bold", "c059_roman", "c059_bold", "p052_bold",
              "urw_bookman_demi", "nimbus_roman_bold", "oldstandard_bold", "goudy_bookletter"),
    "slab": ("roboto_slab_bold", "roboto_slab", "courier_prime_bold", "nimbus_mono_bold"),
    "rounded": ("quicksand_bold", "comfortaa_bold", "dosis_bold", "dosis_medium"),
    "condensed": ("bebas_neue_bold", "roboto_condensed_bold", "liberation_sans_narrow_bold",
                  "nimbus_sans_narrow_bold", "dejavu_sans_condensed_bold"),
    "hand": ("comic_neue_bold", "humor_sans", "breip", "dkg_bold", "rufscript"),
}
FONT_KINDS["sans"] = tuple(f for f in FONTS_SOURCE
                           if not any(f in names for names in FONT_KINDS.values()))
FONTS = tuple(FONTS_SOURCE)


@cache
def _atlas(font: str) -> np.ndarray:
    path = ATLAS_DIR / f"{font}.png"
    atlas = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if atlas is None:
        raise FileNotFoundError(f"glyph atlas missing: {path} (run make_glyphs)")
    return atlas


@cache
def _glyph(font: str, ch: str) -> tuple[np.ndarray, int]:
    """Ink-tight mask of one character and its top row relative to the baseline (negative)."""
    i = CHARS.index(ch)
    square = _atlas(font)[:, i * CELL:(i + 1) * CELL]
    ys, xs = np.nonzero(square)
    return square[ys.min():ys.max() + 1, xs.min():xs.max() + 1], int(ys.min()) - BASELINE


@cache
def cap_height(font: str) -> int:
    """Height of a capital H in atlas pixels: the unit that letter sizes are given in."""
    return _glyph(font, "H")[0].shape[0]


def text_mask(font: str, text: str, cap_px: float, tracking: float = 0.12) -> tuple[
        np.ndarray, int]:
    """Mask (uint8) of a line of text whose capitals are cap_px tall, and its baseline row.

    tracking is the gap between characters as a fraction of the cap height; a space is 0.4 caps.
    """
    scale = cap_px / cap_height(font)
    parts = [(None, 0) if ch == " " else _glyph(font, ch) for ch in text]
    top = min((y0 for g, y0 in parts if g is not None), default=-cap_height(font))
    bottom = max((y0 + g.shape[0] for g, y0 in parts if g is not None), default=0)
    gap = tracking * cap_height(font)
    width = sum(0.4 * cap_height(font) if g is None else g.shape[1] for g, _ in parts)
    width += gap * max(len(parts) - 1, 0)
    w, h = max(1, round(width * scale)), max(1, round((bottom - top) * scale))
    out = np.zeros((h, w), np.uint8)
    x = 0.0
    for g, y0 in parts:
        if g is None:
            x += 0.4 * cap_height(font) + gap
            continue
        gw, gh = max(1, round(g.shape[1] * scale)), max(1, round(g.shape[0] * scale))
        small = cv2.resize(g, (gw, gh), interpolation=cv2.INTER_AREA)
        ox, oy = round(x * scale), round((y0 - top) * scale)
        gw, gh = min(gw, w - ox), min(gh, h - oy)
        if gw > 0 and gh > 0:
            region = out[oy:oy + gh, ox:ox + gw]
            np.maximum(region, small[:gh, :gw], out=region)
        x += g.shape[1] + gap
    return out, round(-top * scale)
