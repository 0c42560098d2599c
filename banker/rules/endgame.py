"""How a game ends: the last player standing, the agreed deadline (`call_time`, claims that
outlive the final round, `score_game`), and `stop` (an unfinished game).

Agreed deadline (docs/api.md): after `call_time` play goes on under unchanged rules until the
turn would pass back to `turn.first` with nothing pending (open trade offers do not count).
That is the cutoff. There is no next roll, so rent claims open at that moment do not lapse:
while any can still be asked, `turn.player` is null, `pending.final_round` stays true and only
the commands of CLAIMS_WAIT_COMMANDS are accepted, with the debtor's own sales, mortgages and
deals (`waiting_refusal`). The game is scored as soon as nothing is pending and no claim can be
asked, or at `score_game` (open claims lapse then); open offers are withdrawn when it ends.
"""

from __future__ import annotations

from .errors import DomainError
from .holdings import score
from .rent import claim_refusal
from .state import deed_name, event, money, name, require_playing, require_ready, survivors
from .trades import withdraw_all_offers

# What the table may still do after the cutoff (the final round over, claims waiting): ask the
# claims, the Banker's score_game, adjust and undo, decline or withdraw an offer, and settle a
# debt a claim created. "Do not sell, trade or unmortgage after the cutoff" holds for everyone
# but that debtor: they alone may sell or mortgage (their own deeds) and trade (as one side).
CLAIMS_WAIT_COMMANDS = (
    "claim_rent",
    "pay_debt",
    "bankrupt",
    "score_game",
    "adjust",
    "undo",
    "decline_trade",
)
DEBTOR_RAISING = ("sell_building", "mortgage")  # on the debtor's own deeds
DEBTOR_DEALS = ("trade", "propose_trade", "accept_trade")  # with the debtor as one side
FINAL_ROUND_OVER = (
    "The final round is over: only the open rent claims (and any debt they create) are "
    "settled now, or the Banker scores the game."
)


def claims_wait(s: dict) -> bool:
    """The final round is over and the game waits only for open rent claims."""
    return s["status"] == "playing" and s["pending"]["final_round"] and s["turn"]["player"] is None


def askable_claims(s: dict) -> list[dict]:
    """The open claims whose owner could ask for them now, debts aside (the deed is still the
    owner's and not mortgaged): the ones a page lists with a Claim button."""
    return [
        cl
        for cl in s["pending"]["rent_claims"]
        if claim_refusal(s, cl["id"], debt_counts=False) is None
    ]


def waiting_refusal(s: dict, c: dict) -> DomainError | None:
    """Why command `c` (as read) is refused because the final round is over (the cutoff), or
    `score_game` because it is not; else None."""
    kind = c["type"]
    if kind == "score_game" and not claims_wait(s):
        return DomainError(
            "Score the game only when the agreed deadline's final round is over and rent claims "
            "are still open; otherwise the game scores itself.",
            "not_waiting_for_claims",
        )
    if not claims_wait(s) or kind in CLAIMS_WAIT_COMMANDS:
        return None
    if kind not in DEBTOR_RAISING + DEBTOR_DEALS:
        return DomainError(FINAL_ROUND_OVER, "final_round_over")
    debt = s["pending"]["debt"]
    if not debt:
        return DomainError(
            "The final round is over: nothing may be sold, traded or mortgaged after the "
            "cutoff, except by a player raising cash for a debt a rent claim created.",
            "final_round_over",
        )
    return _debtor_refusal(s, c, debt["debtor"])


def _debtor_refusal(s: dict, c: dict, debtor: str) -> DomainError | None:
    """After the cutoff, with a debt pending: only the debtor's own sale, mortgage or deal."""
    who = name(s, debtor)
    if c["type"] in DEBTOR_RAISING:
        if s["properties"][c["property"]]["owner"] == debtor:
            return None
        return DomainError(
            f"The final round is over: only {who}, raising cash for the debt, may sell or "
            "mortgage after the cutoff, and only their own deeds.",
            "final_round_over",
        )
    deal = c
    if c["type"] == "accept_trade":
        deal = next((o for o in s["pending"]["trade_offers"] if o["id"] == c["offer"]), None)
        if deal is None:
            return None  # no such offer: the rules' own refusal says so
    if debtor not in (deal["from"], deal["to"]):
        return DomainError(
            f"The final round is over: a trade after the cutoff must be with {who}, "
            "raising cash for the debt.",
            "final_round_over",
        )
    if deal["unmortgage"]:
        return DomainError(
            "The final round is over: no mortgage may be lifted after the cutoff; the deeds "
            "change hands mortgaged.",
            "final_round_over",
        )
    return None


def busy(s: dict) -> bool:
    """Something the round must settle before it can end (open trade offers never hold it)."""
    p = s["pending"]
    return bool(
        p["offer"]
        or p["auction"]
        or p["auction_queue"]
        or p["card"]
        or p["dice"]
        or p["debt"]
        or p["payments"]
    )


def check_the_end(s: dict, events: list) -> None:
    """After each command: the last player standing wins; the deadline's round ends."""
    if s["status"] != "playing":
        return
    alive = survivors(s)
    if len(alive) == 1:
        finish_with_winner(s, events, alive[0])
        return
    t = s["turn"]
    if not s["pending"]["final_round"] or busy(s):
        return
    waiting = claims_wait(s)
    if not waiting and not (t["player"] == t["first"] and t["doubles"] == 0):
        return
    if not askable_claims(s):
        finish_by_score(s, events)
    elif not waiting:
        t["player"] = None
        event(
            s,
            events,
            "final_round_over",
            "The final round is over; open rent claims may still be asked, then the game is "
            "scored.",
        )


def clear_pending(s: dict, events: list, why: str) -> None:
    """The game is over: nothing is pending; every open offer is withdrawn (`why` says so)."""
    withdraw_all_offers(s, events, why)
    s["turn"]["player"] = None
    p = s["pending"]
    for key in ("offer", "auction", "card", "dice", "debt"):
        p[key] = None
    p.update(auction_queue=[], payments=[], rent_claims=[], trade_offers=[], final_round=False)


def finish_with_winner(s: dict, events: list, winner: dict) -> None:
    s["status"] = "finished"
    s["winners"] = [winner["id"]]
    event(
        s,
        events,
        "finished",
        f"{winner['name']} is the last player standing and wins.",
        winners=[winner["id"]],
    )
    clear_pending(s, events, "the game is over")


def call_time_check(s: dict, c: dict) -> DomainError | None:
    """Why calling time is refused now, or None: cmd_call_time's every check (rules/schema.py's
    `refusal=`)."""
    try:
        require_playing(s)
    except DomainError as e:
        return e
    if not s["options"]["deadline"]:
        return DomainError(
            "This game was not set up with the agreed-deadline variation.", "no_deadline"
        )
    if s["pending"]["final_round"]:
        return DomainError("Time has already been called.", "already_called")
    return None


def cmd_call_time(s: dict, events: list, c: dict) -> None:
    s["pending"]["final_round"] = True
    event(
        s,
        events,
        "time_called",
        "Time is called: play goes on until the round is over (every player has had the same "
        "number of turns), then the game is scored.",
    )


def finish_by_score(s: dict, events: list) -> None:
    scores = {p["id"]: score(s, p["id"]) for p in s["players"] if not p["eliminated"]}
    top = max(scores.values())
    s["scores"] = scores
    s["winners"] = [pid for pid, v in scores.items() if v == top]
    s["status"] = "finished"
    for cl in s["pending"]["rent_claims"]:
        event(
            s,
            events,
            "rent_lapsed",
            f"The {money(cl['amount'])} rent on "
            f"{deed_name(cl['property'])} lapses: the game is over.",
            claim=cl["id"],
        )
    listing = "; ".join(f"{name(s, pid)} {money(v)}" for pid, v in scores.items())
    names = [name(s, w) for w in s["winners"]]
    winners = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    event(
        s,
        events,
        "finished",
        f"The round is over and the game is scored: {listing}. "
        f"{winners} {'wins' if len(s['winners']) == 1 else 'share the win'}.",
        winners=s["winners"],
    )
    clear_pending(s, events, "the game is over")


def cmd_score_game(s: dict, events: list, c: dict) -> None:
    require_ready(s)
    event(s, events, "score_called", "The Banker scores the game now.")
    finish_by_score(s, events)


def stop_check(s: dict, c: dict) -> DomainError | None:
    """Why stopping is refused now, or None: cmd_stop's one check, that the game is being played
    (rules/schema.py's `refusal=`)."""
    try:
        require_playing(s)
    except DomainError as e:
        return e
    return None


def cmd_stop(s: dict, events: list, c: dict) -> None:
    s["status"] = "unfinished"
    s["winners"], s["scores"] = [], None
    event(
        s,
        events,
        "stopped",
        "Everyone agreed to stop early: the game is recorded as unfinished, with no winner.",
    )
    clear_pending(s, events, "the game was stopped")


def phase(s: dict) -> str:
    """Where the game stands, in one word: "setup", "playing", "final_round" (time called),
    "claims_wait" (final round over, open rent claims may still be asked), "finished" or
    "unfinished"."""
    if claims_wait(s):
        return "claims_wait"
    if s["status"] == "playing" and s["pending"]["final_round"]:
        return "final_round"
    return s["status"]


PHASE_SENTENCES = {
    "setup": "The game has not started: record who won the opening roll.",
    "playing": "",
    "final_round": "Time is called: the round is being finished, then the game is scored.",
    "claims_wait": "Final round over: waiting for rent claims.",
    "finished": "The game is over.",
    "unfinished": "The game was stopped early: unfinished, no winner.",
}


def phase_sentence(s: dict) -> str:
    """The phase in words for any page ("" while the game simply goes on)."""
    return PHASE_SENTENCES[phase(s)]
