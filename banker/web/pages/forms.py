"""Plain HTML forms into commands: every field a string, checked for shape only.

The rules are the core's: this module only turns the form's strings into the command's
JSON types, and refuses a form it cannot read with a sentence (nothing is applied then).
"""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from banker.rules import Refusal

# The command types a Banker's form may send, and the fields each one reads.
_PLAIN = {"buy", "auction", "pay_debt", "call_time", "undo", "score_game", "stop"}
_PLAYER = {"pay_jail_fine"}
_PROPERTY = {"build", "sell_building", "mortgage", "unmortgage"}
TYPES = (
    _PLAIN
    | _PLAYER
    | _PROPERTY
    | {
        "start",
        "roll",
        "rent_roll",
        "bid",
        "close_auction",
        "draw_card",
        "claim_rent",
        "use_jail_card",
        "building_auction",
        "trade",
        "bankrupt",
        "adjust",
        "move",
        "accept_trade",
        "decline_trade",
    }
)
MAX_KEY = 200


class FormError(Refusal):
    """A form the pages cannot turn into a command (a typo in an amount, a missing choice)."""

    status = 400
    code = "bad_form"

    def __init__(self, message: str):
        super().__init__(message)


def _text(form: MultiDict, name: str, what: str) -> str:
    value = (form.get(name) or "").strip()
    if not value:
        raise FormError(f"Choose {what} first.")
    return value


def _whole(form: MultiDict, name: str, what: str, default: int | None = None) -> int:
    raw = (form.get(name) or "").strip().replace(",", "")
    if not raw and default is not None:
        return default
    if not raw:
        raise FormError(f"Type {what}.")
    try:
        return int(raw, 10)
    except ValueError:
        raise FormError(f"Type {what} as a whole number of dollars, such as 120.") from None


def _die(form: MultiDict, name: str) -> int:
    raw = form.get(name, "")
    if raw not in {"1", "2", "3", "4", "5", "6"}:
        raise FormError("Tap what each die shows: a number from 1 to 6.")
    return int(raw)


def _side(form: MultiDict, prefix: str, who: str) -> dict:
    return {
        "cash": _whole(form, f"{prefix}_cash", f"the cash {who} hands over", default=0),
        "properties": form.getlist(f"{prefix}_properties"),
        "jail_cards": form.getlist(f"{prefix}_jail_cards"),
    }


def command_from(form: MultiDict) -> dict:
    """The command a submitted form asks for; FormError if it cannot be read."""
    kind = form.get("type", "")
    if kind not in TYPES:
        raise FormError("This form asks for nothing the Banker can record.")
    command: dict = {"type": kind}
    if kind in _PLAYER:
        command["player"] = _text(form, "player", "the player")
    elif kind in _PROPERTY:
        command["property"] = _text(form, "property", "the deed")
    elif kind == "start":
        command["first"] = _text(form, "first", "who won the opening roll")
    elif kind in ("roll", "rent_roll"):
        if kind == "roll":
            command["player"] = _text(form, "player", "the player")
        command["dice"] = [_die(form, "d1"), _die(form, "d2")]
    elif kind == "bid":
        command["player"] = _text(form, "player", "the bidder")
        raise_ = form.get("raise", "typed")
        if raise_ == "typed":
            command["amount"] = _whole(form, "amount", "the bid")
        else:
            command["amount"] = _whole(form, "raise", "the bid")
    elif kind == "close_auction":
        if form.get("property"):
            command["property"] = form["property"]
    elif kind == "draw_card":
        command["deck"] = _text(form, "deck", "the deck")
        command["card"] = _text(form, "card", "the card drawn")
    elif kind in ("accept_trade", "decline_trade"):
        command["offer"] = _text(form, "offer", "the trade offer")
    elif kind == "claim_rent":
        command["claim"] = _text(form, "claim", "the rent claim")
    elif kind == "use_jail_card":
        command["player"] = _text(form, "player", "the player")
        command["deck"] = _text(form, "deck", "the card")
    elif kind == "building_auction":
        command["kind"] = _text(form, "kind", "house or hotel")
    elif kind == "trade":
        command["from"] = _text(form, "from", "the first player")
        command["to"] = _text(form, "to", "the second player")
        command["give"] = _side(form, "give", "the first player")
        command["receive"] = _side(form, "receive", "the second player")
        command["unmortgage"] = form.getlist("unmortgage")
    elif kind == "bankrupt":
        command["player"] = _text(form, "player", "the player")
        if form.getlist("unmortgage"):
            command["unmortgage"] = form.getlist("unmortgage")
    elif kind == "adjust":
        command["player"] = _text(form, "player", "the player")
        amount = _whole(form, "amount", "the amount")
        if form.get("direction") == "take":
            amount = -abs(amount)
        command["amount"] = amount
        command["reason"] = form.get("reason", "")
    elif kind == "move":
        command["player"] = _text(form, "player", "the player")
        position = _whole(form, "position", "the space")
        command["position"] = position
        command["reason"] = form.get("reason", "")
    return command


def expected_version(form: MultiDict) -> int | None:
    """The version the form was rendered at, None when the form does not say."""
    raw = form.get("expected_version", "")
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):  # not "²", nor 4,300 digits
        raise FormError("This form's version is not a number: reload the page and try again.")
    return int(raw)


def idempotency_key(form: MultiDict) -> str | None:
    """The form's one-time key, so that a double tap or a retry applies nothing twice."""
    key = form.get("key") or None
    if key is not None and len(key) > MAX_KEY:
        raise FormError("This form is damaged: reload the page.")
    return key
