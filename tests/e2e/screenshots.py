"""Screenshots of every page for the docs: `python tests/e2e/screenshots.py docs/screenshots`.

Serves two boards, plays the first turns of a seeded self-play game on one through the API
(with a clock time and a wrongly announced score), then photographs each page in headless
Chromium at phone, tablet, laptop and 1080p sizes, and writes small PNGs (at most 480 pixels
wide), plus the overlay and a field page.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
from livesite import TD, chromium, entries_of, missing, serving, submit

from tilecast.config import load_profile, load_tileset
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon
from tilecast.server.config import BoardSpec

WIDTH = 480  # screenshots are shrunk to this width at most, to keep the PNGs small
SIZES = [(390, 844), (768, 1024), (1366, 768), (1920, 1080)]
PAGES = [  # name, path, what shows once the page has drawn the game
    ("index", "/", '[data-board-row="table1"] [data-col="scores"]:not(:empty)'),
    ("live", "/boards/table1", "[data-moves] tr"),
    ("wall", "/wall", '[data-card="table2"] [data-phase]:not(:empty)'),
    ("operator", "/operator/table1", "[data-actions] li"),
    ("td", "/td", "[data-alerts] tbody tr"),
]


def save(png: bytes, path: Path) -> None:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if image.shape[1] > WIDTH:
        height = round(image.shape[0] * WIDTH / image.shape[1])
        image = cv2.resize(image, (WIDTH, height), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"{path} {path.stat().st_size // 1024} KiB")


def login(page, base: str, path: str, token: str) -> None:
    page.goto(f"{base}{path}")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{path}")


def main(out: Path) -> int:
    why = missing()
    if why:
        print(f"cannot take screenshots: {why}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    game = self_play(load_lexicon(), load_tileset("english"), load_profile("wespa"), seed=3).game
    boards = (BoardSpec("table1", players=("Ann Smith", "Bob Jones")),
              BoardSpec("table2", players=("Cy Young", "Di Prince")))
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp), boards) as (base, _):
        for entry in entries_of(game, 12):
            submit(base, "table1", entry)
        submit(base, "table1", {"type": "announce", "score": game.turns[11].score + 9})
        submit(base, "table1", {"type": "clock", "player": 0, "seconds_left": 612})
        submit(base, "table1", {"type": "clock", "player": 1, "seconds_left": 745})
        for entry in entries_of(game, 3):
            submit(base, "table2", entry)
        for width, height in SIZES:
            with chromium(width, height) as page:
                login(page, base, "/td", TD)
                for name, path, ready in PAGES:
                    page.goto(f"{base}{path}")
                    page.wait_for_selector(ready)
                    page.wait_for_timeout(300)
                    save(page.screenshot(), out / f"{name}-{width}x{height}.png")
        with chromium(1920, 1080) as page:
            page.goto(f"{base}/overlay/table1")
            page.wait_for_selector("[data-last-play]:not(:empty)")
            save(page.screenshot(omit_background=True), out / "overlay.png")
        with chromium(480, 120) as page:
            page.goto(f"{base}/overlay/table1/score?fg=ffffff&size=24&shadow=1")
            page.wait_for_selector("[data-field-text]:not(:empty)")
            save(page.screenshot(omit_background=True), out / "field-score.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/screenshots")))
