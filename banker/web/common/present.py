"""How the pages say things, written once for the Banker's pages, the players' pages, the
display and the pause page: money, what stands on a deed, where a token stands, a deed's facts
and its rent in words, the players as the strip shows them, seat colors and the CSS classes
that paint them. (What the table still has to settle, in words: banker.rules.pending_in_words.)

Registered on the app (banker.web.app.create_app): `money`, `counted` and `color_class` as Jinja
filters, `money` also as a global (`{{ money(x) }}` and `{{ x | money }}` read the same), and
`standing` (a player's figure at the end, or why they are out).
"""

from __future__ import annotations

from banker.rules import deed_rent, phase, phase_sentence, utility_multiplier
from banker.rules.board import COLOR_GROUPS, DEEDS, GROUP_COLORS, space_name

# A distinct color per seat, twelve of them (readable on light and dark): the six of a full
# table, then six more for latecomers seated after someone left (static/banker.css: c-seat1…
# c-seat12; static/chart.css: seat-0… seat-11, a shade per scheme).
SEAT_COLORS = (
    *("#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f"),
    *("#ad1457", "#6d4c41", "#546e7a", "#5d6b00", "#212121", "#806500"),
)
GROUP_ORDER = (*COLOR_GROUPS, "railroad", "utility")


def money(n: int | None) -> str:
    """Dollars with thousands separators (1,500); a figure not known (private cash) is "—"."""
    return "—" if n is None else f"{n:,}"


def standing(value: int | None, out: str | None = None) -> str:
    """A player's figure at the end, the same on every screen (phones, Banker, big screen,
    story): "Out: bankrupt to Bob" for a player out of the game (the reason in words, never a
    0, "private" or "—"), else the score or net worth, or "private" when private cash hides it."""
    if out:
        return f"Out: {out}"
    return "private" if value is None else money(value)


def final_round_said(state: dict) -> str:
    """The agreed deadline's final round in words while it lasts (time called, or its claims
    waiting), for every screen until the game is scored; "" otherwise."""
    return phase_sentence(state) if phase(state) in ("final_round", "claims_wait") else ""


def counted(n: int, word: str) -> str:
    """A count with its noun: "1 house", "2 houses", "0 hotels" (a Jinja filter too)."""
    return f"{n:,} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def listing(parts: list[str], empty: str = "nothing") -> str:
    """Names as a sentence lists them: "Ann", "Ann and Bob", "Ann, Bob, Cat and Dan"."""
    if not parts:
        return empty
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# How a sentence about a player begins, and how it begins said to them: "Bob must" "You must".
_TO_YOU = (("must", "must"), ("has", "have"), ("does", "do"), ("owes", "owe"), ("can", "can"))
_TO_YOU += (("is", "are"), ("cannot", "cannot"), ("may", "may"), ("draws", "draw"))
_TO_YOU += (("rolls", "roll"), ("answers", "answer"))


def to_you(sentence: str | None, name: str) -> str | None:
    """A sentence about player `name` (the core's, worded for the Banker) as their own phone
    says it to them: "Bob must own every light blue street to build; Vermont Avenue is not
    theirs." becomes "You must own every light blue street to build; Vermont Avenue is not
    yours."; any other sentence is left as it is."""
    if not sentence:
        return sentence
    for verb, said in _TO_YOU:
        if sentence.startswith(f"{name} {verb} "):
            sentence = f"You {said} " + sentence[len(name) + len(verb) + 2 :]
            break
    return sentence.replace(" not theirs.", " not yours.").replace(" not theirs;", " not yours;")


def buildings_text(held: dict) -> str:
    """What stands on a deed ({"houses", "hotel"}): "a hotel", "1 house", "3 houses" or ""."""
    if held["hotel"]:
        return "a hotel"
    if held["houses"]:
        return f"{held['houses']} house{'s' if held['houses'] > 1 else ''}"
    return ""


def where(p: dict) -> str:
    """Where a player's token stands: "In Jail", "Just Visiting" or the space's printed name."""
    return "In Jail" if p["in_jail"] else space_name(p["position"])


def deed_facts(state: dict, prop: str) -> dict:
    """What every picture of a deed starts from (a sheet's row, a board's card): its id, name,
    kind, color set and color, owner, buildings (counted and in words), mortgage."""
    d, st = DEEDS[prop], state["properties"][prop]
    return {
        "id": prop,
        "name": d.name,
        "kind": d.kind,
        "group": d.group,
        "color": GROUP_COLORS[d.group],
        "owner": st["owner"],
        "houses": st["houses"],
        "hotel": st["hotel"],
        "buildings": buildings_text(st),
        "mortgaged": st["mortgaged"],
    }


def rent_text(state: dict, prop: str) -> str:
    """The rent a deed asks now, in words (a sheet's row, a board's card)."""
    d, st = DEEDS[prop], state["properties"][prop]
    if st["owner"] is None:
        return "no owner"
    if st["mortgaged"]:
        return "none while mortgaged"
    if d.kind == "utility":
        return f"{utility_multiplier(state, prop)} × the dice"
    return money(deed_rent(state, prop))


def seat_color(seat: int) -> int:
    """The color of the `seat`-th entry of the players list (from 0), as an index of
    SEAT_COLORS: the CSS classes seat-<it> and c-seat<it + 1>. Every entry keeps its color for
    the whole game; at most six players are in at once, so two of them share a color only if
    twelve others joined between them while the first stayed in."""
    return seat % len(SEAT_COLORS)


def players(state: dict) -> list[dict]:
    """Every player with what the strip shows: cash, space, jail, seat color, turn marker."""
    t = state["turn"]
    out = []
    for seat, p in enumerate(state["players"]):
        at = where(p)
        if p["in_jail"]:
            at += f" · tried {p['jail_attempts']}"
        out.append(
            {
                **p,
                "where": at,
                "color": SEAT_COLORS[seat_color(seat)],
                "initial": p["name"][:1].upper(),
                "is_turn": p["id"] == t["player"],
            }
        )
    return out


def player_names(state: dict) -> dict[str, str]:
    """Each player's name by id."""
    return {p["id"]: p["name"] for p in state["players"]}


def state_player(state: dict, pid: str) -> dict:
    """The player of that id in the state."""
    return next(p for p in state["players"] if p["id"] == pid)


def color_class(color: str | None) -> str:
    """The CSS class that paints a view's hex color (c-brown… in static/site.css, c-seat1… in
    static/banker.css): pages carry classes, never style="…", so the Content-Security-Policy
    can forbid inline styles."""
    if not color:
        return ""
    for group, hex_ in GROUP_COLORS.items():
        if hex_.lower() == color.lower():
            return f"c-{group}"
    for seat, hex_ in enumerate(SEAT_COLORS, 1):
        if hex_.lower() == color.lower():
            return f"c-seat{seat}"
    return "c-none"


def install(app) -> None:
    """Make the filters and globals above known to the app's templates."""
    app.add_template_filter(money)
    app.add_template_filter(counted)
    app.add_template_filter(color_class)
    app.add_template_global(money)
    app.add_template_global(standing)
