"""The fields a command may carry, each able to read and check a value and to describe itself
(a JSON-schema dict): whole numbers, text, names, player ids, deeds, decks, cards, dice, one of
a few words, lists of deeds and a trade's sides. `schema.py` builds every command from them.
"""

from __future__ import annotations

from .board import CARDS, DECK_NAMES, DECKS, DEED_IDS
from .errors import BadCommand
from .names import player_names
from .state import clone

MAX_AMOUNT = 1_000_000  # the bound on any amount in a command


class Field:
    """One field of a command. Subclasses check a value (`check`) and describe it: `schema()`
    (JSON schema), `label` (how a sentence asking for it names it: "Choose the deed first.")."""

    LABEL = ""  # the label of a field of this kind unless the command names it otherwise
    blank = ""  # the core's own sentence refusing an empty value (then a form sends it as is)

    def __init__(
        self,
        name: str,
        required: bool = True,
        default=None,
        description: str = "",
        label: str = "",
    ):
        self.name = name
        self.required = required
        self.default = default  # the value of an absent optional field (copied each time)
        self.description = description
        self.label = label or self.LABEL or f"the {name.replace('_', ' ')}"

    def read(self, state: dict, c: dict):
        if self.name not in c:
            if self.required:
                raise BadCommand(f"The command needs the field '{self.name}'.", "missing_field")
            return clone(self.default)
        return self.check(state, c[self.name], c)

    def check(self, state: dict, value, c: dict):  # pragma: no cover - abstract
        raise NotImplementedError

    def schema(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> dict:
        d = self.schema()
        if self.description:
            d["description"] = self.description
        return d


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Whole(Field):
    """A whole number between lo and hi (0 refused when `nonzero` gives the sentence)."""

    def __init__(self, name: str, lo: int, hi: int, nonzero: str = "", **kw):
        super().__init__(name, **kw)
        self.lo, self.hi, self.nonzero = lo, hi, nonzero

    def check(self, state, value, c):
        if not _is_int(value):
            raise BadCommand(f"'{self.name}' must be a whole number.", "wrong_type")
        if not self.lo <= value <= self.hi:
            raise BadCommand(
                f"'{self.name}' must be between {self.lo} and {self.hi}.", "out_of_range"
            )
        if self.nonzero and value == 0:
            raise BadCommand(self.nonzero, "out_of_range")
        return value

    def schema(self):
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}


class Text(Field):
    """A string of at most max_len characters; `blank` is the sentence refusing an empty one
    (surrounding spaces trimmed), and then the trimmed string is the value."""

    def __init__(self, name: str, max_len: int = 200, blank: str = "", **kw):
        super().__init__(name, **kw)
        self.max_len, self.blank = max_len, blank

    def check(self, state, value, c):
        if not isinstance(value, str):
            raise BadCommand(f"'{self.name}' must be a string.", "wrong_type")
        if len(value) > self.max_len:
            raise BadCommand(
                f"'{self.name}' is longer than {self.max_len} characters.", "out_of_range"
            )
        if self.blank:
            value = value.strip()
            if not value:
                raise BadCommand(self.blank, "missing_field")
        return value

    def schema(self):
        return {"type": "string", "maxLength": self.max_len}


class PlayerId(Field):
    """The id of one of this game's players (eliminated ones too: that is the rules' 422)."""

    LABEL = "the player"

    def check(self, state, value, c):
        if not isinstance(value, str):
            raise BadCommand(f"'{self.name}' must be a player id such as \"p1\".", "wrong_type")
        if value not in {p["id"] for p in state["players"]}:
            raise BadCommand(f"There is no player '{value[:40]}' in this game.", "unknown_player")
        return value

    def schema(self):
        return {
            "type": "string",
            "pattern": "^p[1-9][0-9]*$",
            "description": "A player id: p1, p2… in the order they joined (a latecomer's is the "
            "next number, never reused).",
            "example": "p1",
        }


class Name(Text):
    """A player's name by the creation's rules (rules/names.py); with partnerships (`pair`), the
    two partners' names joined by " & ". That no other player has it is the rules' 422."""

    def __init__(self, name: str, pair: bool = False, **kw):
        super().__init__(name, max_len=100, **kw)
        self.pair = pair

    def check(self, state, value, c):
        text = super().check(state, value, c)
        parts = text.split("&") if (teams := self.pair and state["options"]["teams"]) else [text]
        if teams and len(parts) != 2:
            raise BadCommand(
                "A partnership's name is its two partners' names joined by \" & \", such as "
                '"Ann & Bob".',
                "wrong_value",
            )
        return " & ".join(player_names(parts))

    def schema(self):
        return {
            **super().schema(),
            "description": "1 to 30 characters once trimmed, unlike every other player's name "
            '(with partnerships: the two partners\' names joined by " & ").',
            "example": "Dan",
        }


def check_property(name: str, value) -> str:
    if not isinstance(value, str):
        raise BadCommand(f"'{name}' must be a property id such as \"boardwalk\".", "wrong_type")
    if value not in DEED_IDS:
        raise BadCommand(f"There is no property '{value[:40]}'.", "unknown_property")
    return value


PROPERTY_SCHEMA = {"type": "string", "enum": list(DEED_IDS)}
DECK_SCHEMA = {"type": "string", "enum": list(DECKS)}


class PropertyId(Field):
    LABEL = "the deed"

    def check(self, state, value, c):
        return check_property(self.name, value)

    def schema(self):
        return dict(PROPERTY_SCHEMA)


def check_deck(name: str, value, message: str = "") -> str:
    if value not in DECKS:
        raise BadCommand(
            message or f'\'{name}\' must be "chance" or "community_chest".', "unknown_deck"
        )
    return value


class Deck(Field):
    def check(self, state, value, c):
        return check_deck(self.name, value)

    def schema(self):
        return dict(DECK_SCHEMA)


class CardId(Field):
    """A card id of the deck named by the command's `deck` (read before it)."""

    LABEL = "the card drawn"

    def check(self, state, value, c):
        deck = c["deck"]
        if not isinstance(value, str) or value not in CARDS[deck]:
            raise BadCommand(
                f"There is no card '{str(value)[:60]}' in {DECK_NAMES[deck]}.", "unknown_card"
            )
        return value

    def schema(self):
        return {"type": "string", "enum": sorted({i for deck in CARDS.values() for i in deck})}


class Dice(Field):
    def check(self, state, value, c):
        if not isinstance(value, list) or len(value) != 2:
            raise BadCommand("'dice' must be a list of two dice, such as [3, 4].", "wrong_type")
        for d in value:
            if not _is_int(d):
                raise BadCommand("Each die must be a whole number from 1 to 6.", "wrong_type")
            if not 1 <= d <= 6:
                raise BadCommand("Each die shows a number from 1 to 6.", "out_of_range")
        return list(value)

    def schema(self):
        die = {"type": "integer", "minimum": 1, "maximum": 6}
        return {"type": "array", "items": die, "minItems": 2, "maxItems": 2, "example": [3, 4]}


class OneOf(Field):
    def __init__(self, name: str, values: tuple, **kw):
        super().__init__(name, **kw)
        self.values = values

    def check(self, state, value, c):
        if value not in self.values:
            words = " or ".join(f'"{v}"' for v in self.values)
            raise BadCommand(f"'{self.name}' must be {words}.", "wrong_value")
        return value

    def schema(self):
        return {"type": "string", "enum": list(self.values)}


def check_list(value, where: str, check_item) -> list:
    if not isinstance(value, list):
        raise BadCommand(f"'{where}' must be a list.", "wrong_type")
    out = [check_item(x) for x in value]
    if len(set(out)) != len(out):
        raise BadCommand(f"'{where}' names the same item twice.", "wrong_value")
    return out


class PropertyList(Field):
    """A list of distinct property ids (default: none)."""

    def __init__(self, name: str, **kw):
        super().__init__(name, required=False, default=[], **kw)

    def check(self, state, value, c):
        return check_list(value, self.name, lambda x: check_property(self.name, x))

    def schema(self):
        return {"type": "array", "items": dict(PROPERTY_SCHEMA), "uniqueItems": True}


NOTHING = {"cash": 0, "properties": [], "jail_cards": []}


class TradeSide(Field):
    """What one side of a trade hands over: {"cash", "properties", "jail_cards"} (its label
    names its cash, the one part a person types)."""

    def __init__(self, name: str, **kw):
        super().__init__(name, required=False, default=NOTHING, **kw)

    def check(self, state, value, c):
        key = self.name
        if not isinstance(value, dict):
            raise BadCommand(
                f"'{key}' must be an object with cash, properties and jail_cards.", "wrong_type"
            )
        unknown = set(value) - set(NOTHING)
        if unknown:
            raise BadCommand(
                f"'{key}' has an unknown field '{sorted(map(str, unknown))[0][:40]}'.",
                "unknown_field",
            )
        cash = Whole("cash", 0, MAX_AMOUNT).check(state, value.get("cash", 0), value)
        where = f"{key}.properties"
        props = check_list(value.get("properties", []), where, lambda x: check_property(where, x))
        where = f"{key}.jail_cards"
        message = f'\'{where}\' holds decks: "chance" or "community_chest".'
        cards = check_list(
            value.get("jail_cards", []), where, lambda x: check_deck(where, x, message)
        )
        return {"cash": cash, "properties": props, "jail_cards": cards}

    def schema(self):
        return {
            "type": "object",
            "properties": {
                "cash": {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT},
                "properties": {
                    "type": "array",
                    "items": dict(PROPERTY_SCHEMA),
                    "uniqueItems": True,
                },
                "jail_cards": {"type": "array", "items": dict(DECK_SCHEMA), "uniqueItems": True},
            },
            "description": "What one side of a trade hands over; every field defaults to nothing.",
            "additionalProperties": False,
        }
