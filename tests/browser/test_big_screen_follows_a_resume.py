"""After a pause and a resume at the table, the big screen follows the resumed game by itself
(as the players' phones do), its link is one tap from the Banker's phone, and the paper record
carries the Free Parking pot."""

from __future__ import annotations

import json
import re

from .conftest import both_schemes, played

TV = {"viewport": {"width": 1920, "height": 1080}}


def test_the_big_screen_follows_a_game_paused_and_resumed_from_its_file(
    live_server, browser, phone, new_api_game, tmp_path
):
    game = new_api_game(["Ann", "Bob", "Cat"], options={"free_parking_jackpot": True})
    table = played(live_server, game)
    for body in [
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 3]},  # Income Tax: 200 into the pot
        {"type": "roll", "player": "p2", "dice": [1, 2]},
        {"type": "buy"},
    ]:
        table.do(body)
    tv_context = browser.new_context(**TV)
    try:
        tv = tv_context.new_page()
        tv.goto(game["display_url"])
        tv.locator("#display").wait_for()

        # The Banker pauses: the paper record notes the pot; the file is downloaded.
        page = phone.new_page()
        page.goto(game["banker_url"])
        page.get_by_role("link", name=re.compile("Pause")).click()
        page.wait_for_url(re.compile(r"/pause$"))
        assert "200 in the middle of the board" in page.locator("#record-pot").inner_text()
        both_schemes(page, "resume-paper-record-pot")
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the snapshot file").click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)

        # ...and resumes it from the file on the same server.
        page.goto(live_server.url + "/")
        page.locator('input[name="snapshot"]').set_input_files(saved)
        page.get_by_role("button", name="Resume the game").click()
        page.wait_for_url(re.compile(r"/games/[a-z2-9]+$"))
        new_id = page.url.rsplit("/", 1)[1]
        assert new_id != game["game_id"]
        new_display = live_server.store.display_token(new_id)

        # The big screen goes on to the resumed game's screen by itself, without a tap.
        tv.wait_for_url(re.compile(rf"/display/{re.escape(new_display)}$"), timeout=15_000)
        assert "Bob bought Baltic Avenue" in tv.locator("#display").inner_text()

        # A roll in the resumed game reaches it.
        token = live_server.store.banker_token(new_id)
        resumed = played(live_server, {"game_id": new_id, "banker_token": token, "players": []})
        resumed.do({"type": "roll", "player": "p3", "dice": [2, 3]})
        tv.get_by_text("Cat rolled 2 and 3").first.wait_for()
        both_schemes(tv, "resume-big-screen-follows-tv", full_page=False)

        # Its link is one tap from the Banker's phone: Show on a big screen.
        page.get_by_text("Show on a big screen").tap()
        link = page.locator("#big-screen-link")
        assert link.is_visible()
        assert link.inner_text().endswith(f"/display/{new_display}")
        link.scroll_into_view_if_needed()
        both_schemes(page, "resume-banker-big-screen-link", full_page=False)
    finally:
        tv_context.close()


def test_resuming_a_file_an_earlier_release_led_elsewhere_says_so_then_opens_the_table(
    live_server, phone, new_api_game, check_screen, tmp_path
):
    game = new_api_game(["Ann", "Bob"])
    table = played(live_server, game)
    for body in [
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "buy"},
    ]:
        table.do(body)
    doc = live_server.store.snapshot(game["game_id"])
    doc["format_version"] = 1  # as release 0.1.0 saved it, whose rules charged Ann 10 less
    del doc["banker_version"]
    doc["state"]["players"][0]["cash"] += 10
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(doc))
    page = phone.new_page()
    page.goto(live_server.url + "/")
    page.locator('input[name="snapshot"]').set_input_files(saved)
    page.get_by_role("button", name="Resume the game").click()
    said = page.locator("#resumed-1")
    said.wait_for()
    assert said.inner_text().startswith("This game was saved by banker 0.1.0")
    check_screen(page, "resume-as-recorded")
    both_schemes(page, "resume-as-recorded")
    page.get_by_role("link", name="Open the resumed game").tap()
    page.wait_for_url(re.compile(r"/games/[a-z2-9]+$"))
    assert "1,450" in page.content()
