"""Seeded draws of how a tile set and a board look: the variety the classifier must survive.

Families follow sets seen in real footage (see shared/notes/recognition-lessons.md): cream wood
with black letters, Protiles in many colours with white, black or coloured letters, home Deluxe
maroon-brown tiles with white letters, yellow faces with dark red letters. Each draw jitters the
family's colours and proportions. Colours are BGR tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .glyphs import FONT_KINDS, FONTS

BGR = tuple[int, int, int]

GEOMETRIC_FONTS = ("urw_gothic_book", "urw_gothic_demi", "league_spartan_semibold",
                   "league_spartan_bold", "beteckna_bold")
BOLD_FONTS = tuple(f for f in FONTS if f.endswith(("bold", "black", "demi")))
PRINTED_FONTS = tuple(f for f in FONTS if f not in FONT_KINDS["hand"])  # boards' own print
# How often a set's letters are in each kind of face: tournament sets are mostly geometric
# sans, home and vintage sets serif or slab, some owners letter their own tiles by hand.
TILE_FONT_KINDS = {"geometric": 0.3, "sans": 0.19, "serif": 0.16, "slab": 0.07, "rounded": 0.08,
                   "condensed": 0.08, "hand": 0.12}


@dataclass(frozen=True)
class TileStyle:
    """One tile set's look; sizes are fractions of the tile face unless named otherwise."""

    family: str
    face: BGR
    side: BGR  # colour of the tile's edges, seen under tilt
    ink: BGR  # letter colour
    value_ink: BGR
    font: str
    value_font: str
    letter_scale: float  # capital height / face height
    value_scale: float  # digit height / capital height
    value_tucked: bool  # value against the letter's lower right, else in the face's corner
    face_frac: float  # face width / square width
    corner: float  # corner radius / face width
    bevel: float  # strength of the rounded edge's light and shade
    grain: float  # wood grain strength (0 for plastic)
    gloss: float  # specular sheen strength
    thickness: float  # tile height in squares
    blank_mark: str  # 'plain', 'logo', 'wordmark' (a short name in small type), 'spaced' (its
    # letters spread over the face), 'inset', 'faint', 'shield' (a crest with a name in a band),
    # 'badge' (a small solid emblem off the centre)
    blank_mark_ink: BGR
    hand: float  # how unevenly the letters are drawn (0: printed; up to 1: lettered by hand)
    values: bool  # point values printed (home-made sets often have none)
    weight: float  # stroke weight change, in capital heights (negative: thinner)


@dataclass(frozen=True)
class BoardStyle:
    """A board's printing; sizes are fractions of a square unless named otherwise."""

    family: str
    plain: BGR
    tw: BGR
    dw: BGR
    tl: BGR
    dl: BGR
    centre: BGR  # the centre square's fill
    star: BGR
    line: BGR  # grid line between squares
    line_width: float
    label_mode: str  # 'long' (TRIPLE WORD SCORE), 'short' (TW), 'numeric' (3W) or 'none'
    label_ink: tuple[BGR, BGR, BGR, BGR]  # for TW, DW, TL, DL
    label_font: str
    label_turn: int  # quarter turns of the labels relative to the board's reading direction
    label_size: float  # capital height relative to the mode's usual size
    label_pitch: float  # line spacing, in capital heights
    inset: float  # premium colour inset from the square's edge (0 = fills it)
    premium_shape: str  # 'fill', 'tabs' (a tab on each side, as on Deluxe boards), 'round'
    star_points: int  # the centre star's points (0: a plain centre square)
    star_size: float  # the star's radius over half a square
    texture: float  # print/paper noise strength
    frame: BGR
    band: BGR  # band between grid and frame
    frame_width: float  # in squares
    band_width: float  # in squares
    ridge: float  # raised grid (as on Deluxe boards): strength of its light and shade
    brand: str  # words printed on the frame ('' for none)
    fold: int  # a folding board's crease: 0 none, 1 down the middle column, 2 across the middle row


def _jitter(rng: np.random.Generator, bgr: BGR, amount: float = 12) -> BGR:
    c = np.asarray(bgr, float) + rng.normal(0, amount * 0.5, 3) + rng.normal(0, amount)
    return tuple(int(v) for v in np.clip(c, 0, 255))  # type: ignore[return-value]


def _scale(bgr: BGR, k: float) -> BGR:
    return tuple(int(np.clip(v * k, 0, 255)) for v in bgr)  # type: ignore[return-value]


def _luma(bgr: BGR) -> float:
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


WHITE, BLACK, CREAM = (245, 245, 245), (22, 22, 22), (200, 232, 240)
LIGHT_INKS = (WHITE, WHITE, WHITE, CREAM, (60, 220, 250), (200, 220, 120), (180, 180, 255))
DARK_INKS = (BLACK, BLACK, (30, 20, 140), (120, 40, 20), (40, 40, 40), (20, 60, 20))

# family -> (face colour, candidate letter colours, wood grain, weight)
TILE_FAMILIES: dict[str, tuple[BGR, tuple[BGR, ...], float, float]] = {
    "ivory_wood": ((170, 212, 235), (BLACK, (30, 30, 40)), 0.6, 3.0),
    "white_plastic": ((238, 240, 240), DARK_INKS, 0.0, 1.5),
    "protile_black": ((28, 26, 26), LIGHT_INKS, 0.0, 2.0),
    "protile_purple": ((120, 45, 95), LIGHT_INKS, 0.0, 1.5),
    "protile_red": ((40, 35, 175), LIGHT_INKS, 0.0, 1.5),
    "protile_blue": ((160, 80, 25), LIGHT_INKS, 0.0, 1.5),
    "protile_orange": ((25, 120, 235), (WHITE, BLACK), 0.0, 1.0),
    "protile_green": ((60, 125, 35), LIGHT_INKS, 0.0, 1.0),
    "protile_grey": ((125, 120, 118), (WHITE, BLACK), 0.0, 1.0),
    "protile_white": ((246, 246, 246), DARK_INKS + ((30, 30, 200), (170, 90, 30)), 0.0, 1.5),
    "deluxe_brown": ((40, 50, 110), (CREAM, WHITE), 0.25, 2.0),
    "dark_brown": ((30, 45, 70), (CREAM, WHITE), 0.3, 1.0),
    "yellow_red": ((35, 205, 245), ((30, 25, 150), (20, 20, 110), BLACK), 0.0, 1.0),
}


def draw_tile_style(rng: np.random.Generator, family: str | None = None) -> TileStyle:
    """A random tile set look, from `family` or one drawn by weight."""
    if family is None:
        names = list(TILE_FAMILIES)
        w = np.array([TILE_FAMILIES[n][3] for n in names])
        family = names[rng.choice(len(names), p=w / w.sum())]
    face0, inks, grain, _ = TILE_FAMILIES[family]
    face = _jitter(rng, face0, 10)
    ink = inks[rng.integers(len(inks))]
    ink = _jitter(rng, ink, 8)
    value_ink = ink if rng.random() < 0.85 else _jitter(rng, inks[rng.integers(len(inks))], 8)
    kinds = list(TILE_FONT_KINDS)
    kind = kinds[rng.choice(len(kinds), p=np.array(list(TILE_FONT_KINDS.values())))]
    font = str(rng.choice(GEOMETRIC_FONTS if kind == "geometric" else FONT_KINDS[kind]))
    hand = float(rng.uniform(0.3, 1.0)) if kind == "hand" or rng.random() < 0.05 else 0.0
    bold_value = rng.random() < 0.7
    value_font = str(rng.choice(BOLD_FONTS)) if bold_value else font
    tucked = rng.random() < 0.65
    dark_face = _luma(face) < 110
    side = _scale(face, rng.uniform(0.55, 0.8)) if not dark_face else _scale(face, 0.6)
    if family == "ivory_wood":
        side = _jitter(rng, (120, 170, 200), 10)
    # The crest and the badge take their share from the top of the plain blanks' range, so a
    # seed's look drawn before they existed keeps its blank unless it was a plain one.
    mark = str(rng.choice(["plain", "shield", "badge", "logo", "wordmark", "spaced", "inset",
                           "faint"], p=[0.26, 0.07, 0.07, 0.13, 0.12, 0.12, 0.1, 0.13]))
    if family in ("deluxe_brown", "dark_brown") and rng.random() < 0.5:
        mark = "inset"
    mark_ink = ink if rng.random() < 0.6 else _jitter(rng, (40, 40, 200) if dark_face else
                                                      (160, 90, 40), 20)
    return TileStyle(
        family=family, face=face, side=side, ink=ink, value_ink=value_ink, font=font,
        value_font=value_font,
        letter_scale=float(rng.uniform(0.5, 0.7) if tucked else rng.uniform(0.45, 0.62)),
        value_scale=float(rng.uniform(0.38, 0.6) if tucked else rng.uniform(0.26, 0.45)),
        value_tucked=tucked, face_frac=float(rng.uniform(0.86, 0.97)),
        corner=float(rng.uniform(0.04, 0.2)), bevel=float(rng.uniform(0.1, 0.45)),
        grain=float(grain * rng.uniform(0.5, 1.3)), gloss=float(rng.uniform(0, 0.35)),
        thickness=float(rng.uniform(0.12, 0.28)), blank_mark=mark, blank_mark_ink=mark_ink,
        hand=hand, values=not (hand and rng.random() < 0.5) and rng.random() > 0.02,
        weight=float(rng.uniform(-0.04, 0.06)) if rng.random() < 0.5 else 0.0,
    )


# family -> (plain, tw, dw, tl, dl, line, frame, band, label ink light?, weight)
BOARD_FAMILIES: dict[str, tuple[tuple[BGR, ...], float]] = {
    "classic": (((178, 200, 205), (45, 45, 205), (150, 150, 240), (170, 110, 40),
                 (225, 205, 150), (230, 236, 236), (40, 40, 120), (40, 40, 120)), 2.0),
    "deluxe": (((205, 235, 245), (45, 30, 150), (90, 70, 210), (130, 60, 25), (215, 170, 100),
                (80, 160, 205), (40, 70, 150), (90, 40, 25)), 2.0),
    "tournament_dark": (((42, 40, 40), (40, 45, 200), (130, 90, 225), (175, 95, 35),
                         (190, 160, 70), (95, 95, 95), (25, 25, 25), (35, 35, 35)), 2.5),
    "navy_tournament": (((95, 55, 30), (40, 40, 200), (120, 110, 235), (60, 150, 225),
                         (200, 180, 120), (150, 110, 80), (60, 35, 20), (80, 45, 25)), 1.0),
    "green_vintage": (((80, 130, 60), (50, 60, 200), (140, 140, 230), (170, 110, 40),
                       (205, 195, 140), (215, 225, 225), (40, 70, 40), (60, 100, 50)), 1.0),
    "white_modern": (((236, 236, 234), (80, 80, 230), (180, 170, 250), (200, 150, 80),
                      (235, 215, 170), (200, 200, 200), (60, 60, 60), (220, 220, 220)), 1.0),
    "purple_modern": (((90, 40, 70), (60, 60, 220), (180, 110, 240), (200, 170, 40),
                       (220, 200, 160), (130, 80, 110), (40, 20, 30), (70, 30, 55)), 1.0),
}

LONG_LABELS = {"TW": ("TRIPLE", "WORD", "SCORE"), "DW": ("DOUBLE", "WORD", "SCORE"),
               "TL": ("TRIPLE", "LETTER", "SCORE"), "DL": ("DOUBLE", "LETTER", "SCORE")}
BRANDS = ("CROSSWORD GAME", "DELUXE EDITION", "WORD GAME", "TOURNAMENT", "CLUB BOARD",
          "WORDS", "LEXIS", "TILES")
NUMERIC_LABELS = {"TW": ("3W",), "DW": ("2W",), "TL": ("3L",), "DL": ("2L",)}


def draw_board_style(rng: np.random.Generator, family: str | None = None,
                     match_tiles: TileStyle | None = None) -> BoardStyle:
    """A random board look; with match_tiles its plain squares take the tiles' face colour."""
    if family is None:
        names = list(BOARD_FAMILIES)
        w = np.array([BOARD_FAMILIES[n][1] for n in names])
        family = names[rng.choice(len(names), p=w / w.sum())]
    colours = [_jitter(rng, c, 10) for c in BOARD_FAMILIES[family][0]]
    plain, tw, dw, tl, dl, line, frame, band = colours
    if match_tiles is not None:
        plain = _jitter(rng, match_tiles.face, 6)
    inks = []
    for fill in (tw, dw, tl, dl):
        light = _luma(fill) < 150 or rng.random() < 0.2
        inks.append(_jitter(rng, WHITE if light else BLACK, 8))
    mode = str(rng.choice(["long", "short", "numeric", "none"], p=[0.45, 0.25, 0.1, 0.2]))
    return BoardStyle(
        family=family, plain=plain, tw=tw, dw=dw, tl=tl, dl=dl,
        centre=dw if rng.random() < 0.8 else _jitter(rng, tw, 10),
        star=_jitter(rng, BLACK if rng.random() < 0.4 else WHITE, 10),
        line=line, line_width=float(rng.uniform(0.02, 0.09)),
        label_mode=mode, label_ink=tuple(inks), label_font=str(rng.choice(PRINTED_FONTS)),  # type: ignore[arg-type]
        label_turn=int(rng.choice(4, p=[0.55, 0.2, 0.1, 0.15])),
        label_size=float(rng.uniform(0.7, 1.35)), label_pitch=float(rng.uniform(1.2, 1.7)),
        inset=float(rng.uniform(0, 0.1) if rng.random() < 0.4 else rng.uniform(0.1, 0.2)
                    if rng.random() < 0.15 else 0.0),
        premium_shape=str(rng.choice(["fill", "tabs", "round"], p=[0.7, 0.2, 0.1])),
        star_points=int(rng.choice([5, 5, 5, 6, 8, 0])),
        star_size=float(rng.uniform(0.55, 0.95)),
        texture=float(rng.uniform(0, 6)), frame=frame, band=band,
        frame_width=float(rng.uniform(0.3, 1.4)), band_width=float(rng.uniform(0, 0.4)),
        ridge=float(rng.uniform(0.2, 0.8)) if family == "deluxe" or rng.random() < 0.2 else 0.0,
        brand=str(rng.choice(BRANDS)) if rng.random() < 0.5 else "",
        fold=int(rng.integers(1, 3)) if family in ("classic", "green_vintage", "white_modern")
        and rng.random() < 0.5 else 0,
    )


def draw_look(rng: np.random.Generator, tile_families: tuple[str, ...] | None = None
              ) -> tuple[BoardStyle, TileStyle]:
    """A board and a tile set drawn together; about one in six boards matches its tiles.
    tile_families limits the tile sets (e.g. to hold some out for evaluation)."""
    family = str(rng.choice(tile_families)) if tile_families else None
    tiles = draw_tile_style(rng, family)
    board = draw_board_style(rng, match_tiles=tiles if rng.random() < 0.18 else None)
    return board, tiles

