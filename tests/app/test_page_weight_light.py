"""First loads: each page links only the stylesheets and scripts it uses, and the
Banker's table no longer carries its QR codes inline (they are images its closed panels fetch
when opened). The bytes themselves are measured by `python -m bench.run --only browser`; these
tests check what each page asks for, never a timing."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from tests.app.test_player import decode_qr_svg


def _loads(html: str) -> tuple[list[str], list[str]]:
    """(stylesheets, scripts) a page links, in order, without their ?v= cache busters."""
    sheets = re.findall(r'<link rel="stylesheet" href="([^"?]+)', html)
    scripts = re.findall(r'<script src="([^"?]+)', html)
    return sheets, scripts


def _bankers_table(g) -> str:
    g.table.client.get(f"/games/{g.id}?token={g.banker_token}")  # the pages' cookie
    return g.table.client.get(f"/games/{g.id}").get_data(as_text=True)


def test_the_bankers_table_loads_the_shared_and_the_bankers_stylesheets_and_its_scripts(new_game):
    g = new_game(["Ann", "Bob"])
    sheets, scripts = _loads(_bankers_table(g))
    assert sheets == ["/static/site.css", "/static/banker.css"]
    assert scripts == ["/static/htmx-2.0.11.min.js", "/static/pad.js", "/static/refresh.js"]


def test_a_players_page_loads_its_own_stylesheet_and_the_charts_not_the_displays_board(new_game):
    g = new_game(["Ann", "Bob"])
    html = g.table.client.get(f"/join/{g.tokens['p1']}").get_data(as_text=True)
    assert "How the game went" in html  # the chart is there, styled by chart.css
    sheets, scripts = _loads(html)
    assert sheets == ["/static/site.css", "/static/player.css", "/static/chart.css"]
    assert scripts == ["/static/htmx-2.0.11.min.js", "/static/refresh.js"]


def test_the_big_screen_loads_the_charts_and_the_boards_stylesheets_only(new_game):
    g = new_game(["Ann", "Bob"])
    display = g.created["display_url"].split("localhost", 1)[-1].split("/", 1)[-1]
    sheets, scripts = _loads(g.table.client.get("/" + display).get_data(as_text=True))
    assert sheets == ["/static/chart.css", "/static/board.css"]
    assert scripts == ["/static/htmx-2.0.11.min.js", "/static/refresh.js"]


def test_every_stylesheet_and_script_a_page_links_is_served(new_game):
    g = new_game(["Ann", "Bob"])
    pages = [
        _bankers_table(g),
        g.table.client.get(f"/join/{g.tokens['p1']}").get_data(as_text=True),
    ]
    for html in pages:
        sheets, scripts = _loads(html)
        for path in sheets + scripts:
            assert g.table.client.get(path).status_code == 200, path


def test_the_tab_icon_is_a_small_svg_of_the_house(new_game):
    g = new_game(["Ann", "Bob"])
    html = g.table.client.get(f"/join/{g.tokens['p1']}").get_data(as_text=True)
    icons = re.findall(r'<link rel="icon" href="([^"?]+)[^"]*"([^>]*)>', html)
    assert [href for href, _ in icons] == ["/static/icon.svg", "/static/icon-192.png"]
    assert 'sizes="any"' in icons[0][1]
    svg = g.table.client.get("/static/icon.svg")
    assert svg.mimetype == "image/svg+xml" and len(svg.get_data()) < 300
    assert 'fill="#0b6b3a"' in svg.get_data(as_text=True)  # the table's green


def test_the_bankers_table_carries_no_qr_code_inline_only_lazy_images(new_game):
    g = new_game(["Ann", "Bob", "Cat"])
    html = _bankers_table(g)
    assert "<svg" not in html.split('id="join-details"', 1)[1]
    images = re.findall(r'<img class="qr" src="([^"]+)"[^>]*>', html)
    assert len(images) == 4  # three players and the big screen
    assert all('loading="lazy"' in tag for tag in re.findall(r'<img class="qr"[^>]*>', html))
    codes = [
        decode_qr_svg(g.table.client.get(src.replace("&amp;", "&")).get_data(as_text=True))
        for src in images[:3]
    ]
    assert codes == [p["join_url"] for p in g.created["players"]]
    display = images[-1].replace("&amp;", "&")
    assert display == f"/games/{g.id}/codes/display.svg"
    assert (
        decode_qr_svg(g.table.client.get(display).get_data(as_text=True))
        == g.created["display_url"]
    )


def test_a_players_code_is_the_bankers_alone_and_a_new_link_is_a_new_image(new_game):
    g = new_game(["Ann", "Bob"])
    for query in ("", f"?token={g.tokens['p1']}", "?token=wrong"):
        r = g.table.client.get(f"/games/{g.id}/codes/p1.svg{query}")
        assert r.status_code == 403 and "<svg" not in r.get_data(as_text=True)
    r = g.table.client.get(f"/games/{g.id}/codes/p9.svg?token={g.banker_token}")
    assert r.status_code == 404
    r = g.table.client.get(f"/games/{g.id}/codes/p2.svg?token={g.banker_token}")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert "no-store" in r.headers["Cache-Control"]
    assert decode_qr_svg(r.get_data(as_text=True)) == g.created["players"][1]["join_url"]
    before = re.search(r'src="(/games/[^"]+/codes/p2\.svg[^"]*)"', _bankers_table(g)).group(1)
    assert g.table.client.post(f"/games/{g.id}/players/p2/new-link").status_code == 303
    after = re.search(r'src="(/games/[^"]+/codes/p2\.svg[^"]*)"', _bankers_table(g)).group(1)
    assert before != after
    new_url = decode_qr_svg(g.table.client.get(after.replace("&amp;", "&")).get_data(as_text=True))
    assert new_url != g.created["players"][1]["join_url"] and "/join/" in new_url


def test_a_static_file_is_gzipped_once_at_the_highest_level_and_served_the_same(client):
    css = (Path(__file__).resolve().parents[2] / "static" / "banker.css").read_bytes()
    bodies = []
    for _ in range(2):
        r = client.get("/static/banker.css", headers={"Accept-Encoding": "gzip"})
        assert r.headers["Content-Encoding"] == "gzip"
        bodies.append(r.get_data())
    assert bodies[0] == bodies[1] and gzip.decompress(bodies[0]) == css
    assert len(bodies[0]) == len(gzip.compress(css, 9, mtime=0))
