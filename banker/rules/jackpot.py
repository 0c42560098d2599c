"""The Free Parking jackpot, a house rule in neither rule text (option free_parking_jackpot, off
by default, either edition): money a player pays the Bank for a tax space, a card (repairs
included) or the 50 to leave Jail goes into `bank.free_parking` (state.feed_pot, called where
such money is paid: state.pay, turn.cmd_pay_jail_fine), and a token that comes to rest on Free
Parking by a roll collects the whole pot (collect_pot, from turn.land). The pot is the Bank's
money: nothing else feeds it, nothing else empties it."""

from __future__ import annotations

from .state import event, money, player


def collect_pot(s: dict, events: list, pid: str) -> None:
    """pid's token came to rest on Free Parking by a roll: with the house rule, they collect
    the whole pot (an empty pot: nothing to collect)."""
    if not s["options"].get("free_parking_jackpot"):
        return
    pot, p = s["bank"]["free_parking"], player(s, pid)
    if not pot:
        event(s, events, "free_parking", "The Free Parking pot is empty: nothing to collect.")
        return
    p["cash"] += pot
    s["bank"]["free_parking"] = 0
    event(
        s,
        events,
        "free_parking",
        f"{p['name']} collected the Free Parking pot: {money(pot)}.",
        player=pid,
        amount=pot,
    )
