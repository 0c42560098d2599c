"""The pure rules core of banker: board data, game state, commands, events, refusals.

Standard library only: no Flask, no SQLite, no clock, no randomness.

    state = new_game(game_id, edition, names, options)      # version 0, status "setup"
    new_state, events = apply(state, command)                 # never mutates `state`
    public_state(state)                                       # the contract's State shape
    replay(game_id, edition, names, options, commands)        # rebuild a state from its log

Every refusal raises DomainError (422) or BadCommand (400) with a sentence for the Banker; a
command's shape is checked first (`schema`), whatever the state.

Modules, each importing only those before it (no cycle): board, errors ← options (every game
option, declared once: OPTIONS, checked_options, options_schema) ← state (lookups,
money, events, gates), schema (command fields) ← holdings (building, mortgages, score), rent
(rent and claims) ← auctions ← jackpot (the Free Parking pot) ← turn (whose turn, rolls,
landing, jail) ← cards; holdings ← trades ← debts; endgame (deadline, score_game, stop),
corrections (adjust, move), seating (rename_player, add_player, leave) ← game (new_game,
apply, undo). permissions (who may send what) and shape (the state's shape, described once:
state_schema(), BOOKKEEPING) sit on game; words (pending in sentences) on endgame and trades.

What the pages may ask (read functions, pure, never raising):
    undo_refusal(state), claim_refusal(state, claim_id), askable_claims(state), claims_wait,
    trade_refusal(state, deal_or_offer), bankruptcy_refusal(state, pid), score(state, pid),
    can_raise(state, pid), phase(state), phase_sentence(state), describe_deal(state, deal),
    pending_in_words(state) (what the table still has to settle, one sentence each);
    a deed's: rent(state, prop), utility_multiplier, owns_set, owned_in_group, building_value,
    set_has_buildings, build_refusal, sell_refusal, mortgage_refusal, unmortgage_refusal,
    building_refusal_anywhere(state, pid, kind); card_holder(state, deck);
    who may send what and see what: player_refusal(state, pid, command), view_for(state, who);
    a changing table: name_refusal(state, name, pid), leave_refusal(state, pid),
    what_leaves(state, pid) (what goes back to the Bank if pid leaves now).
The web layer imports the core from here only (board facts: banker.rules.board).
"""

from .endgame import askable_claims, claims_wait, phase, phase_sentence
from .errors import BadCommand, DomainError, Refusal
from .game import apply, new_game, public_state, replay, undo_refusal, upgrade
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
from .permissions import player_refusal, view_for
from .rent import claim_refusal, owned_in_group, owns_set, rent, utility_multiplier
from .schema import COMMANDS as COMMAND_SCHEMA
from .schema import describe as describe_command
from .seating import leave_refusal, name_refusal, what_leaves
from .shape import BOOKKEEPING, json_nullable, json_object, state_schema
from .trades import describe_deal, trade_refusal
from .turn import card_holder
from .words import pending_in_words

__all__ = [
    "BOOKKEEPING",
    "BadCommand",
    "COMMAND_SCHEMA",
    "DomainError",
    "OPTIONS",
    "Refusal",
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
    "public_state",
    "rent",
    "replay",
    "score",
    "sell_refusal",
    "set_has_buildings",
    "state_schema",
    "trade_refusal",
    "undo_refusal",
    "unmortgage_refusal",
    "upgrade",
    "utility_multiplier",
    "view_for",
    "what_leaves",
]
