"""What may this seat do now? One answer, for every page's buttons and for the API's checks.

`actions(state, seat)`, `seat` being "banker", a player id or "display", gives for every command
type what that seat may send now:

    {"build": {"allowed": True, "why": None, "targets": [Target, …]}, "roll": {…}, …}

    Target = {"command": {…},  a whole command, ready to send (its free fields hold a value
                               that is accepted when the target is allowed),
              "allowed": bool,
              "why": str | None,  the sentence refusing it, as this seat is told it (a
                                  permission's, or the rules': the very one `apply` gives),
              "free": {field: {"min": a, "max": b}, …}}  what a person types: the dice
                                  (each 1–6), a bid's amount (from the next legal bid to the
                                  bidder's cash), a correction's amount (not 0, never below
                                  minus the player's cash) and reason, a token's space

A command type is `allowed` when one of its targets is; its `why` is then None, else the
sentence its targets share (or the first one's). The targets are what a page offers a button
for: the seat's own deeds (all owned deeds for the Banker), each open claim and trade offer, each
bidder, each card of the pile to draw from, each partner to trade with (with the smallest deal
that could change hands: the page composes the real one), the dice's roller, and so on. A seat's
own permission comes first (`permissions.seat_refusal`, the API's own check), then the rules:
each target is tried with `apply`'s own steps on a copy thrown away (`game.attempt`; the state
is never changed), or, for a command whose handler checks everything before it changes
anything (rules/schema.py's `refusal=`: a roll, a deed's build, sale, mortgage and lifting, a
trade offer, a rename, a latecomer, a leave, time called, a stop), with the very checks `apply`
makes (`game.gate_refusal`, then that check)
— so what this function allows is exactly what `apply` accepts and what it refuses is refused
with the same sentence. The display may send nothing: each command type is one refused target
for it.

A command's targets are declared with it (rules/schema.py's `targets=`, made in
rules/targets.py); without, it is offered as one bare command.
"""

from __future__ import annotations

from .errors import Refusal
from .game import attempt, gate_refusal, upgrade
from .permissions import DISPLAY_READ_ONLY, seat_refusal, text_for
from .schema import COMMANDS
from .schema import read as read_command


def _rules_refusal(s: dict, command: dict) -> Refusal | None:
    """What `apply` says of a well-formed command: its refusal, or None when it accepts it;
    without its traceback (held by the frames that ask, it tied them, and the states in them,
    into a reference cycle only the garbage collector frees: at every change of a live page)."""
    declared = COMMANDS[command["type"]].refusal
    if declared is not None:  # the handler's own checks, without a copy
        c = read_command(s, command)
        found = gate_refusal(s, c) or declared(s, c)
        return None if found is None else found.with_traceback(None)
    try:
        attempt(s, command)  # apply's own steps, on a copy thrown away
    except Refusal as e:
        return e.with_traceback(None)
    return None


def _tried(s: dict, seat: str, kind: str, target: dict) -> dict:
    command = {"type": kind, **target["command"]}
    why = seat_refusal(s, seat, command)
    if why is None:
        refusal = _rules_refusal(s, command)
        why = None if refusal is None else text_for(s, seat, refusal)
    return {**target, "command": command, "allowed": why is None, "why": why}


def actions(s: dict, seat: str, kinds=None) -> dict[str, dict]:
    """For each command type (or each of `kinds`), what `seat` may send now (see the module's
    docstring). `s` is the game's state as the core keeps it (`Store.state`, not a view)."""
    s = upgrade(s)
    out = {}
    for kind in kinds or COMMANDS:
        if seat == "display":  # it may send nothing: one refused target says so
            target = {"command": {"type": kind}, "free": {}, "allowed": False}
            out[kind] = {"allowed": False, "why": DISPLAY_READ_ONLY, "targets": [target]}
            out[kind]["targets"][0]["why"] = DISPLAY_READ_ONLY
            continue
        made = COMMANDS[kind].targets(s, seat)
        targets = [_tried(s, seat, kind, t) for t in made]
        allowed = any(t["allowed"] for t in targets)
        whys = [t["why"] for t in targets if t["why"]]
        why = None if allowed or not whys else whys[0]
        out[kind] = {"allowed": allowed, "why": why, "targets": targets}
    return out


def may_send(s: dict, seat: str, kind: str) -> tuple[bool, str | None, bool]:
    """What `actions(s, seat, [kind])[kind]` says of the type as a whole, its targets tried one
    by one only until one is allowed (a page asking "may this seat offer a trade at all?" needs
    no more): (allowed, why, whether it has any target)."""
    s = upgrade(s)
    if seat == "display":
        return False, DISPLAY_READ_ONLY, True
    first_why, any_target = None, False
    for target in COMMANDS[kind].targets(s, seat):
        any_target = True
        tried = _tried(s, seat, kind, target)
        if tried["allowed"]:
            return True, None, True
        first_why = first_why or tried["why"]
    return False, first_why, any_target


def allowed(s: dict, seat: str, kind: str) -> list[dict]:
    """The commands of one type `seat` may send now (the allowed targets' commands)."""
    return [t["command"] for t in actions(s, seat, [kind])[kind]["targets"] if t["allowed"]]
