"""The pure rules core of banker: board data, game state, commands, events, refusals.

Standard library only: no Flask, no SQLite, no clock, no randomness.

    state = new_game(game_id, edition, names, options)      # version 0, status "setup"
    new_state, events = apply(state, command)                 # never mutates `state`
    public_state(state)                                       # the contract's State shape
    replay(game_id, edition, names, options, commands)        # rebuild a state from its log

Every refusal raises DomainError (422) or BadCommand (400) with a sentence for the Banker; a
command's shape is checked first (`schema`), whatever the state.

Modules, each importing only those before it (no cycle; tests/project/test_structure.py):

    board, errors, names (a player's name: NFC, visible, no look-alikes)
    <- options (every game option, declared once)
    <- state (lookups, money, events, gates, undo's changes)
    <- fields (what a command's field may hold)
    <- the topics, each a command's handlers and its rules: holdings (building, mortgages,
       score), rent (rent and claims) <- auctions <- jackpot (the Free Parking pot) <- turn
       (whose turn, rolls, landing, jail) <- cards; holdings <- trades <- debts; trades <-
       endgame (deadline, score_game, stop), corrections (adjust, move, undo), seating
       (rename_player, add_player, leave)
    <- senders (what a player may send for itself), targets (what a button may name)
    <- schema (THE ONE TABLE OF COMMANDS: each command's words, fields, handler, who may
       send it and its targets, declared together once)
    <- game (new_game, apply: runs the table's handler, upgrade, public_state)
    <- permissions (who may send what, read from the table; who is told what), shape (the
       state's shape, described once: state_schema(), BOOKKEEPING); words (what is pending
       and who must act) on endgame and trades
    <- actions (what a seat may do now: the table's targets tried against apply).

What the pages render from (pure, never raising; `state` is the state as the store keeps it):

    actions(state, seat) -> {command type: {"allowed", "why", "targets": [{"command",
        "allowed", "why", "free"}]}}: what `seat` ("banker", a player id, "display") may send
        now, every button with its targets and, when refused, the sentence why (the very one
        apply or the seat's permission gives; see rules/actions.py); may_send(state, seat,
        type) -> (allowed, why, any target) of a type as a whole, its targets tried until one
        is allowed; allowed(state, seat, type) -> the commands of one type it may send.
    to_act(state) -> {"phase", "phase_sentence", "pending": [item], "now": item | None,
        "then": item | None, "who": [player id], "sentence"}: what is pending, who must act now
        and the heading's sentence; never a roll that will not come (rules/words.py).
        pending_in_words(state): the same as a list of sentences.
    text_for(state, seat, event_or_refusal_or_sentence) -> str: what a seat is told (with
        private_cash no one hears another player's cash in hand; events and refusals carry
        both wordings: `cash_of`, `without_cash`); refusal_for(state, seat, refusal).
    seat_refusal(state, seat, command) / player_refusal(state, pid, command): may this seat
        send it at all (the API's 403); view_for(state, seat): the state it may see.

Other read functions:
    undo_refusal(state), claim_refusal(state, claim_id), askable_claims(state), claims_wait,
    trade_refusal(state, deal_or_offer), bankruptcy_refusal(state, pid), score(state, pid),
    can_raise(state, pid), phase(state), phase_sentence(state), describe_deal(state, deal);
    a deed's: deed_rent(state, prop), utility_multiplier, owns_set, owned_in_group, building_value,
    set_has_buildings, build_refusal, sell_refusal, mortgage_refusal, unmortgage_refusal
    (the deed's own rule only: rules.actions also says when the game forbids it),
    building_refusal_anywhere(state, pid, kind); card_holder(state, deck);
    a changing table: name_refusal(state, name, pid), leave_refusal(state, pid),
    what_leaves(state, pid) (what goes back to the Bank if pid leaves now).
The web layer imports the core from here only (board facts: banker.rules.board).
"""

from .actions import actions, allowed, may_send
from .corrections import undo_refusal
from .endgame import askable_claims, claims_wait, phase, phase_sentence
from .errors import BadCommand, DomainError, Refusal, WithCash
from .game import apply, new_game, public_state, replay, upgrade
from .holdings import (
    bankruptcy_refusal,
    build_refusal,
    building_refusal_anywhere,
    building_value,
    can_raise,
    mortgage_refusal,
    score,
    sell_refusal,
    set_has_buildings,
    unmortgage_refusal,
)
from .options import OPTIONS
from .permissions import player_refusal, refusal_for, seat_refusal, text_for, view_for
from .rent import claim_refusal, deed_rent, owned_in_group, owns_set, utility_multiplier
from .schema import COMMANDS as COMMAND_SCHEMA
from .schema import describe as describe_command
from .seating import leave_refusal, name_refusal, what_leaves
from .shape import BOOKKEEPING, json_nullable, json_object, state_schema
from .trades import describe_deal, trade_refusal
from .turn import card_holder
from .words import pending_in_words, to_act

__all__ = [
    "BOOKKEEPING",
    "BadCommand",
    "COMMAND_SCHEMA",
    "DomainError",
    "OPTIONS",
    "Refusal",
    "actions",
    "may_send",
    "allowed",
    "apply",
    "askable_claims",
    "bankruptcy_refusal",
    "build_refusal",
    "building_refusal_anywhere",
    "building_value",
    "can_raise",
    "card_holder",
    "claim_refusal",
    "claims_wait",
    "describe_command",
    "deed_rent",
    "describe_deal",
    "json_nullable",
    "json_object",
    "leave_refusal",
    "mortgage_refusal",
    "name_refusal",
    "new_game",
    "owned_in_group",
    "owns_set",
    "pending_in_words",
    "phase",
    "phase_sentence",
    "player_refusal",
    "refusal_for",
    "seat_refusal",
    "public_state",
    "replay",
    "score",
    "sell_refusal",
    "set_has_buildings",
    "state_schema",
    "text_for",
    "to_act",
    "trade_refusal",
    "undo_refusal",
    "unmortgage_refusal",
    "upgrade",
    "utility_multiplier",
    "view_for",
    "what_leaves",
    "WithCash",
]
