"""Board, deed and card data of the US G0009 edition, loaded once from the packaged reference."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources

STARTING_CASH = 1500
GO_SALARY = 200
JAIL_FINE = 50
JAIL = 10
GO_TO_JAIL = 30
HOUSES = 32
HOTELS = 12
DECKS = ("chance", "community_chest")
DECK_NAMES = {"chance": "Chance", "community_chest": "Community Chest"}


@dataclass(frozen=True)
class Deed:
    """A title deed: a street, a railroad or a utility."""

    id: str
    index: int
    name: str
    kind: str  # "street" | "railroad" | "utility"
    price: int
    mortgage_value: int
    unmortgage_value: int
    group: str  # color group, "railroad" or "utility"
    rents: tuple = ()  # streets: base, color set, 1..4 houses, hotel; railroads: 1..4 owned
    house_cost: int = 0
    hotel_cost: int = 0

    def lift_cost(self, edition: str) -> int:
        """What lifting the mortgage costs in that edition."""
        if edition == "g0009":
            return self.unmortgage_value
        return self.mortgage_value + ten_percent(self.mortgage_value)


@dataclass(frozen=True)
class Space:
    index: int
    name: str
    kind: str
    amount: int = 0  # taxes
    deed: str | None = None


@dataclass(frozen=True)
class Card:
    deck: str
    id: str
    text: str
    effect: dict


def ten_percent(amount: int) -> int:
    """10% of an amount, rounded up to whole dollars."""
    return math.ceil(amount / 10)


def _load() -> dict:
    return json.loads(resources.files("banker.rules").joinpath("g0009.json").read_text("utf-8"))


REFERENCE = _load()


def _build():
    spaces, deeds = [], {}
    for raw in REFERENCE["board"]:
        kind = raw["type"]
        if kind in ("street", "railroad", "utility"):
            if kind == "street":
                r = raw["rent"]
                rents = (
                    r["base"],
                    r["color_set"],
                    r["house_1"],
                    r["house_2"],
                    r["house_3"],
                    r["house_4"],
                    r["hotel"],
                )
                group = raw["color_group"]
            elif kind == "railroad":
                rents = tuple(raw["rent_by_railroads_owned"][str(n)] for n in range(1, 5))
                group = "railroad"
            else:
                rents = tuple(
                    raw["rent_dice_multiplier_by_utilities_owned"][str(n)] for n in (1, 2)
                )
                group = "utility"
            deed = Deed(
                id=raw["id"],
                index=raw["index"],
                name=raw["name"],
                kind=kind,
                price=raw["price"],
                mortgage_value=raw["mortgage_value"],
                unmortgage_value=raw["unmortgage_value"],
                group=group,
                rents=rents,
                house_cost=raw.get("house_cost", 0),
                hotel_cost=raw.get("hotel_cost", 0),
            )
            deeds[deed.id] = deed
            spaces.append(Space(raw["index"], raw["name"], kind, deed=deed.id))
        else:
            spaces.append(Space(raw["index"], raw["name"], kind, amount=raw.get("amount", 0)))
    return tuple(spaces), deeds


SPACES, DEEDS = _build()
DEED_IDS = tuple(DEEDS)  # board order
GROUPS: dict[str, tuple[str, ...]] = {}
for _d in DEEDS.values():
    GROUPS.setdefault(_d.group, ())
    GROUPS[_d.group] += (_d.id,)
COLOR_GROUPS = tuple(g for g in GROUPS if g not in ("railroad", "utility"))
RAILROADS = GROUPS["railroad"]
UTILITIES = GROUPS["utility"]
# The sets as the pages name them, and their printed colors (readable on light and dark).
GROUP_NAMES = {
    "brown": "Brown",
    "light_blue": "Light blue",
    "pink": "Pink",
    "orange": "Orange",
    "red": "Red",
    "yellow": "Yellow",
    "green": "Green",
    "dark_blue": "Dark blue",
    "railroad": "Railroads",
    "utility": "Utilities",
}
GROUP_COLORS = {
    "brown": "#8b4a2b",
    "light_blue": "#9fd8f5",
    "pink": "#d6368f",
    "orange": "#f39019",
    "red": "#e11d26",
    "yellow": "#f5e50a",
    "green": "#16a34a",
    "dark_blue": "#1565c0",
    "railroad": "#3f3f46",
    "utility": "#a1a1aa",
}

CARDS: dict[str, dict[str, Card]] = {
    deck: {c["id"]: Card(deck, c["id"], c["text"], c["effect"]) for c in REFERENCE["cards"][deck]}
    for deck in DECKS
}
JAIL_CARD = "get-out-of-jail-free"


def space_name(index: int) -> str:
    """The space's name as printed, with Jail read as Just Visiting for a landing."""
    if index == JAIL:
        return "Just Visiting"
    return SPACES[index].name
