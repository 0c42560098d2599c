"""A full disk while playing: the command is refused with 507 disk_full (the page
says the same in words), nothing is recorded, and the game goes on once space is freed.

The full disk is SQLite's own: `PRAGMA max_page_count` caps the database at its present size,
on the connection the test client's requests use (the Store keeps one per thread)."""

from __future__ import annotations

from html import unescape

FULL = "The server's disk is full, so nothing was recorded."
BONUS = {"type": "adjust", "player": "p1", "amount": 100, "reason": "Bonus"}


def fill_the_disk(store) -> None:
    db = store.database.connection()
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")


def free_the_disk(store) -> None:
    store.database.connection().execute("PRAGMA max_page_count = 1073741823")


def test_a_full_disk_refuses_the_command_with_507_and_records_nothing(client, new_game, store):
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    fill_the_disk(store)
    # The first commands may still fit in the file's free room; one soon does not.
    for _ in range(200):
        before = g.now()
        r = g.send(BONUS)
        if r.status_code != 200:
            break
    assert r.status_code == 507
    assert r.get_json() == {"error": {"code": "disk_full", "message": FULL + (
        " Free some space on it and try again: the game goes on from where it was.")}}  # fmt: skip
    assert g.now() == before
    cash = before[0]["players"][0]["cash"]
    # Once space is freed, the same command goes through, once.
    free_the_disk(store)
    answer = g.do(BONUS)
    assert answer["version"] == before[0]["version"] + 1
    assert answer["state"]["players"][0]["cash"] == cash + 100


def test_a_full_disk_is_told_in_words_on_the_banker_s_page(client, new_game, store):
    g = new_game(["Ann", "Bob"])
    g.do({"type": "start", "first": "p1"})
    assert client.get(f"/games/{g.id}?token={g.banker_token}").status_code == 303
    fill_the_disk(store)
    for _ in range(200):
        before = g.now()
        if g.send(BONUS).status_code != 200:
            break
    form = {"type": "adjust", "player": "p1", "amount": "100", "reason": "Bonus", "key": "k" * 16}
    # Without JavaScript: back to the table screen (303), which says it in words.
    r = client.post(f"/games/{g.id}/act", data=form)
    assert r.status_code == 303
    assert FULL in unescape(client.get(r.location).get_data(as_text=True))
    # With htmx: the fragment with the same sentence (base.html lets htmx swap a 507 in).
    r = client.post(
        f"/games/{g.id}/act", data={**form, "key": "h" * 16}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 507
    assert FULL in unescape(r.get_data(as_text=True))
    assert g.now() == before
    free_the_disk(store)
    r = client.post(f"/games/{g.id}/act", data={**form, "key": "n" * 16})
    assert r.status_code == 303
    assert FULL not in client.get(r.location).get_data(as_text=True)
    assert g.state["version"] == before[0]["version"] + 1


def test_creating_a_game_on_a_full_disk_is_refused_and_creates_nothing(client, store):
    fill_the_disk(store)
    made = 0
    for _ in range(200):
        r = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
        if r.status_code != 201:
            break
        made += 1
    assert r.status_code == 507 and r.get_json()["error"]["code"] == "disk_full"
    assert len(store.list_games()) == made
    r = client.post("/games", data={"edition": "g0009", "name": ["Ann", "Bob"]})
    assert r.status_code == 507
    assert FULL in unescape(r.get_data(as_text=True))
    assert len(store.list_games()) == made
