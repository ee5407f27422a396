"""End to end in headless Chromium against a real server: the live page follows a recorded
move, the overlay is transparent, the operator console wants its token, and the TD dashboard
shows a score discrepancy entered through the API."""

from __future__ import annotations

import json
import re

import cv2
import numpy as np
import pytest
from livesite import OPERATOR, TD, chromium, entries_of, missing, serving, submit

from tilecast.server.config import BoardSpec

pytestmark = pytest.mark.skipif(bool(missing()), reason=missing() or "browser tests can run")

WINDY = {"type": "play", "coord": "8D", "word": "WINDY"}


def has_class(name: str) -> re.Pattern:
    return re.compile(rf"(^|\s){name}(\s|$)")


@pytest.fixture
def site(tmp_path):
    frames = tmp_path / "frames"  # a short grey clip for the camera board
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), np.full((240, 320, 3), 90 + 40 * i, np.uint8))
    boards = (BoardSpec("t1", players=("Ann", "Bob")), BoardSpec("t2", players=("Cy", "Di")),
              BoardSpec("cam", source=str(frames)))
    with serving(tmp_path / "out", boards) as (base, app):
        yield base, app


@pytest.fixture
def page():
    with chromium() as page:
        yield page


def test_the_live_page_updates_when_a_move_is_recorded(site, page):
    from playwright.sync_api import expect

    base, _ = site
    page.goto(f"{base}/boards/t1")
    expect(page.locator("[data-status]")).to_have_text("live")
    expect(page.locator('[data-sq="D8"]')).to_have_text("")
    submit(base, "t1", WINDY)
    expect(page.locator('[data-sq="D8"]')).to_have_text("W")
    expect(page.locator('[data-sq="H8"]')).to_have_class(has_class("last"))
    expect(page.locator('[data-score="0"]')).to_have_text("32")
    expect(page.locator("[data-moves] tr")).to_have_text(["1Ann8D WINDY3232"])
    expect(page.locator("[data-bag]")).to_have_text("81")
    submit(base, "t1", {"type": "play", "coord": "D7", "word": "aW"})  # a blank as A
    expect(page.locator('[data-sq="D7"]')).to_have_class(has_class("blank"))
    expect(page.locator('[data-sq="D7"]')).to_have_class(has_class("last"))
    expect(page.locator("[data-blanks]")).to_have_text("D7 A")
    expect(page.locator('[data-sq="H8"]')).not_to_have_class(has_class("last"))


def test_the_overlay_has_a_transparent_background(site, tmp_path):
    from playwright.sync_api import expect

    base, _ = site
    submit(base, "t1", WINDY)
    with chromium(1920, 1080) as page:
        page.goto(f"{base}/overlay/t1?fg=ffeeaa&size=20")
        expect(page.locator('[data-score="0"]')).to_have_text("32")
        for element in ("document.documentElement", "document.body"):
            colour = page.evaluate(f"getComputedStyle({element}).backgroundColor")
            assert colour == "rgba(0, 0, 0, 0)", element
        assert page.evaluate("getComputedStyle(document.body).color") == "rgb(255, 238, 170)"
        png = page.screenshot(omit_background=True)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    assert image.shape == (1080, 1920, 4)
    alpha = image[:, :, 3]
    assert alpha[5:400, 5:1000].max() == 0  # nothing drawn there: see-through
    assert alpha[1000, 200] > 0  # the score bar is drawn


def test_the_operator_console_rejects_a_missing_token_and_accepts_a_valid_one(site, page):
    from playwright.sync_api import expect

    base, app = site
    response = page.goto(f"{base}/operator/t1")
    assert response.status == 200  # the sign-in form in place of the console
    expect(page.locator("text=Record pass")).to_have_count(0)
    page.fill("input[name=token]", "not-the-token")
    with page.expect_navigation() as refused:
        page.click("button[type=submit]")
    assert refused.value.status == 401
    expect(page.locator("[data-login-error]")).to_have_text("That token is not valid.")
    page.fill("input[name=token]", OPERATOR)
    page.click("button[type=submit]")
    expect(page.locator("text=Record pass")).to_be_visible()
    assert page.url == f"{base}/operator/t1"
    page.click("text=Record pass")
    expect(page.locator("[data-message]")).to_have_text("Record a pass for the player to move?")
    assert [e["type"] for e in app.extensions["tilecast.server"].boards["t1"].session
            .journal.entries] == []  # not before it is confirmed
    page.click("text=Click again to confirm")
    expect(page.locator("[data-message]")).to_have_text("recorded pass (journal #0)")
    expect(page.locator("[data-actions] li")).to_have_text(["pass Edit"])
    session = app.extensions["tilecast.server"].boards["t1"].session
    assert [e["type"] for e in session.journal.entries] == ["pass"]


def test_the_td_dashboard_shows_a_score_discrepancy_entered_through_the_api(site, page):
    from playwright.sync_api import expect

    base, _ = site
    submit(base, "t1", WINDY)
    submit(base, "t1", {"type": "announce", "score": 30})
    page.goto(f"{base}/td")
    page.fill("input[name=token]", TD)
    page.click("button[type=submit]")
    row = page.locator("[data-discrepancies] tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td")).to_have_text(
        ["t1", "announced score", "1", "1", "30", "32", "open"]
    )
    alert = page.locator("[data-alerts] tbody tr")
    expect(alert.locator("td").nth(3)).to_have_text("score-discrepancy")
    alert.locator("text=Acknowledge").click()
    expect(alert).to_have_count(0)
    expect(row.locator("td").last).to_have_text("acknowledged")


def test_four_corners_clicked_on_the_preview_are_saved(site, page, tmp_path):
    from playwright.sync_api import expect

    base, _ = site
    page.goto(f"{base}/operator/cam")
    page.fill("input[name=token]", OPERATOR)
    page.click("button[type=submit]")
    preview = page.locator("[data-preview-img]")
    expect(preview).to_have_js_property("naturalWidth", 320)  # the first frame arrived
    box = preview.bounding_box()
    page.click("[data-calibrate]")
    clicks = [(0.9, 0.85), (0.1, 0.1), (0.85, 0.1), (0.1, 0.9)]  # any order
    for fx, fy in clicks:
        preview.click(position={"x": fx * box["width"], "y": fy * box["height"]})
    expect(page.locator("[data-corners-note]")).to_have_text("corners saved")
    saved = json.loads((tmp_path / "out" / "cam.corners.json").read_text())["corners"]
    expected = [[32, 24], [272, 24], [288, 204], [32, 216]]  # clockwise from the top left
    assert np.abs(np.array(saved) - expected).max() <= 2, saved



def test_game_over_shows_on_every_page_after_a_play_out(tmp_path):
    """A whole game entered by the operator: the record ends it itself after the play-out,
    and every page says so."""
    from playwright.sync_api import expect

    from tilecast.config import load_profile, load_tileset
    from tilecast.engine.selfplay import self_play
    from tilecast.lexicons import load_lexicon

    game = self_play(load_lexicon(), load_tileset("english"), load_profile("wespa"), seed=3).game
    assert game.turns[-1].kind == "out"  # seed 3 ends in a play-out
    plays = sum(t.kind in ("play", "pass", "exchange") for t in game.turns)
    winner = ("Ann", "Bob")[max((0, 1), key=lambda p: game.scores[p])]
    boards = (BoardSpec("g", players=("Ann", "Bob")),)
    with serving(tmp_path / "out", boards) as (base, _), chromium() as page:
        for entry in entries_of(game, plays):
            submit(base, "g", entry)
        over = re.compile(rf"^Game over: {winner} wins by \d+$")
        for path in ("/boards/g", "/overlay/g"):
            page.goto(f"{base}{path}")
            expect(page.locator("[data-result]")).to_have_text(over)
        page.goto(f"{base}/operator/g")
        page.fill("input[name=token]", TD)
        page.click("button[type=submit]")
        expect(page.locator("[data-result]")).to_have_text(over)
        expect(page.locator("[data-turn-line]")).to_be_hidden()
        page.goto(f"{base}/td")
        expect(page.locator('[data-col="phase"]')).to_have_text(over)
