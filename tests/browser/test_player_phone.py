"""Two phones at the table, in chromium: the Banker's, showing the Join panel, and Ann's, which
opens the link read from her QR code, follows her cash live, claims rent, and is cut off when the
Banker gives her a new link."""

from __future__ import annotations

import struct
import time
import zlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

zxingcpp = pytest.importorskip("zxingcpp")

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
JOIN_SUMMARY = "Players’ phones: codes to join"


def png_pixels(png: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, channels, raw rows) of an 8-bit, non-interlaced RGB(A) or grey PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], None
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            chunks.append(data)
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0 and color in (0, 2, 6), header
    channels = {0: 1, 2: 3, 6: 4}[color]
    raw, stride = zlib.decompress(b"".join(chunks)), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, b"".join(rows)


def decode_qr_png(png: bytes) -> str:
    """The text of the one QR code in a PNG screenshot, read by zxing-cpp."""
    width, height, channels, pixels = png_pixels(png)
    image_format = {1: zxingcpp.ImageFormat.Lum, 3: zxingcpp.ImageFormat.RGB}.get(
        channels, zxingcpp.ImageFormat.RGBA
    )
    view = zxingcpp.ImageView(pixels, width, height, image_format)
    (barcode,) = zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode)
    return barcode.text


def scan_join_code(banker, player_id: str) -> str:
    """What a phone's camera reads from a player's QR code on the Banker's screen."""
    code = banker.locator(f"#join-{player_id} img.qr")
    code.scroll_into_view_if_needed()
    code.evaluate("img => img.decode()")  # an image fetched when the panel opens
    return decode_qr_png(code.screenshot())


def wait_for_cash(page, cash: str, within_s: float) -> float:
    """Seconds until the player's page shows `cash`; fails after `within_s`."""
    start = time.monotonic()
    page.wait_for_function(
        "cash => document.querySelector('#my-cash')?.textContent === cash",
        arg=cash,
        timeout=within_s * 1000,
        polling=50,
    )
    return time.monotonic() - start


def test_a_player_joins_by_qr_code_follows_the_bankers_commands_live_and_claims_rent(
    live_server, browser, new_api_game
):
    created = new_api_game(["Ann", "Bob"])
    join_urls = {p["id"]: p["join_url"] for p in created["players"]}
    banker_context = browser.new_context(**PHONE)
    ann_context = browser.new_context(**PHONE)
    try:
        banker_context.set_default_timeout(10_000)
        ann_context.set_default_timeout(10_000)
        banker = banker_context.new_page()
        banker.on("dialog", lambda dialog: dialog.accept())  # "Give Ann a new link?"
        banker.goto(created["banker_url"])
        banker.get_by_text(JOIN_SUMMARY).click()

        # Ann scans her code: it is her link, and her page shows her 1,500.
        url = scan_join_code(banker, "p1")
        assert url == join_urls["p1"]
        ann = ann_context.new_page()
        ann.goto(url)
        assert ann.locator("#my-cash").text_content() == "1,500"
        assert ann.locator("h1").first.text_content() == "Ann"
        ann.evaluate("window.notReloaded = true")

        # The Banker records Ann's roll and her purchase: her page follows without a reload.
        banker.get_by_role("button", name="Ann starts").click()
        time.sleep(0.35)  # the pad ignores a tap on a die within 300 ms of the last (pad.js)
        banker.get_by_role("button", name="First die 1").click()
        time.sleep(0.35)  # the pad ignores a second tap within 300 ms (static/pad.js)
        banker.get_by_role("button", name="Second die 2: record 1 and 2").click()
        banker.locator("#screen[data-version='2']").wait_for()
        # A tap that lands while the Banker's screen is being swapped can be lost there (it is
        # the Banker's page's own behaviour, not the player's): tap again, as a Banker would.
        for _ in range(3):
            banker.get_by_role("button", name="Buy for 60").click()
            try:
                banker.locator("#screen[data-version='3']").wait_for(timeout=2000)
                break
            except Exception:
                continue
        took = wait_for_cash(ann, "1,440", within_s=1.0)
        assert took < 1.0
        assert ann.evaluate("window.notReloaded") is True
        assert "Baltic Avenue" in ann.locator("#deed-baltic-avenue").text_content()

        # Bob lands on Baltic Avenue: only the owner's phone offers the claim; Ann presses it.
        time.sleep(0.35)  # the pad ignores a tap on a die within 300 ms of the last (pad.js)
        banker.get_by_role("button", name="First die 1").click()
        time.sleep(0.35)  # the pad ignores a second tap within 300 ms (static/pad.js)
        banker.get_by_role("button", name="Second die 2: record 1 and 2").click()
        ask = ann.get_by_role("button", name="Ask Bob for 4 (Baltic Avenue)")
        ask.wait_for(timeout=1000)
        ask.click()
        wait_for_cash(ann, "1,444", within_s=2.0)
        assert ann.get_by_role("button", name="Ask Bob for 4 (Baltic Avenue)").count() == 0
        assert "Bob paid Ann 4 (rent on Baltic Avenue)." in ann.locator(".events").text_content()
        assert ann.evaluate("window.notReloaded") is True
        # The Banker's table shows it too (its own poll).
        banker.locator(".strip li", has_text="Ann").filter(has_text="1,444").wait_for(timeout=5000)
        assert live_server.store.state(created["game_id"])["players"][0]["cash"] == 1444

        # A lost phone: the Banker gives Ann a new link; the old page says it no longer works.
        # The Join panel stayed open through the table's refreshes (hx-preserve).
        assert banker.locator("#join-details").evaluate("d => d.open") is True
        yes = banker.get_by_role("button", name="Yes: a new link for Ann")  # the confirmation
        for _ in range(3):  # a click landing while a live update swaps the table is tapped again
            banker.get_by_role("button", name="New link for Ann").click()
            try:
                yes.wait_for(timeout=3000)
                break
            except PlaywrightTimeoutError:
                continue
        yes.click()
        ann.locator("#message").wait_for(timeout=3000)
        assert "This link no longer works" in ann.locator("#message").text_content()
        new_url = scan_join_code(banker, "p1")
        assert new_url != url and new_url.startswith(live_server.url + "/join/")
        ann.goto(new_url)
        assert ann.locator("#my-cash").text_content() == "1,444"
    finally:
        banker_context.close()
        ann_context.close()
