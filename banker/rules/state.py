"""Shared helpers of the core: looking up players, money, events, the state's gates.

The state is a plain JSON-serializable dict, its shape described once in rules/shape.py
(`state_schema`); keys starting with "_" are the core's own bookkeeping (`BOOKKEEPING` there)
and never shown to clients.
"""

from __future__ import annotations

from .board import DECK_NAMES, DEEDS
from .errors import BadCommand, DomainError, WithCash

_CONTAINERS = (dict, list)


def clone(x):
    """A deep copy of plain JSON data, faster than copy.deepcopy.

    Every command copies the whole state: strings, numbers and booleans are shared, not
    visited (one Python call per dict and list, none per value). Kept in Python on purpose: a
    `marshal` round trip is hardly faster but makes a new copy of every string, so the states
    kept in memory (undo's among them) took about three times the room."""
    if isinstance(x, dict):
        return {k: clone(v) if isinstance(v, _CONTAINERS) else v for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) if isinstance(v, _CONTAINERS) else v for v in x]
    return x


# What undo keeps of a command: the changes that take the state after it back to the state
# before it (not the whole state before it, so that undo's memory stays the size of what the
# commands changed, however many there are since the latest roll). A change is [path, value]:
# put `value` back at `path` (keys and list indexes from the top of the state); [path]: remove
# the key there; or [path, start, stop, items]: put `items` back in place of the list's
# [start:stop] (a list that grew or shrank: only what differs is kept). Counters and the version
# are not taken back (ids are never reused), nor the undo history itself.
NOT_TAKEN_BACK = ("_undo", "version", "_seq", "_claims", "_offers")


def changes(before: dict, after: dict) -> list[list]:
    """The changes that turn `after` back into `before` (see NOT_TAKEN_BACK)."""
    was = {k: v for k, v in before.items() if k not in NOT_TAKEN_BACK}
    now = {k: v for k, v in after.items() if k not in NOT_TAKEN_BACK}
    out: list[list] = []
    _changes(was, now, [], out)
    return out


def _changes(was, now, path: list, out: list) -> None:
    """Append to `out` what turns `now` back into `was` at `path` (a list used as a stack)."""
    if type(was) is type(now) and was == now:  # most of the state: one comparison, in C
        return
    if isinstance(was, dict) and isinstance(now, dict):
        for k, v in was.items():
            if k in now:
                path.append(k)
                _changes(v, now[k], path, out)
                path.pop()
            else:
                out.append([[*path, k], v])
        out += [[[*path, k]] for k in now if k not in was]
    elif isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
        for i, (a, b) in enumerate(zip(was, now, strict=True)):
            path.append(i)
            _changes(a, b, path, out)
            path.pop()
    elif isinstance(was, list) and isinstance(now, list):
        start = 0
        while start < min(len(was), len(now)) and _same(was[start], now[start]):
            start += 1
        end = 0  # items alike at both ends, after the common start
        while end < min(len(was), len(now)) - start and _same(was[-1 - end], now[-1 - end]):
            end += 1
        out.append([list(path), start, len(now) - end, was[start : len(was) - end]])
    else:
        out.append([list(path), was])


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b


def taken_back(state: dict, undo: list[list]) -> dict:
    """A copy of `state` with `undo` (changes(before, state)) put back: the state before."""
    s = clone(state)
    for change in undo:
        *parents, last = change[0]
        at = s
        for key in parents:
            at = at[key]
        if len(change) == 2:
            at[last] = clone(change[1])
        elif len(change) == 4:
            _, start, stop, items = change
            at[last][start:stop] = clone(items)
        else:
            del at[last]
    return s


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
    """Append an event; a sentence stating a player's cash (WithCash) also keeps whose
    (`cash_of`) and its wording for the others (`without_cash`)."""
    s["_seq"] += 1
    if isinstance(text, WithCash):
        data.update(cash_of=text.cash_of, without_cash=text.without_cash)
    events.append({"seq": s["_seq"], "type": type_, "text": str(text), **data})


def with_cash(p: dict, text: str, without_cash: str) -> WithCash:
    """A sentence stating player p's cash in hand, and its wording without the figure."""
    return WithCash(text, p["id"], without_cash)


def money(n: int) -> str:
    """An amount in a sentence, written as the pages write it: "1,500" (docs/api.md)."""
    return f"{n:,}"


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
            owed = f"{p['name']} cannot pay {money(amount)} to {name(s, payee)} ({what})"
            event(
                s,
                events,
                "debt",
                with_cash(
                    p,
                    f"{owed} with {money(p['cash'])} in cash: a debt until raised or bankrupt.",
                    f"{owed} from their cash: a debt until raised or bankrupt.",
                ),
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
