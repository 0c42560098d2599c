"""The one command schema: for each command type its fields (rules/fields.py), each able to read
and check a value and to describe itself (a JSON-schema dict, from which
banker/web/api/openapi.py builds each command's schema, so the document and the core cannot
drift).

`read(state, command)` checks a command's shape — types, ranges, unknown player, deed, deck or
card ids, missing fields — and answers it with every field filled in (absent optional fields
get their default). It raises BadCommand (400) and looks at nothing in the state but the list of
player ids, so a malformed command is refused as such whatever the game's state; the rules
(422) are asked only about well-formed ones.
"""

from __future__ import annotations

from .errors import BadCommand
from .fields import (
    MAX_AMOUNT,
    Card,
    Deck,
    Dice,
    Field,
    Name,
    OneOf,
    PlayerId,
    PropertyId,
    PropertyList,
    Text,
    TradeSide,
    Whole,
)


class Command:
    """One command type: what it records at the table, and its fields in reading order."""

    def __init__(self, type_: str, description: str, *fields: Field):
        self.type, self.description, self.fields = type_, description, fields
        self.names = {f.name for f in fields}

    def read(self, state: dict, c: dict) -> dict:
        unknown = sorted(str(k) for k in c if k != "type" and k not in self.names)
        if unknown:  # nothing is stored that the command does not have (a row stays small)
            raise BadCommand(
                f"The command '{self.type}' has no field '{unknown[0][:40]}'.", "unknown_field"
            )
        out = {"type": self.type}
        for f in self.fields:
            out[f.name] = f.read(state, {**c, **out})
        return out

    def describe(self) -> dict:
        return {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": [self.type]},
                **{f.name: f.describe() for f in self.fields},
            },
            "required": ["type", *(f.name for f in self.fields if f.required)],
            "additionalProperties": False,  # 400 unknown_field (the API adds expected_version)
            "description": self.description,
        }


def _trade_fields() -> tuple[Field, ...]:
    return (
        PlayerId("from", label="the first player"),
        PlayerId("to", label="the second player"),
        TradeSide("give", label="the cash the first player hands over"),
        TradeSide("receive", label="the cash the second player hands over"),
        PropertyList("unmortgage", description="Received mortgaged deeds lifted at once."),
    )


COMMANDS: dict[str, Command] = {
    c.type: c
    for c in (
        Command(
            "start",
            "After the opening rolls, who starts.",
            PlayerId("first", label="who won the opening roll"),
        ),
        Command(
            "roll",
            "A roll of the real dice by the player whose turn it is (also a jail attempt).",
            PlayerId("player"),
            Dice("dice"),
        ),
        Command("buy", "The offered player buys at the printed price."),
        Command("auction", "The offered property is declined; its auction opens."),
        Command(
            "bid",
            "A bid in the open auction.",
            PlayerId("player", label="the bidder"),
            Whole("amount", 1, MAX_AMOUNT, label="the bid"),
        ),
        Command(
            "close_auction",
            "The highest bidder pays the Bank and takes the item; a building auction names "
            "where the building goes.",
            PropertyId("property", required=False),
        ),
        Command(
            "draw_card",
            "Which card was drawn from the pile the token landed on.",
            Deck("deck"),
            Card("card"),
        ),
        Command("rent_roll", "The fresh roll a utility rent needs.", Dice("dice")),
        Command(
            "claim_rent",
            "The owner asks for an open rent claim; the payer pays.",
            Text("claim", max_len=40, label="the rent claim"),
        ),
        Command("pay_jail_fine", "Pay 50 at the start of a jailed turn.", PlayerId("player")),
        Command(
            "use_jail_card",
            "Use a held Get Out of Jail Free card; it returns to its deck.",
            PlayerId("player"),
            Deck("deck", label="the card"),
        ),
        Command(
            "build",
            "The owner buys the next building there (a house, or the hotel on four houses).",
            PropertyId("property"),
        ),
        Command(
            "sell_building",
            "The owner sells one building there back to the Bank.",
            PropertyId("property"),
        ),
        Command(
            "building_auction",
            "Several players want the last buildings: auction one.",
            OneOf("kind", ("house", "hotel"), label="house or hotel"),
        ),
        Command("mortgage", "Mortgage a deed.", PropertyId("property")),
        Command("unmortgage", "Lift a deed's mortgage.", PropertyId("property")),
        Command(
            "trade", "An agreed deal; give and receive are seen from `from`.", *_trade_fields()
        ),
        Command(
            "propose_trade",
            "A deal offered by `from` to `to`, waiting for `to`'s answer (fields as trade).",
            *_trade_fields(),
        ),
        Command(
            "accept_trade",
            "`to` agrees: the offer is carried out exactly as trade.",
            Text("offer", max_len=40, label="the trade offer"),
        ),
        Command(
            "decline_trade",
            "`to` says no, or `from` withdraws the offer.",
            Text("offer", max_len=40, label="the trade offer"),
        ),
        Command("pay_debt", "The debtor now has the cash and pays the debt."),
        Command(
            "bankrupt",
            "The debtor cannot raise the debt: eliminated, assets go to the creditor.",
            PlayerId("player"),
            PropertyList("unmortgage", description="Deeds the creditor lifts at once."),
        ),
        Command("call_time", "Agreed-deadline variation: finish the round, then the game."),
        Command(
            "score_game",
            "Agreed deadline, final round over, rent claims still open: score now (they lapse).",
        ),
        Command("stop", "Everyone agrees to stop early: the game ends unfinished, no winner."),
        Command(
            "adjust",
            "A Banker's correction of a mistake found later.",
            PlayerId("player"),
            Whole(
                "amount",
                -MAX_AMOUNT,
                MAX_AMOUNT,
                nonzero="A correction of 0 changes nothing.",
                description="Not 0; may not make the player's cash negative.",
            ),
            Text(
                "reason",
                blank="Give a reason for the correction.",
                description="Required: not empty once surrounding spaces are trimmed.",
            ),
        ),
        Command(
            "move",
            "Put a token where it really stands (no GO money, nothing resolved).",
            PlayerId("player"),
            Whole("position", 0, 39, label="the space"),
            Text("reason", required=False),
        ),
        Command(
            "rename_player",
            "A player wants another name shown (the same name rules as at creation).",
            PlayerId("player"),
            Name("name", pair=True),
        ),
        Command("add_player", "A latecomer joins the game in progress.", Name("name")),
        Command("leave", "A player leaves the table for good.", PlayerId("player")),
        Command("undo", "Take back the latest command, back to the latest roll."),
    )
}


def read(state: dict, command) -> dict:
    """The command checked for shape and with its defaults filled in (BadCommand otherwise)."""
    if not isinstance(command, dict):
        raise BadCommand("A command is a JSON object with a 'type'.", "wrong_type")
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise BadCommand(f"Unknown command type '{str(kind)[:40]}'.", "unknown_command")
    return COMMANDS[kind].read(state, command)


def describe(kind: str) -> dict:
    """The JSON schema of one command type (OpenAPI 3.0 flavour)."""
    return COMMANDS[kind].describe()
