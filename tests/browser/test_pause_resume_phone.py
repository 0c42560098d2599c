"""Pause and resume on a phone: from the table to the Pause page (paper record, print view,
the snapshot file downloaded), then Resume from file on the home page, and a damaged file."""

from __future__ import annotations

import json
import re

from banker.rules import public_state

from .conftest import layout_problems, played, screenshot

NAMES = ["Ann", "<script>alert(1)</script>", "مريم"]


def command(live_server, game: dict, body: dict) -> dict:
    return played(live_server, game).do(body)


def test_a_game_paused_to_a_file_on_one_phone_resumes_from_it_on_another(
    live_server, browser, phone, new_api_game, check_screen, tmp_path
):
    game = new_api_game(NAMES)
    for body in [
        {"type": "start", "first": "p1"},
        {"type": "roll", "player": "p1", "dice": [1, 2]},
        {"type": "buy"},
        {"type": "roll", "player": "p2", "dice": [3, 4]},  # Chance
        {"type": "draw_card", "deck": "chance", "card": "get-out-of-jail-free"},
    ]:
        command(live_server, game, body)
    dialogs = []
    page = phone.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(game["banker_url"])

    page.get_by_role("link", name=re.compile("Pause")).click()
    page.wait_for_url(re.compile(r"/pause$"))
    record = page.locator("#paper-record")
    assert "Next to roll" in record.inner_text()
    bob = page.get_by_role("article", name=NAMES[1])
    assert "Chance Get Out of Jail Free" in bob.inner_text()
    assert "1,440" in page.get_by_role("article", name="Ann").inner_text()
    check_screen(page, "pause-page")

    # Printed: only the record, black on white; the buttons and the navigation are gone.
    page.emulate_media(media="print", color_scheme="light")
    assert not page.get_by_role("link", name="Download the snapshot file").is_visible()
    assert record.is_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    screenshot(page, "pause-page-print")
    page.emulate_media(media="screen")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the snapshot file").click()
    name = download.value.suggested_filename
    assert re.fullmatch(r"banker-\d{4}-\d\d-\d\d-Ann-scriptalert1script-p3\.json", name), name
    saved = tmp_path / name
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["game"]["players"] == NAMES

    # Another phone: no cookies, the file in hand.
    other = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = other.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(live_server.url + "/")
        page.locator('input[name="snapshot"]').set_input_files(saved)
        page.get_by_role("button", name="Resume the game").click()
        page.wait_for_url(re.compile(r"/games/[a-z2-9]+$"))
        new_id = page.url.rsplit("/", 1)[1]
        assert new_id != game["game_id"]
        resumed = public_state(live_server.store.state(new_id))
        original = public_state(live_server.store.state(game["game_id"]))
        assert resumed == {**original, "game_id": new_id}
        assert layout_problems(page) == []

        # A damaged file: the reason, the form again, nothing created.
        games = len(live_server.store.list_games())
        damaged = json.loads(saved.read_text())
        damaged["state"]["players"][0]["cash"] = 15000
        (tmp_path / "damaged.json").write_text(json.dumps(damaged))
        page.goto(live_server.url + "/")
        page.locator('input[name="snapshot"]').set_input_files(tmp_path / "damaged.json")
        page.get_by_role("button", name="Resume the game").click()
        alert = page.get_by_role("alert")
        assert "they differ at state.players[0].cash (recorded 15000, replayed 1440)" in (
            alert.inner_text()
        )
        assert len(live_server.store.list_games()) == games
        check_screen(page, "resume-refused")
    finally:
        other.close()
    assert dialogs == []  # no name ever ran as a script
