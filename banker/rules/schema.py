"""The one table of commands: each command type declared once, with everything about it.

    Command(type, its words (what it records at the table), *its fields,
            handler=   the rule: handler(state, events, command) changes a copy of the state
                       and appends events (in the topic's module: rules/turn.py, holdings.py…),
            players=   a player's token may send it for itself: the check that it is the
                       player's own (rules/senders.py), or
            banker=    only the Banker may: the sentence a player is told,
            targets=   what a button may name now (rules/targets.py; default: the bare command),
            refusal=   where the handler's rule has all its checks before it changes anything:
                       that check alone, refusal(state, command) -> its DomainError or None,
                       which `apply` asks before the handler (rules/game.py, the handler
                       trusting it); rules/actions.py asks it for each button instead
                       of running the handler on a copy of the state (tests/core/test_actions.py
                       holds the two to the same answer))

Its fields (rules/fields.py) read and check a value and describe themselves (a JSON-schema
dict): `read(state, command)` checks a command's shape — types, ranges, unknown player, deed,
deck or card ids, missing fields — and answers it with every field filled in (absent optional
fields get their default). It raises BadCommand (400) and looks at nothing in the state but the
list of player ids, so a malformed command is refused as such whatever the game's state; the
rules (422) are asked only about well-formed ones.

Read by: rules/game.py (`apply` runs the handler), rules/permissions.py (who may send it),
rules/actions.py (every button's targets), banker/web/api/openapi.py (each command's schema and
words), the pages' forms (banker/web/common/forms.py), docs/api.md (held to this table by
tests/project/test_docs.py). A new command: one declaration here, its handler in its topic's
module, its tests, its row in docs/api.md.
"""

from __future__ import annotations

from collections.abc import Callable

from . import (
    auctions,
    cards,
    corrections,
    debts,
    endgame,
    holdings,
    rent,
    seating,
    senders,
    trades,
    turn,
)
from . import targets as t
from .errors import BadCommand
from .fields import (
    MAX_AMOUNT,
    CardId,
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

Targets = Callable[[dict, str], list[dict]]


class Command:
    """One command type, declared once: its words, its fields in reading order, its handler,
    who may send it and what a button may name (see the module's docstring)."""

    def __init__(
        self,
        type_: str,
        description: str,
        *fields: Field,
        handler: Callable,
        players: senders.Check | None = None,
        banker: str | None = None,
        targets: Targets = t.bare,
        forward: bool = True,
        refusal: Callable | None = None,
    ):
        if (players is None) == (banker is None):
            raise ValueError(f"{type_}: say who may send it, players= or banker=, not both")
        if refusal is not None and not forward:  # apply asks it around a forward handler only
            raise ValueError(f"{type_}: a declared refusal= needs a handler that changes a copy")
        self.type, self.description, self.fields = type_, description, fields
        self.names = {f.name for f in fields}
        self.handler, self.players, self.banker_only = handler, players, banker
        self.targets = targets
        # False: the handler makes the new state itself (undo), instead of changing a copy.
        self.forward = forward
        self.refusal = refusal  # the handler's every check: apply asks it before the handler

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
            handler=turn.cmd_start,
            banker="Only the Banker records who starts.",
            targets=t.each("first", t.seated),
        ),
        Command(
            "roll",
            "A roll of the real dice by the player whose turn it is (also a jail attempt).",
            PlayerId("player"),
            Dice("dice"),
            handler=turn.cmd_roll,
            banker="Only the Banker records a roll: the dice are at the table.",
            targets=t.roll,
            refusal=turn.roll_check,
        ),
        Command(
            "buy",
            "The offered player buys at the printed price.",
            handler=turn.cmd_buy,
            players=senders.own_offer,
        ),
        Command(
            "auction",
            "The offered property is declined; its auction opens.",
            handler=auctions.cmd_auction,
            players=senders.own_offer,
        ),
        Command(
            "bid",
            "A bid in the open auction.",
            PlayerId("player", label="the bidder"),
            Whole("amount", 1, MAX_AMOUNT, label="the bid"),
            handler=auctions.cmd_bid,
            players=senders.named_player("player", "You may bid only for yourself."),
            targets=t.bids,
        ),
        Command(
            "close_auction",
            "The highest bidder pays the Bank and takes the item; a building auction names "
            "where the building goes.",
            PropertyId("property", required=False),
            handler=auctions.cmd_close_auction,
            banker="Only the Banker closes an auction.",
            targets=t.close,
        ),
        Command(
            "draw_card",
            "Which card was drawn from the pile the token landed on.",
            Deck("deck"),
            CardId("card"),
            handler=cards.cmd_draw_card,
            banker="Only the Banker records a card drawn: the decks are at the table.",
            targets=t.cards,
        ),
        Command(
            "rent_roll",
            "The fresh roll a utility rent needs.",
            Dice("dice"),
            handler=rent.cmd_rent_roll,
            banker="Only the Banker records the roll for a utility's rent: the dice are at the "
            "table.",
            targets=t.rent_roll,
        ),
        Command(
            "claim_rent",
            "The owner asks for an open rent claim; the payer pays.",
            Text("claim", max_len=40, label="the rent claim"),
            handler=rent.cmd_claim_rent,
            players=senders.own_claim,
            targets=t.claims,
        ),
        Command(
            "pay_jail_fine",
            "Pay 50 at the start of a jailed turn.",
            PlayerId("player"),
            handler=turn.cmd_pay_jail_fine,
            players=senders.named_player("player", "You may pay only your own fine."),
            targets=t.jail_fine,
        ),
        Command(
            "use_jail_card",
            "Use a held Get Out of Jail Free card; it returns to its deck.",
            PlayerId("player"),
            Deck("deck", label="the card"),
            handler=turn.cmd_use_jail_card,
            players=senders.named_player("player", "You may use only your own card."),
            targets=t.jail_cards,
        ),
        Command(
            "build",
            "The owner buys the next building there (a house, or the hotel on four houses).",
            PropertyId("property"),
            handler=holdings.cmd_build,
            players=senders.own_deed,
            targets=t.each("property", t.streets),
            refusal=holdings.deed_refusal,
        ),
        Command(
            "sell_building",
            "The owner sells one building there back to the Bank.",
            PropertyId("property"),
            handler=holdings.cmd_sell_building,
            players=senders.own_deed,
            targets=t.each("property", t.streets),
            refusal=holdings.deed_refusal,
        ),
        Command(
            "building_auction",
            "Several players want the last buildings: auction one.",
            OneOf("kind", ("house", "hotel"), label="house or hotel"),
            handler=auctions.cmd_building_auction,
            banker="Only the Banker opens an auction of the Bank's buildings.",
            targets=t.each("kind", t.building_kinds),
        ),
        Command(
            "mortgage",
            "Mortgage a deed.",
            PropertyId("property"),
            handler=holdings.cmd_mortgage,
            players=senders.own_deed,
            targets=t.each("property", t.owned),
            refusal=holdings.deed_refusal,
        ),
        Command(
            "unmortgage",
            "Lift a deed's mortgage.",
            PropertyId("property"),
            handler=holdings.cmd_unmortgage,
            players=senders.own_deed,
            targets=t.each("property", t.owned),
            refusal=holdings.deed_refusal,
        ),
        Command(
            "trade",
            "An agreed deal; give and receive are seen from `from`.",
            *_trade_fields(),
            handler=trades.cmd_trade,
            banker="Only the Banker records an agreed trade; from your phone, propose it instead.",
            targets=t.deals,
        ),
        Command(
            "propose_trade",
            "A deal offered by `from` to `to`, waiting for `to`'s answer (fields as trade).",
            *_trade_fields(),
            handler=trades.cmd_propose_trade,
            players=senders.named_player(
                "from", "You may propose a trade only from yourself: 'from' must be you."
            ),
            targets=t.deals,
            refusal=trades.propose_refusal,
        ),
        Command(
            "accept_trade",
            "`to` agrees: the offer is carried out exactly as trade.",
            Text("offer", max_len=40, label="the trade offer"),
            handler=trades.cmd_accept_trade,
            players=senders.trade_offer(
                ("to",), "Only the player the offer was made to may accept it."
            ),
            targets=t.offers(("to",)),
        ),
        Command(
            "decline_trade",
            "`to` says no, or `from` withdraws the offer.",
            Text("offer", max_len=40, label="the trade offer"),
            handler=trades.cmd_decline_trade,
            players=senders.trade_offer(
                ("from", "to"), "Only the two sides of an offer may decline or withdraw it."
            ),
            targets=t.offers(("from", "to")),
        ),
        Command(
            "pay_debt",
            "The debtor now has the cash and pays the debt.",
            handler=debts.cmd_pay_debt,
            players=senders.own_debt,
        ),
        Command(
            "bankrupt",
            "The debtor cannot raise the debt: eliminated, assets go to the creditor.",
            PlayerId("player"),
            PropertyList("unmortgage", description="Deeds the creditor lifts at once."),
            handler=debts.cmd_bankrupt,
            banker="Only the Banker records a bankruptcy.",
            targets=t.each("player", t.seated),
        ),
        Command(
            "call_time",
            "Agreed-deadline variation: finish the round, then the game.",
            handler=endgame.cmd_call_time,
            banker="Only the Banker calls time.",
            refusal=endgame.call_time_check,
        ),
        Command(
            "score_game",
            "Agreed deadline, final round over, rent claims still open: score now (they lapse).",
            handler=endgame.cmd_score_game,
            banker="Only the Banker scores the game.",
        ),
        Command(
            "stop",
            "Everyone agrees to stop early: the game ends unfinished, no winner.",
            handler=endgame.cmd_stop,
            banker="Only the Banker records that everyone agreed to stop.",
            refusal=endgame.stop_check,
        ),
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
            handler=corrections.cmd_adjust,
            banker="Only the Banker corrects a player's cash.",
            targets=t.adjusts,
        ),
        Command(
            "move",
            "Put a token where it really stands (no GO money, nothing resolved).",
            PlayerId("player"),
            Whole("position", 0, 39, label="the space"),
            Text("reason", required=False),
            handler=corrections.cmd_move,
            banker="Only the Banker puts a token where it really stands.",
            targets=t.moves,
        ),
        Command(
            "rename_player",
            "A player wants another name shown (the same name rules as at creation).",
            PlayerId("player"),
            Name("name", pair=True),
            handler=seating.cmd_rename_player,
            banker="Only the Banker changes a player's name.",
            targets=t.renames,
            refusal=seating.rename_check,
        ),
        Command(
            "add_player",
            "A latecomer joins the game in progress.",
            Name("name"),
            handler=seating.cmd_add_player,
            banker="Only the Banker seats a latecomer.",
            targets=t.latecomer,
            refusal=seating.latecomer_check,
        ),
        Command(
            "leave",
            "A player leaves the table for good.",
            PlayerId("player"),
            handler=seating.cmd_leave,
            banker="Only the Banker records that a player leaves the table.",
            targets=t.each("player", t.seated),
            refusal=seating.leave_check,
        ),
        Command(
            "undo",
            "Take back the latest command, back to the latest roll.",
            handler=corrections.cmd_undo,
            banker="Only the Banker takes back a command.",
            forward=False,
        ),
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
