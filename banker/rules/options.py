"""Every option a game may be created with, declared once, as `schema.COMMANDS` is for commands.

Each `Option` says its name, type, default, the editions that offer it, the Start form's label
and help text, where the form shows it (`group`) and whether it is a house rule, one not in the
rule books. The table drives what reads or describes options: `checked_options` (new_game: a
created game's and a resumed snapshot's), `options_schema` (the OpenAPI document, the state's
and the snapshot's shapes), the Start form (banker/web/table/home.py and
templates/table/_new_game.html) and docs/api.md (whose table a test holds to this one).

A new option is one `Option` below plus its rule (a test that the rule does what it says).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BadCommand, DomainError

EDITIONS = ("g0009", "classic")
# Where the Start form shows an option, in this order, and the heading of each part.
GROUPS = {
    "phones": "Players’ phones",
    "variations": "Variations (G0009 only)",
    "house_rules": "House rules (not in the rule books)",
}


@dataclass(frozen=True)
class Option:
    """One option: a switch, on or off for the whole game."""

    name: str
    label: str  # the Start form's switch, in bold
    help: str  # one sentence under the switch; the OpenAPI document's description too
    group: str  # one of GROUPS
    default: bool = False  # in the editions that offer it; off in every other
    editions: tuple[str, ...] = EDITIONS  # switching it on in another edition is refused
    house_rule: bool = False  # not in the rule books: the table's own custom
    type: str = "boolean"

    def default_in(self, edition: str) -> bool:
        """Its value in `edition` when the game is created without it."""
        return self.default and edition in self.editions

    def schema(self) -> dict:
        """Its JSON schema (OpenAPI 3.0): a boolean with its default, in words where the
        editions differ."""
        defaults = {e: self.default_in(e) for e in EDITIONS}
        out: dict = {"type": self.type, "description": f"{self.label}: {self.help}"}
        if len(set(defaults.values())) == 1:
            out["default"] = self.default
        else:
            said = ", ".join(f"{str(v).lower()} in {e}" for e, v in defaults.items())
            out["description"] += f" Default: {said}."
        if self.editions != EDITIONS:
            out["description"] += (
                f" Only in {' and '.join(self.editions)}: true is refused in any other edition "
                "(not_in_edition)."
            )
        if self.house_rule:
            out["description"] += " A house rule, not in the rule books."
        return out


_OPTIONS = (
    Option(
        "auction_all",
        "Auction every purchase",
        "A property landed on is never bought at its price: it is always auctioned.",
        "variations",
        editions=("g0009",),
    ),
    Option(
        "deadline",
        "Agreed deadline",
        "When time is called, the round finishes and the richest player wins.",
        "variations",
        editions=("g0009",),
    ),
    Option(
        "teams",
        "Two partnerships",
        "Exactly four names: the first two play as one team, the last two as the other.",
        "variations",
        editions=("g0009",),
    ),
    Option(
        "hotel_shortage_ruling",
        "Hotel-shortage ruling",
        "A hotel may be sold when the Bank lacks four houses: its whole set is sold down.",
        "variations",
        default=True,
        editions=("g0009",),
    ),
    Option(
        "players_act",
        "Players act from their own phones",
        "Each player buys, bids, builds, mortgages, pays and offers trades from their phone; "
        "the Banker keeps the dice, the cards and the last word.",
        "phones",
        default=True,
    ),
    Option(
        "private_cash",
        "Keep cash private",
        "Each player’s phone (and a big screen) shows only their own cash; the Banker sees "
        "everyone’s.",
        "phones",
    ),
    Option(
        "free_parking_jackpot",
        "Free Parking jackpot (house rule)",
        "Not in the rule book: taxes, card payments to the Bank and the 50 to leave Jail go into "
        "a pot; whoever lands on Free Parking by a roll takes it all. Off unless you choose it.",
        "house_rules",
        house_rule=True,
    ),
)
OPTIONS: dict[str, Option] = {o.name: o for o in _OPTIONS}

NOT_IN_EDITION = (
    "The {edition} edition offers no house variations or hotel-shortage ruling ({names}); "
    "they belong to {editions}."
)


def defaults(edition: str) -> dict[str, bool]:
    """Every option at its default in `edition`: a game created without options, and what a
    game stored before an option was declared is read with (banker.rules.game.upgrade)."""
    return {name: o.default_in(edition) for name, o in OPTIONS.items()}


def checked_options(edition: str, given) -> dict[str, bool]:
    """Every option's value for a new game in `edition`: those `given` (an object of option
    names to true or false, or None), the others at their defaults. BadCommand (400) for a
    malformed one, DomainError (422) for one switched on that this edition does not offer."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise BadCommand("'options' must be an object.", "wrong_type")
    for k, v in given.items():
        if k not in OPTIONS:
            raise BadCommand(f"There is no option '{str(k)[:40]}'.", "unknown_option")
        if not isinstance(v, bool):
            raise BadCommand(f"Option '{k}' must be true or false.", "wrong_type")
    values = {**defaults(edition), **given}
    asked = [name for name, o in OPTIONS.items() if values[name] and edition not in o.editions]
    if asked:
        elsewhere = sorted({e for name in asked for e in OPTIONS[name].editions})
        raise DomainError(
            NOT_IN_EDITION.format(
                edition=edition, names=", ".join(asked), editions=" and ".join(elsewhere)
            ),
            "not_in_edition",
        )
    return values


def options_schema(description: str, nullable: bool = False, required: bool = False) -> dict:
    """The JSON schema of an options object: each declared option, no other field; `required`:
    every one present (a state's), else each optional (what creates a game)."""
    out = {
        "type": "object",
        "properties": {name: o.schema() for name, o in OPTIONS.items()},
        "additionalProperties": False,
        "description": description,
    }
    if required:
        out["required"] = list(OPTIONS)
    if nullable:
        out["nullable"] = True
    return out


def form_groups() -> list[dict]:
    """The Start form's parts: [{"title", "options": [Option…]}], each part's options in the
    order declared, parts without any left out."""
    groups = [
        {"title": title, "options": [o for o in _OPTIONS if o.group == key]}
        for key, title in GROUPS.items()
    ]
    return [g for g in groups if g["options"]]
