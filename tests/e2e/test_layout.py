"""Every page people use, at phone, tablet, laptop and 1080p sizes in Chromium: nothing scrolls
sideways or is cut off at the edge, no two visible elements are drawn over each other, and the
browser logs no error (no 404 favicon, no 401 sign-in page, no script error)."""

from __future__ import annotations

from pathlib import Path

import pytest
from livesite import TD, chromium, entries_of, missing, serving, submit

from tilecast.config import load_profile, load_tileset
from tilecast.engine.selfplay import self_play
from tilecast.lexicons import load_lexicon
from tilecast.server.config import BoardSpec

pytestmark = pytest.mark.skipif(bool(missing()), reason=missing() or "browser tests can run")

SIZES = [(390, 844), (768, 1024), (1366, 768), (1920, 1080)]
CHECK = (Path(__file__).parent / "layout.js").read_text()
# page, what shows once its scripts have drawn the game
PAGES = [
    ("/", '[data-board-row="table1"] [data-col="scores"]:not(:empty)'),
    ("/boards/table1", "[data-moves] tr"),
    ("/wall", '[data-card="table2"] [data-phase]:not(:empty)'),
    ("/operator/table1", "[data-actions] li"),
    ("/td", "[data-alerts] tbody tr"),
]


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """Two boards, one 20 turns into a game with clocks and a wrong announcement (an alert),
    players with long names."""
    game = self_play(load_lexicon(), load_tileset("english"), load_profile("wespa"), seed=3).game
    boards = (BoardSpec("table1", players=("Alexandra Featherstonehaugh", "Bob Jones")),
              BoardSpec("table2", players=("Cy Young", "Di Prince")))
    with serving(tmp_path_factory.mktemp("layout"), boards) as (base, app):
        for entry in entries_of(game, 20):
            submit(base, "table1", entry)
        submit(base, "table1", {"type": "announce", "score": game.turns[19].score + 9})
        submit(base, "table1", {"type": "clock", "player": 0, "seconds_left": 612})
        submit(base, "table1", {"type": "clock", "player": 1, "seconds_left": -75})
        for entry in entries_of(game, 3):
            submit(base, "table2", entry)
        yield base


def sign_in(page, base: str) -> None:
    page.goto(f"{base}/login?next=/td")
    page.fill("input[name=token]", TD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/td")


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_page_overlaps_scrolls_sideways_or_logs_an_error(event, width, height):
    base = event
    with chromium(width, height) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        sign_in(page, base)
        # the overlay is an OBS source of 1920 x 1080 only
        overlay = [("/overlay/table1", ".scorebar [data-last-play]:not(:empty)")]
        for path, ready in PAGES + (overlay if width == 1920 else []):
            page.goto(f"{base}{path}")
            page.wait_for_selector(ready)
            page.wait_for_timeout(300)  # let the fonts and the layout settle
            found = page.evaluate(CHECK)
            assert found["leaves"] > 10, path  # the check saw the page
            assert found["scrollWidth"] <= width, (path, found["scrollWidth"])
            assert found["cut"] == [], (path, found["cut"])
            assert found["overlaps"] == [], (path, found["overlaps"])
        assert errors == []
