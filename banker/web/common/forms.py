"""Plain HTML forms into commands: every field a string, checked for shape only.

The rules are the core's: the fields a form reads, their order and their types come from the
core's command schema (`banker.rules.COMMAND_SCHEMA`: the one the OpenAPI document is made
from), so the forms cannot drift from it. This module only turns the form's strings into each
field's JSON type, and refuses a form it cannot read with a sentence (nothing is applied then).

How a form carries a field, by the field's JSON type (`field.schema()`):
- a string (a player, a deed, a deck, a card, a choice, a text): the input of its name; an
  empty required one is "Choose <label> first.", unless the core has its own sentence for
  an empty value (`field.blank`); an empty optional choice is left out, an optional text sent;
- a whole number: typed, with or without thousands' commas ("Type <label>.");
- the dice: the pad's two taps, d1 and d2;
- a list: every checked input of its name;
- a trade side (an object): <name>_cash, <name>_properties, <name>_jail_cards.
Two inputs the Banker's screens add: a bid's quick raise (`raise`, else the typed amount) and a
correction's direction (`direction=take` makes the amount negative).
"""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from banker.rules import COMMAND_SCHEMA, Refusal

# The command types the Banker's forms may send (the players' pages add propose_trade).
TYPES = frozenset(COMMAND_SCHEMA) - {"propose_trade"}
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


_ABSENT = object()


def _value(form: MultiDict, field, name: str):
    """One field's value from the form's input `name`, by the field's JSON type."""
    shape = field.schema()
    if shape["type"] == "integer":
        return _whole(form, name, field.label)
    if shape["type"] == "array" and shape["items"]["type"] == "integer":
        return [_die(form, "d1"), _die(form, "d2")]
    if shape["type"] == "array":
        return form.getlist(name)
    if shape["type"] == "object":
        parts = shape["properties"]
        return {
            part: _whole(form, f"{name}_{part}", field.label, default=0)
            if parts[part]["type"] == "integer"
            else form.getlist(f"{name}_{part}")
            for part in parts
        }
    if field.blank or not field.required:  # a text the core checks itself, or a choice
        value = form.get(name, "")
        return _ABSENT if not value and "enum" in shape else value
    return _text(form, name, field.label)


def _input(form: MultiDict, kind: str, name: str) -> str:
    """The input that carries field `name`: its own, but a bid's quick raise button's."""
    if (kind, name) == ("bid", "amount") and form.get("raise", "typed") != "typed":
        return "raise"
    return name


def inputs(kind: str) -> dict[str, str]:
    """The form inputs that carry command `kind`'s fields: {input name: field name}."""
    found = {}
    for field in COMMAND_SCHEMA[kind].fields:
        shape = field.schema()
        if shape["type"] == "array" and shape["items"]["type"] == "integer":
            names = ["d1", "d2"]
        elif shape["type"] == "object":
            names = [f"{field.name}_{part}" for part in shape["properties"]]
        else:
            names = [field.name]
        found.update(dict.fromkeys(names, field.name))
    found.update(_EXTRA.get(kind, {}))
    return found


_EXTRA = {"bid": {"raise": "amount"}, "adjust": {"direction": "amount"}}


def command_from(form: MultiDict, types: frozenset[str] = TYPES) -> dict:
    """The command a submitted form asks for (one of `types`); FormError if it cannot be read."""
    kind = form.get("type", "")
    if kind not in types:
        raise FormError("This form asks for nothing the Banker can record.")
    command: dict = {"type": kind}
    for field in COMMAND_SCHEMA[kind].fields:  # in order: the first one missing is told
        value = _value(form, field, _input(form, kind, field.name))
        if value is not _ABSENT:
            command[field.name] = value
    if kind == "adjust" and form.get("direction") == "take":
        command["amount"] = -abs(command["amount"])
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
