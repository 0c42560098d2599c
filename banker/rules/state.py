"""Shared helpers of the core: looking up players, money, events, the state's gates.

The state is a plain JSON-serializable dict, its shape described once in rules/shape.py
(`state_schema`); keys starting with "_" are the core's own bookkeeping (`BOOKKEEPING` there)
and never shown to clients.
"""

from __future__ import annotations

from .board import DECK_NAMES, DEEDS
from .errors import BadCommand, DomainError

_CONTAINERS = (dict, list)


def clone(x):
    """A deep copy of plain JSON data, faster than copy.deepcopy.

    Every command copies the whole state: strings, numbers and booleans are shared, not
    visited (one Python call per dict and list, none per value). Kept in Python on purpose: a
    `marshal` round trip is hardly faster but makes a new copy of every string, so the states
    kept in memory (undo's among them) took about three times the room (issue 17)."""
    if isinstance(x, dict):
        return {k: clone(v) if isinstance(v, _CONTAINERS) else v for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) if isinstance(v, _CONTAINERS) else v for v in x]
    return x


# --- players ------------------------------------------------------------------------------


def player(s: dict, pid: str, name: str = "player") -> dict:
    for p in s["players"]:
        if p["id"] == pid:
            return p
    raise BadCommand(f"There is no player '{str(pid)[:40]}' in this game.", "unknown_player")


def new_player(pid: str, members: list[str], cash: int) -> dict:
    """A player as they join the table: on GO with their starting cash, nothing else."""
    return {
        "id": pid,
        "name": " & ".join(members),
        "members": members,
        "cash": cash,
        "position": 0,
        "in_jail": False,
        "jail_attempts": 0,
        "jail_cards": [],
        "eliminated": False,
    }


def name(s: dict, pid: str | None) -> str:
    return "the Bank" if pid is None else player(s, pid)["name"]


def active_player(s: dict, c: dict, name_: str = "player") -> dict:
    p = player(s, c[name_])
    if p["eliminated"]:
        raise DomainError(f"{p['name']} is out of the game.", "player_eliminated")
    return p


def survivors(s: dict) -> list[dict]:
    return [p for p in s["players"] if not p["eliminated"]]


def next_player(s: dict, pid: str) -> str:
    """The next player still in the game to the left (next in seating order)."""
    ids = [p["id"] for p in s["players"]]
    i = ids.index(pid)
    for k in range(1, len(ids) + 1):
        p = s["players"][(i + k) % len(ids)]
        if not p["eliminated"]:
            return p["id"]
    return pid


def others_from_left(s: dict, pid: str) -> list[str]:
    """The other players still in, going round the table from pid's left."""
    ids = [p["id"] for p in s["players"]]
    i = ids.index(pid)
    out = []
    for k in range(1, len(ids)):
        p = s["players"][(i + k) % len(ids)]
        if not p["eliminated"]:
            out.append(p["id"])
    return out


# --- events and money ---------------------------------------------------------------------


def event(s: dict, events: list, type_: str, text: str, **data) -> None:
    s["_seq"] += 1
    events.append({"seq": s["_seq"], "type": type_, "text": text, **data})


def money(n: int) -> str:
    """An amount in an event sentence: plain digits, as a client searching the text expects."""
    return str(n)


def deed_name(pid: str) -> str:
    return DEEDS[pid].name


def deck_name(deck: str) -> str:
    return DECK_NAMES[deck]


def pay(
    s: dict, events: list, payer: str | None, payee: str | None, amount: int, reason: str, what: str
) -> bool:
    """Move money; a payer who lacks the cash gets the pending debt instead. True if paid."""
    if amount <= 0:
        return True
    if payer is not None:
        p = player(s, payer)
        if p["cash"] < amount:
            s["pending"]["debt"] = {
                "debtor": payer,
                "creditor": payee,
                "amount": amount,
                "reason": reason,
                "can_raise": 0,
            }
            event(
                s,
                events,
                "debt",
                f"{p['name']} cannot pay {money(amount)} to {name(s, payee)} ({what}) "
                f"with {money(p['cash'])} in cash: a debt until raised or bankrupt.",
                debtor=payer,
                creditor=payee,
                amount=amount,
            )
            return False
        p["cash"] -= amount
    if payee is not None:
        player(s, payee)["cash"] += amount
    pot = payer is not None and payee is None and feed_pot(s, amount, reason)
    event(
        s,
        events,
        "paid",
        f"{name(s, payer)} paid {money(amount)} ({what}) into the Free Parking pot, now "
        f"{money(s['bank']['free_parking'])}."
        if pot
        else f"{name(s, payer)} paid {name(s, payee)} {money(amount)} ({what}).",
        payer=payer,
        payee=payee,
        amount=amount,
        reason=reason,
        **({"free_parking": amount} if pot else {}),
    )
    return True


# The Free Parking jackpot house rule (option free_parking_jackpot): what a player pays the Bank
# for a tax space, a card (repairs included) or the 50 to leave Jail goes into the pot.
POT_REASONS = ("tax", "card", "jail_fine")


def feed_pot(s: dict, amount: int, reason: str) -> bool:
    """Put money paid to the Bank for `reason` into the Free Parking pot, if the house rule
    says so (True then); else it stays the Bank's own."""
    if not s["options"].get("free_parking_jackpot") or reason not in POT_REASONS:
        return False
    s["bank"]["free_parking"] += amount
    return True


def receive(s: dict, events: list, pid: str, amount: int, what: str) -> None:
    player(s, pid)["cash"] += amount
    event(
        s,
        events,
        "collected",
        f"{name(s, pid)} collected {money(amount)} from the Bank ({what}).",
        player=pid,
        amount=amount,
    )


def require_playing(s: dict) -> None:
    if s["status"] == "setup":
        raise DomainError(
            "The game has not started yet: record who won the opening roll first.", "not_started"
        )
    if s["status"] == "finished":
        raise DomainError("The game is over; nothing more can be recorded.", "game_finished")
    if s["status"] == "unfinished":
        raise DomainError(
            "The game was stopped early (unfinished); nothing more can be recorded. Undo takes "
            "the stop back.",
            "game_stopped",
        )


def require_no_debt(s: dict) -> None:
    d = s["pending"]["debt"]
    if d:
        raise DomainError(
            f"{name(s, d['debtor'])} owes {name(s, d['creditor'])} {money(d['amount'])}; settle "
            "that debt first (raise cash and pay it, or declare bankruptcy).",
            "debt_pending",
        )


def require_ready(s: dict) -> None:
    """The gate of most table actions: the game is being played and no debt waits."""
    require_playing(s)
    require_no_debt(s)
