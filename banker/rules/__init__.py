"""The pure rules core of banker: board data, game state, commands, events, refusals.

Standard library only: no Flask, no SQLite, no clock, no randomness.

    state = new_game(game_id, edition, names, options)      # version 0, status "setup"
    new_state, events = apply(state, command)                 # never mutates `state`
    public_state(state)                                       # the contract's State shape
    replay(game_id, edition, names, options, commands)        # rebuild a state from its log

Every refusal raises DomainError (422) or BadCommand (400) with a sentence for the Banker.
"""

from .errors import BadCommand, DomainError
from .game import apply, new_game, public_state, replay

__all__ = ["BadCommand", "DomainError", "apply", "new_game", "public_state", "replay"]
