"""`banker serve` for phones: the LAN address, --public-url, and the home page's URL as a QR code
in the terminal."""

from __future__ import annotations

import json
import re
import socket
import urllib.request
from pathlib import Path

import pytest
import zxingcpp

from banker import settings
from banker.__main__ import lan_address
from tests.serving import free_port, serving

REPO = Path(__file__).resolve().parents[2]

# print_ascii(invert=True) draws light modules: each character is two rows (top, bottom).
HALF_BLOCKS = {"█": (0, 0), "▄": (1, 0), "▀": (0, 1), " ": (1, 1), "\xa0": (1, 1)}


def decode_terminal_qr(lines: list[str]) -> str:
    """Read a QR code printed with half blocks back into modules and decode it with zxing."""
    rows: list[list[int]] = []
    for line in lines:
        top = [HALF_BLOCKS[ch][0] for ch in line]
        bottom = [HALF_BLOCKS[ch][1] for ch in line]
        rows += [top, bottom]
    width, scale, margin = len(rows[0]), 6, 4
    size = width + 2 * margin
    light = [[0] * width for _ in range(margin)]
    padded = light + rows + light
    pixels = b"".join(
        b"".join(
            (b"\x00" if dark else b"\xff") * scale for dark in [0] * margin + row + [0] * margin
        )
        * scale
        for row in padded
    )
    height = len(padded)
    view = zxingcpp.ImageView(pixels, size * scale, height * scale, zxingcpp.ImageFormat.Lum)
    (barcode,) = zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode)
    return barcode.text


@pytest.fixture
def served(tmp_path):
    """`banker serve --public-url …` on a free loopback port: (printed lines, real base URL)."""
    public = ("--public-url", "https://bank.example/table/")
    with serving(tmp_path / "b.db", *public, port=free_port()) as running:
        running.wait_for(r"\n▀+\n")  # the QR code's last line: its bottom margin, ▀ only
        yield running.output().splitlines(), running.url


def test_serve_prints_the_public_url_as_text_and_as_a_qr_code(served):
    lines, base = served
    assert lines[1] == "Open https://bank.example/table/ on the Banker's phone (Ctrl+C stops)."
    qr = lines[2:]
    assert qr and all(set(line) <= set(HALF_BLOCKS) for line in qr)
    assert decode_terminal_qr(qr) == "https://bank.example/table/"

    req = urllib.request.Request(
        base + "/api/v1/games",
        data=json.dumps({"players": ["Ann", "Bob"]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        created = json.loads(r.read())
    assert created["banker_url"].startswith("https://bank.example/table/games/")
    join_url = created["players"][0]["join_url"]
    assert join_url == f"https://bank.example/table/join/{created['players'][0]['token']}"
    # The proxy would forward /table/join/… as /join/…: the page is there.
    with urllib.request.urlopen(base + join_url.removeprefix("https://bank.example/table")) as r:
        assert r.status == 200 and r.headers["Cache-Control"] == "private, no-store"


def test_a_public_url_that_is_not_http_is_refused_in_one_sentence_naming_it():
    for bad in ("ftp://bank.example", "bank.example", "http://", "https://x/?a=1"):
        with pytest.raises(settings.SettingError, match=f"^--public-url {re.escape(bad)} "):
            settings.read({}, {"public_url": bad})
    values = settings.read({}, {"public_url": "HTTPS://bank.example:8443/"})
    assert values.public_url == "https://bank.example:8443"


def test_the_lan_address_is_the_outbound_interfaces_else_the_hostname(monkeypatch):
    address = lan_address()
    assert address and not address.startswith("127.")

    class NoRoute(socket.socket):
        def connect(self, address):
            raise OSError("Network is unreachable")

    monkeypatch.setattr(socket, "socket", NoRoute)
    assert lan_address() == socket.gethostname()
