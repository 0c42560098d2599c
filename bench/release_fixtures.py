"""Make the fixtures of one release: snapshots and a database, played through that release's
own app (its JSON API, through Flask's test client), for tests/data/releases/<release>/.

Run it with the release's code first on the path, e.g. from a worktree of an old commit:

    git worktree add /work/wt/old-a41a114 a41a114
    PYTHONPATH=/work/wt/old-a41a114 .venv/bin/python bench/release_fixtures.py \
        tests/data/releases/a41a114

It plays several varied games with seeded random choices (debts, bankruptcies to a player and
to the Bank, auctions and a long run of raises of 1, jail, cards, trades, undo, a leave, the
jackpot and private_cash options where the release has them), saves snapshots at moments
worth resuming (gzipped JSON), and leaves a database with unfinished games, some of whose
commands were sent with an Idempotency-Key (their answers remembered), as games.db.gz.
`manifest.json` says,
for each game of the database, its tokens and every keyed command with the answer it got.
It imports only the release under test and the standard library: the tests never run it.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

# The cards of each deck, as tests/plays.py lists them (copied: this script runs with an earlier
# release's code first on the path, and must not depend on today's tests).
CARDS = {
    "chance": [
        "advance-to-boardwalk", "advance-to-go", "advance-to-illinois-avenue",
        "advance-to-st-charles-place", "advance-to-next-railroad", "advance-to-nearest-utility",
        "bank-dividend-50", "get-out-of-jail-free", "go-back-three-spaces", "go-to-jail",
        "general-repairs", "speeding-fine-15", "trip-to-reading-railroad",
        "chairperson-pay-each-player-50", "building-loan-matures-150",
    ],
    "community_chest": [
        "advance-to-go", "collect-200-storm-cleanup", "pay-50-bake-sale-cookies",
        "collect-50-walking-path", "get-out-of-jail-free", "go-to-jail",
        "collect-100-school-playground", "collect-20-groceries", "collect-10-from-each-player",
        "collect-100-elderly-neighbor", "pay-100-car-wash", "pay-50-animal-shelter",
        "collect-25-bake-sale", "street-repairs", "collect-10-blood-drive",
        "collect-100-childrens-hospital",
    ],
}  # fmt: skip


class Table:
    """One game through the release's JSON API."""

    def __init__(self, client, created: dict, keyed_every: int, rng):
        self.client, self.rng = client, rng
        self.id = created["game_id"]
        self.banker = created["banker_token"]
        self.players = {p["id"]: p["token"] for p in created["players"]}
        self.display_url = created.get("display_url")
        self.state = created["state"]
        self.keyed_every, self.sent, self.keyed = keyed_every, 0, []

    def send(self, command: dict) -> list | None:
        """The command's events when accepted, else None (a refusal changes nothing)."""
        self.sent += 1
        headers = {"Authorization": f"Bearer {self.banker}"}
        key = None
        if self.keyed_every and self.sent % self.keyed_every == 0:
            key = f"fixture-{self.id}-{self.sent}"
            headers["Idempotency-Key"] = key
        r = self.client.post(f"/api/v1/games/{self.id}/commands", json=command, headers=headers)
        if r.status_code != 200:
            if r.status_code >= 500:
                raise RuntimeError(f"{command}: {r.status_code} {r.get_data(as_text=True)[:300]}")
            return None
        body = r.get_json()
        self.state = body["state"]
        if key is not None:
            answer = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            sha = hashlib.sha256(answer.encode()).hexdigest()
            self.keyed.append({"key": key, "command": command, "version": body["version"],
                               "events": [e["text"] for e in body["events"]],
                               "answer_sha256": sha})  # fmt: skip
        return body["events"]

    def snapshot(self) -> dict:
        r = self.client.get(
            f"/api/v1/games/{self.id}/snapshot", headers={"Authorization": f"Bearer {self.banker}"}
        )
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
        return r.get_json()


def candidates(t: Table, commands: set, rng, style: dict) -> list[dict]:
    """Commands a real table might record next, best first (the rules may refuse some)."""
    s = t.state
    pending, turn = s["pending"], s["turn"]
    alive = [p for p in s["players"] if not p["eliminated"]]
    ids = [p["id"] for p in alive]
    props = s["properties"]
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    out: list[dict] = []
    if pending.get("debt"):
        debt = pending["debt"]
        debtor = next(p for p in s["players"] if p["id"] == debt["debtor"])
        mine = [d for d, st in props.items() if st["owner"] == debtor["id"]]
        built = [d for d in mine if props[d]["houses"] or props[d]["hotel"]]
        free = [d for d in mine if not props[d]["mortgaged"]]
        if (debtor["cash"] or 0) >= debt["amount"]:
            out.append({"type": "pay_debt"})
        out += [{"type": "sell_building", "property": d} for d in built]
        if rng.random() < style.get("mortgage_in_debt", 0.7):
            out += [{"type": "mortgage", "property": d} for d in free]
        out.append({"type": "bankrupt", "player": debtor["id"]})
        return out
    if pending.get("offer"):
        buy = rng.random() < style.get("buy", 0.75)
        return [{"type": "buy"}, {"type": "auction"}] if buy else [{"type": "auction"}]
    if pending.get("auction"):
        a = pending["auction"]
        if style.get("raises_of_one") and t.raises < style["raises_of_one"] and len(ids) > 1:
            t.raises += 1
            bidder = ids[t.raises % 2]
            return [{"type": "bid", "player": bidder, "amount": max(a["high_bid"] + 1, 10)}]
        if a.get("high_bidder") is None or rng.random() < 0.6:
            amount = (a.get("high_bid") or 0) + rng.randint(1, 60)
            out.append({"type": "bid", "player": rng.choice(ids), "amount": max(amount, 10)})
        out.append({"type": "close_auction"})
        out += [{"type": "close_auction", "property": d} for d in props]
        return out
    if pending.get("card"):
        deck = pending["card"]["deck"]
        cards = rng.sample(CARDS[deck], len(CARDS[deck]))
        return [{"type": "draw_card", "deck": deck, "card": c} for c in cards]
    if pending.get("dice"):
        return [{"type": "rent_roll", "dice": dice}]
    if pending.get("payments"):
        out.append({"type": "pay_debt"})
    if pending.get("rent_claims") and rng.random() < 0.8:
        out.append({"type": "claim_rent", "claim": pending["rent_claims"][0]["id"]})
    for offer in pending.get("trade_offers") or []:
        kind = "accept_trade" if rng.random() < 0.6 else "decline_trade"
        out.append({"type": kind, "offer": offer["id"]})
    owned = [d for d, st in props.items() if st["owner"] is not None]
    roll = rng.random()
    if owned and roll < style.get("build", 0.25):
        # Build where the rules allow it (a whole color group): try every deed, in random order.
        for deed in rng.sample(owned, len(owned)):
            out.append({"type": "build", "property": deed})
    elif owned and roll < 0.32:
        kind = rng.choice(["mortgage", "unmortgage", "sell_building"])
        out.append({"type": kind, "property": rng.choice(owned)})
    elif owned and roll < 0.36 and len(ids) > 1:
        deed = rng.choice(owned)
        owner = props[deed]["owner"]
        other = rng.choice([i for i in ids if i != owner] or ids)
        deal = {"from": other, "to": owner, "give": {"cash": rng.randint(1, 200)},
                "receive": {"properties": [deed]}}  # fmt: skip
        kind = "propose_trade" if "propose_trade" in commands and rng.random() < 0.6 else "trade"
        out.append({"type": kind, **deal})
    elif roll < 0.36 + style.get("undo", 0.03) and "undo" in commands:
        out.append({"type": "undo"})
    mover = next((p for p in alive if p["id"] == turn["player"]), None)
    if mover is None:
        out += [{"type": "score_game"}, {"type": "pay_debt"}]
        return out
    if mover["in_jail"]:
        if mover["jail_cards"] and rng.random() < 0.5:
            out.append({"type": "use_jail_card", "player": mover["id"],
                        "deck": mover["jail_cards"][0]})  # fmt: skip
        if rng.random() < 0.3:
            out.append({"type": "pay_jail_fine", "player": mover["id"]})
    out.append({"type": "roll", "player": turn["player"], "dice": dice})
    return out


def moments(before: dict, after: dict) -> list[str]:
    """The moments worth a snapshot that this command reached."""
    found = []
    gone = sum(p["eliminated"] for p in after["players"]) - sum(
        p["eliminated"] for p in before["players"]
    )
    if gone:
        found.append("after_bankruptcy")
    p = after["pending"]
    for name in ("debt", "auction", "card", "offer", "dice", "auction_queue", "trade_offers"):
        if p.get(name):
            found.append(f"pending_{name}")
    if any(pl["in_jail"] for pl in after["players"]):
        found.append("jail")
    if after.get("bank", {}).get("free_parking"):
        found.append("jackpot_pot")
    if after["status"] != "playing":
        found.append(f"status_{after['status']}")
    return found


def play(client, spec: dict, commands: set, out: Path, manifest: list) -> dict:
    rng = random.Random(spec["seed"])
    r = client.post("/api/v1/games", json={"edition": spec.get("edition", "g0009"),
                                           "players": spec["players"],
                                           "options": spec.get("options")})  # fmt: skip
    assert r.status_code == 201, r.get_data(as_text=True)[:300]
    t = Table(client, r.get_json(), spec.get("keyed_every", 0), rng)
    t.raises = 0
    t.send({"type": "start", "first": "p1"})
    for command in spec.get("script", []):
        if command.get("amount") == "ALL":  # all the player's cash, as a correction
            cash = next(p["cash"] for p in t.state["players"] if p["id"] == command["player"])
            command = {**command, "amount": -cash}
        if t.send(command) is None:
            print(f"{spec['name']}: the script's {command} was refused", file=sys.stderr)
    style = spec.get("style", {})
    saved, accepted, stuck = [], t.state["version"], 0
    if spec.get("script"):
        saved.append(save(t, out, spec, "after_script", accepted))
    every = spec.get("snapshot_every", 80)
    seen: set[str] = set()
    while accepted < spec["commands"] and t.state["status"] in ("playing", "setup"):
        if spec.get("leave_at") == accepted and "leave" in commands:
            quiet = not any(v for k, v in t.state["pending"].items() if k != "final_round")
            leaver = t.state["players"][-1]["id"]
            if quiet and t.send({"type": "leave", "player": leaver}) is not None:
                accepted += 1
                saved.append(save(t, out, spec, "after_leave", accepted))
                continue
            spec["leave_at"] += 1
        before = t.state
        for command in candidates(t, commands, rng, style):
            if t.send(command) is not None:
                accepted += 1
                stuck = 0
                for m in moments(before, t.state):
                    if m not in seen and len(saved) < spec.get("most_snapshots", 6):
                        seen.add(m)
                        saved.append(save(t, out, spec, m, accepted))
                if accepted % every == 0 and len(saved) < spec.get("most_snapshots", 6):
                    saved.append(save(t, out, spec, f"at_{accepted}", accepted))
                if t.raises in (100, 205) and f"raises_{t.raises}" not in seen:
                    seen.add(f"raises_{t.raises}")  # in the middle of the run, and at its end
                    saved.append(save(t, out, spec, f"raises_{t.raises}", accepted))
                break
        else:
            stuck += 1
            if stuck > 40:
                break
    saved.append(save(t, out, spec, "end", accepted))
    if spec.get("in_database"):
        manifest.append(
            {
                "name": spec["name"],
                "game_id": t.id,
                "banker_token": t.banker,
                "player_tokens": t.players,
                "display_url": t.display_url,
                "version": t.state["version"],
                "keyed": t.keyed,
            }  # fmt: skip
        )
    return {"name": spec["name"], "commands": accepted, "status": t.state["status"],
            "snapshots": saved}  # fmt: skip


def save(t: Table, out: Path, spec: dict, moment: str, accepted: int) -> str:
    if not spec.get("snapshots", True):
        return ""
    name = f"{spec['name']}-{accepted:04d}-{moment}.json.gz"
    doc = t.snapshot()
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    (out / "snapshots" / name).write_bytes(gzip.compress(data, 9, mtime=0))
    return name


GAMES = [
    # Four players, many commands: debts, bankruptcies to players and to the Bank, the end.
    {
        "name": "bankruptcies",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "seed": 1,
        "commands": 1400,
        "style": {"build": 0.5, "buy": 0.95, "mortgage_in_debt": 0.4},
        "snapshot_every": 500,
        "most_snapshots": 8,
    },
    {
        "name": "classic",
        "edition": "classic",
        "players": ["Ann", "Bob", "Cat"],
        "seed": 2,
        "commands": 900,
        "style": {"build": 0.45, "buy": 0.9, "mortgage_in_debt": 0.3},
        "snapshot_every": 300,
    },
    # A bankruptcy to the Bank: Bob, with his one deed mortgaged and no cash, draws a fine.
    {
        "name": "bank_bankruptcy",
        "players": ["Ann", "Bob", "Cat"],
        "seed": 8,
        "commands": 120,
        "script": [
            {"type": "roll", "player": "p1", "dice": [1, 3]},
            {"type": "roll", "player": "p2", "dice": [1, 2]},
            {"type": "buy"},
            {"type": "roll", "player": "p3", "dice": [1, 3]},
            {"type": "roll", "player": "p1", "dice": [2, 3]},
            {"type": "buy"},
            {"type": "mortgage", "property": "baltic-avenue"},
            {"type": "adjust", "player": "p2", "amount": "ALL", "reason": "A hard evening"},
            {"type": "roll", "player": "p2", "dice": [1, 3]},
            {"type": "draw_card", "deck": "chance", "card": "speeding-fine-15"},
            {"type": "bankrupt", "player": "p2"},
        ],
        "snapshot_every": 1000,
    },
    # A long run of raises of 1 in one auction (205 raises between two rolls).
    {
        "name": "long_auction",
        "players": ["Ann", "Bob", "Cat"],
        "seed": 3,
        "commands": 300,
        "style": {"buy": 0.0, "raises_of_one": 205},
        "snapshot_every": 1000,
    },
    # Options: private cash, auction_all, hotel shortage ruling; jackpot where it exists.
    {
        "name": "options",
        "players": ["Ann", "Bob", "Cat"],
        "seed": 4,
        "commands": 500,
        "options": {"private_cash": True, "auction_all": True, "hotel_shortage_ruling": True},
        "style": {"build": 0.4, "buy": 0.8},
        "snapshot_every": 250,
    },
    {
        "name": "jackpot",
        "players": ["Ann", "Bob"],
        "seed": 5,
        "commands": 400,
        "options": {"free_parking_jackpot": True},
        "style": {"build": 0.3},
        "snapshot_every": 200,
        "needs_option": "free_parking_jackpot",
    },
    {
        "name": "teams",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "seed": 6,
        "commands": 300,
        "options": {"teams": True},
        "style": {"build": 0.4},
        "snapshot_every": 300,
    },
    # A leaver whose deeds go to auction (where the release has leave).
    {
        "name": "leave",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "seed": 7,
        "commands": 320,
        "leave_at": 150,
        "style": {"buy": 0.95},
        "snapshot_every": 1000,
    },
]
# The database's games: left unfinished, some commands keyed (their answers remembered).
DATABASE_GAMES = [
    {
        "name": "db_unfinished",
        "players": ["Ann", "Bob", "Cat"],
        "seed": 11,
        "commands": 180,
        "keyed_every": 7,
        "in_database": True,
        "snapshots": False,
    },
    {
        "name": "db_options",
        "players": ["Ann", "Bob"],
        "seed": 12,
        "commands": 120,
        "options": {"private_cash": True, "free_parking_jackpot": True},
        "keyed_every": 5,
        "in_database": True,
        "snapshots": False,
    },
    {
        "name": "db_auction",
        "players": ["Ann", "Bob", "Cat"],
        "seed": 13,
        "commands": 60,
        "style": {"buy": 0.0, "raises_of_one": 30},
        "keyed_every": 3,
        "in_database": True,
        "snapshots": False,
    },
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the fixtures' folder (tests/data/releases/…)")
    args = parser.parse_args()
    import banker
    from banker.web import create_app

    print(f"banker from {Path(banker.__file__).parent}", file=sys.stderr)
    out: Path = args.out
    (out / "snapshots").mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp())
    report, manifest = [], []
    for part, games in (("snapshots", GAMES), ("games", DATABASE_GAMES)):
        app = create_app({"DATABASE": str(work / f"{part}.db"), "TESTING": True})
        client = app.test_client()
        text = json.dumps(client.get("/api/v1/openapi.json").get_json())
        commands = {c for c in ("undo", "leave", "propose_trade", "score_game") if f'"{c}"' in text}
        for spec in games:
            option = spec.get("needs_option")
            if option and f'"{option}"' not in text:
                continue
            opts = {k: v for k, v in (spec.get("options") or {}).items() if f'"{k}"' in text}
            report.append(play(client, {**spec, "options": opts or None}, commands, out, manifest))
            print(*(report[-1][k] for k in ("name", "commands", "status")), file=sys.stderr)
        for store in app.extensions.values():
            if hasattr(store, "close"):
                store.close()
    # The database as that release left it, made whole in one file (its WAL written back).
    conn = sqlite3.connect(work / "games.db")
    conn.execute("pragma wal_checkpoint(TRUNCATE)")
    conn.execute("pragma journal_mode=DELETE")
    conn.close()
    (out / "games.db.gz").write_bytes(gzip.compress((work / "games.db").read_bytes(), 9, mtime=0))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    (out / "played.json").write_text(json.dumps(report, indent=1) + "\n")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
