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
    expect(page.locator('[data-sq="D8"]')).to_have_text("W4")  # the letter and its points
    expect(page.locator('[data-sq="H8"]')).to_have_class(has_class("last"))
    expect(page.locator('[data-score="0"]')).to_have_text("32")
    expect(page.locator("[data-moves] tr")).to_have_text(["1Ann8D WINDY3232"])
    expect(page.locator('[data-player="0"] [data-turn-mark]')).to_have_text("")
    expect(page.locator('[data-player="1"] [data-turn-mark]')).to_have_text("to move")
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
        ["t1", "announced score", "1", "Ann", "30", "32", "open"]  # the player by name
    )
    alert = page.locator("[data-alerts] tbody tr")
    expect(alert.locator("td").nth(4)).to_have_text("score-discrepancy")
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
    preview.click(position={"x": 0.5 * box["width"], "y": 0.5 * box["height"]})  # a slip
    page.click("[data-undo-corner]")
    for fx, fy in clicks:
        preview.click(position={"x": fx * box["width"], "y": fy * box["height"]})
    expect(page.locator("[data-clicks] .dot")).to_have_count(4)
    assert not (tmp_path / "out" / "cam.corners.json").exists()  # nothing saved unasked
    page.click("[data-save-corners]")
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
        expect(page.locator('[data-card="g"] [data-phase]')).to_have_text(over)
        page.goto(f"{base}/wall")
        expect(page.locator('[data-card="g"] [data-phase]')).to_have_text(over)
        page.goto(f"{base}/")
        expect(page.locator('[data-col="phase"]')).to_have_text(over)
        page.goto(f"{base}/overlay/g/result.txt")
        assert re.match(rf"Game over: {winner} wins by \d+$", page.inner_text("body"))


def test_the_clock_of_the_player_to_move_ticks_down_into_overtime(site, page):
    """No entry comes between the two readings: the page counts down by itself, and the side
    in overtime is marked."""
    from playwright.sync_api import expect

    base, _ = site
    submit(base, "t1", {"type": "clock", "player": 0, "seconds_left": 2})
    submit(base, "t1", {"type": "clock", "player": 1, "seconds_left": 300})
    page.goto(f"{base}/boards/t1")
    ann, bob = page.locator('[data-clock="0"]'), page.locator('[data-clock="1"]')
    expect(ann).to_have_text("0:01", timeout=5000)
    expect(ann).to_have_text("-0:01 overtime", timeout=5000)
    expect(ann).to_have_class(has_class("overtime"))
    expect(bob).to_have_text("5:00")  # not Bob's turn: his side stands
    submit(base, "t1", WINDY)  # now Bob's side runs and Ann's stands
    expect(bob).to_have_text("4:59", timeout=5000)
    held = ann.inner_text()
    expect(bob).to_have_text("4:58", timeout=5000)
    assert ann.inner_text() == held


def test_replay_reaches_every_position_of_a_finished_game(tmp_path):
    """Step from the start to the end of a whole game: each step shows the board the server
    says stood after that move; the move list, the scrubber and the keys reach the same."""
    from playwright.sync_api import expect

    from tilecast.config import load_profile, load_tileset
    from tilecast.engine.selfplay import self_play
    from tilecast.lexicons import load_lexicon

    game = self_play(load_lexicon(), load_tileset("english"), load_profile("wespa"), seed=3).game
    plays = sum(t.kind in ("play", "pass", "exchange") for t in game.turns)
    with serving(tmp_path / "out", (BoardSpec("g", players=("Ann", "Bob")),)) as (base, _), \
            chromium(1366, 768) as page:
        for entry in entries_of(game, plays):
            submit(base, "g", entry)
        page.goto(f"{base}/boards/g")
        expect(page.locator("[data-result]")).not_to_have_text("")
        positions = page.evaluate("TC.api('/api/boards/g/replay')")["positions"]
        assert len(positions) == len(game.turns) + 1

        def board() -> list[str]:
            return page.evaluate("""() => { const rows = [];
              for (let r = 1; r <= 15; r++) { let row = "";
                for (const c of "ABCDEFGHIJKLMNO") {
                  const sq = document.querySelector(`[data-sq="${c}${r}"]`);
                  const ch = sq.querySelector(".ltr")?.textContent || ".";
                  row += sq.classList.contains("blank") ? ch.toLowerCase() : ch; }
                rows.push(row); } return rows; }""")

        page.click('[data-step="first"]')
        expect(page.locator("[data-replay-at]")).to_have_text(re.compile("^start of the game"))
        assert board() == positions[0]["rows"]
        for n in range(1, len(positions)):
            page.click('[data-step="forward"]')
            if n < len(positions) - 1:
                expect(page.locator("[data-replay-at]")).to_have_text(
                    re.compile(rf"^after move {n}: "))
            else:
                expect(page.locator("[data-replay-at]")).to_have_text("live")
            assert board() == positions[n]["rows"], n
        page.locator('[data-moves] tr[data-move="5"]').click()
        expect(page.locator("[data-replay-at]")).to_have_text(re.compile("^after move 5: "))
        assert board() == positions[5]["rows"]
        page.keyboard.press("ArrowLeft")
        assert board() == positions[4]["rows"]
        page.locator("[data-scrub]").fill("9")
        expect(page.locator("[data-replay-at]")).to_have_text(re.compile("^after move 9: "))
        page.keyboard.press("End")
        expect(page.locator("[data-replay-at]")).to_have_text("live")
        assert board() == positions[-1]["rows"]
        gcg = page.request.get(f"{base}/api/boards/g/game.gcg").text()
        assert gcg.count("\n>") == len(game.turns)


def test_the_td_dashboard_counts_open_alerts_per_board(site, page):
    from playwright.sync_api import expect

    base, _ = site
    submit(base, "t1", WINDY)
    submit(base, "t1", {"type": "announce", "score": 30})
    submit(base, "t1", {"type": "slip", "scores": [10, 0]})
    page.goto(f"{base}/td")
    page.fill("input[name=token]", TD)
    page.click("button[type=submit]")
    t1, t2 = (page.locator(f'[data-board-row="{b}"] [data-col="alerts"]') for b in ("t1", "t2"))
    expect(t1).to_have_text("2")
    expect(t2).to_have_text("0")
    expect(page.locator('[data-card="t1"] [data-alert-count]')).to_have_text("2 alerts")
    expect(page.locator('[data-card="t2"] [data-alert-count]')).to_be_hidden()
    expect(page.locator("[data-discrepancies] tbody tr").first.locator("td").nth(3)).to_have_text(
        "Ann")
    expect(page.locator("[data-alerts] tbody tr").first.locator("td").nth(2)).to_have_text(
        re.compile(r"^\d\d:\d\d:\d\d$"))
    page.locator("[data-alerts] tbody tr").first.locator("text=Acknowledge").click()
    expect(t1).to_have_text("1")
    expect(page.locator('[data-card="t1"] [data-alert-count]')).to_have_text("1 alert")


def test_a_click_on_a_square_names_a_blank_and_undo_takes_the_play_back(site, page):
    from playwright.sync_api import expect

    base, app = site
    submit(base, "t1", {"type": "play", "coord": "8D", "word": "WINDy"})
    page.goto(f"{base}/operator/t1")
    page.fill("input[name=token]", OPERATOR)
    page.click("button[type=submit]")
    expect(page.locator('[data-sq="H8"]')).to_have_class(has_class("blank"))
    page.click('[data-sq="H8"]')
    page.fill("#fix-letter", "e")
    page.click("text=Name the blank")
    expect(page.locator('[data-sq="H8"] .ltr')).to_have_text("E")
    expect(page.locator("[data-actions] li")).to_have_text(["play 8D WINDe Edit"])
    page.click('[data-sq="E8"]')  # a letter misread: I is really A
    page.fill("#fix-letter", "a")
    page.click("text=Fix the letter")
    expect(page.locator("[data-actions] li")).to_have_text(["play 8D WANDe Edit"])
    page.keyboard.press("u")
    page.keyboard.press("u")  # the second press confirms
    expect(page.locator("[data-actions] li")).to_have_count(0)
    expect(page.locator('[data-sq="D8"]')).not_to_have_class(has_class("tile"))


def test_a_correction_is_written_as_the_action_list_says_it(site, page):
    from playwright.sync_api import expect

    base, app = site
    submit(base, "t1", WINDY)
    page.goto(f"{base}/operator/t1")
    page.fill("input[name=token]", OPERATOR)
    page.click("button[type=submit]")
    page.click('[aria-label="edit action 0"]')
    expect(page.locator("#co-action")).to_have_value("play 8D WINDY")
    page.fill("#co-action", "plya 8D WINDS")  # a typo: one line saying how to write it
    page.click("text=Correct record")
    expect(page.locator("[data-message]")).to_contain_text(
        'the new action is not written right: "plya 8D WINDS"')
    expect(page.locator("[data-actions] li")).to_have_text(["play 8D WINDY Edit"])
    page.fill("#co-action", "play 8D WINDS")
    page.click("text=Correct record")
    expect(page.locator("[data-actions] li")).to_have_text(["play 8D WINDS Edit"])
    page.select_option("#co-op", "insert")
    page.fill("#co-index", "1")
    page.fill("#co-action", "exchange 3")
    page.click("text=Correct record")
    expect(page.locator("[data-actions] li")).to_have_text(["play 8D WINDS Edit",
                                                            "exchange 3 Edit"])
    journal = app.extensions["tilecast.server"].boards["t1"].session.journal.entries
    assert [e["action"] for e in journal if e["type"] == "correct"] == [
        WINDY | {"word": "WINDS"}, {"type": "exchange", "tiles": 3}]


CONTRAST_JS = """(sel) => { const el = document.querySelector(sel);
  const box = getComputedStyle(el);
  const text = sel.includes(':not(.tile)') ? getComputedStyle(el, '::before') : box;
  return {fg: text.color, bg: box.backgroundColor, px: parseFloat(text.fontSize)}; }"""


def luminance(css: str) -> float:
    """Relative luminance of an rgb()/rgba() colour (WCAG 2)."""
    channels = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("width,height", [(390, 844), (1920, 1080)])
def test_board_text_and_the_last_play_meet_wcag_contrast(site, width, height):
    """Premium labels, letters, blanks and the last play's ring, as Chromium renders them:
    text at least 4.5:1 (WCAG AA), the ring at least 3:1 against a tile (non-text)."""
    from playwright.sync_api import expect

    base, _ = site
    submit(base, "t1", WINDY | {"word": "WINDy"})  # a blank Y on H8
    submit(base, "t1", {"type": "play", "coord": "D7", "word": "aW"})  # the last play, a blank
    with chromium(width, height) as page:
        page.goto(f"{base}/boards/t1")
        expect(page.locator('[data-sq="D7"]')).to_have_class(has_class("last"))
        measured = {}
        for name, square in [("TW", "A1"), ("DW", "B2"), ("TL", "B6"), ("DL", "A4")]:
            got = page.evaluate(CONTRAST_JS, f'[data-sq="{square}"]:not(.tile)')
            measured[name] = contrast(got["fg"], got["bg"])
            assert got["px"] >= 9, (name, got)
        for name, square in [("letter", "E8"), ("blank", "H8"), ("last blank", "D7")]:
            got = page.evaluate(CONTRAST_JS, f'[data-sq="{square}"] .ltr')
            got["bg"] = page.evaluate(CONTRAST_JS, f'[data-sq="{square}"]')["bg"]
            measured[name] = contrast(got["fg"], got["bg"])
        ring = page.evaluate("""() => getComputedStyle(document.querySelector(
            '[data-sq="D7"]')).boxShadow""")
        tile = page.evaluate(CONTRAST_JS, '[data-sq="E8"]')["bg"]
        measured["ring"] = contrast(re.match(r"rgba?\([^)]*\)", ring)[0], tile)
    text = {k: v for k, v in measured.items() if k != "ring"}
    print({k: round(v, 2) for k, v in measured.items()})  # for docs/pages.md
    assert min(text.values()) >= 4.5, measured
    assert measured["ring"] >= 3.0, measured


def test_a_page_refused_a_stream_says_so_and_goes_live_once_a_slot_is_free(tmp_path, page):
    """A full server answers 503; the page shows that its board may be out of date and
    retries by itself (Chromium's EventSource would not), then follows the game."""
    import http.client
    import urllib.parse

    from playwright.sync_api import expect

    with serving(tmp_path / "out", (BoardSpec("t1", players=("Ann", "Bob")),),
                 max_streams=1) as (base, _):
        held = http.client.HTTPConnection(urllib.parse.urlparse(base).netloc, timeout=30)
        held.request("GET", "/api/boards/t1/events")  # the server's one stream slot
        stream = held.getresponse()  # (kept: the response, dropped, would close the socket)
        assert stream.status == 200
        page.goto(f"{base}/boards/t1")
        expect(page.locator("body")).to_have_class(has_class("stale"))
        expect(page.locator("[data-stale-note]")).to_be_visible()
        expect(page.locator("[data-stale-note]")).to_contain_text("Connection to the server lost")
        stream.close()
        held.close()  # the slot comes back; the page's retry takes it
        expect(page.locator("[data-status]")).to_have_text("live", timeout=20_000)
        expect(page.locator("[data-stale-note]")).to_be_hidden()
        submit(base, "t1", WINDY)
        expect(page.locator('[data-sq="D8"]')).to_have_text("W4")


@pytest.mark.parametrize("preset", ["", "dark", "light"])
def test_a_field_reads_on_light_mid_and_dark_scenes(site, page, preset):
    """The field's pixels, laid over a white, a grey and a black scene: a quarter or more of
    what it draws stands out from the scene by 3:1, WCAG's ratio for large text (a field is
    48 px), by its fill or by its outline."""
    from playwright.sync_api import expect

    base, _ = site
    submit(base, "t1", WINDY)
    page.goto(f"{base}/overlay/t1/score" + (f"?preset={preset}" if preset else ""))
    text = page.locator("[data-field-text]")
    expect(text).to_have_text("32 - 0")
    shot = cv2.imdecode(np.frombuffer(text.screenshot(omit_background=True), np.uint8),
                        cv2.IMREAD_UNCHANGED).astype(np.float64) / 255
    alpha = shot[..., 3:]
    drawn = alpha[..., 0] > 0.5
    assert drawn.sum() > 200, "the field drew no text"
    for scene in (1.0, 0.5, 0.0):
        seen = shot[..., :3] * alpha + scene * (1 - alpha)  # over the scene, as OBS lays it
        lin = np.where(seen <= 0.03928, seen / 12.92, ((seen + 0.055) / 1.055) ** 2.4)
        lum = lin @ np.array([0.0722, 0.7152, 0.2126])  # OpenCV's BGR order
        scene_lum = (scene / 12.92 if scene <= 0.03928 else ((scene + 0.055) / 1.055) ** 2.4)
        ratio = (np.maximum(lum, scene_lum) + 0.05) / (np.minimum(lum, scene_lum) + 0.05)
        standing_out = (ratio >= 3.0) & drawn
        assert standing_out.sum() >= 0.25 * drawn.sum(), (preset, scene, standing_out.sum(),
                                                         drawn.sum())
