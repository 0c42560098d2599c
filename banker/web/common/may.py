"""What a seat may send now, asked once per page: every button of the Banker's screens and of a
player's page is drawn from the core's one answer (`banker.rules.actions`), so that a control
the rules would refuse is never shown active: it is left out, or disabled with the sentence why
(the very one the core would answer, as that seat is told it).

    may = May(state, "banker")                     # or a player id
    may.why("buy")                                 # None, or why a Buy would be refused
    may.why("build", property="baltic-avenue")     # one target of a command type
    may.allowed("bid", player="p2")
    may.free("bid", player="p2")                   # what a person types: {"amount": {min, max}}

`fields` pick the targets whose command holds them; a command type none of whose targets hold
them is refused with the type's own sentence (or, when the core offers no such target at all,
with NO_TARGET).
"""

from __future__ import annotations

from banker.rules import actions

NO_TARGET = "Not possible now."


class May:
    """The core's answer to "what may this seat send now?" for one state."""

    def __init__(self, state: dict, seat: str, kinds=None):
        self.seat = seat
        self._actions = actions(state, seat, kinds)

    def _targets(self, kind: str, fields: dict) -> list[dict]:
        entry = self._actions.get(kind) or {"targets": []}
        return [
            t for t in entry["targets"] if all(t["command"].get(k) == v for k, v in fields.items())
        ]

    def target(self, kind: str, /, **fields) -> dict | None:
        """The first allowed target of `kind` holding `fields`, or None."""
        return next((t for t in self._targets(kind, fields) if t["allowed"]), None)

    def allowed(self, kind: str, /, **fields) -> bool:
        return self.target(kind, **fields) is not None

    def why(self, kind: str, /, **fields) -> str | None:
        """None when `kind` (with `fields`) may be sent now, else the sentence why not."""
        targets = self._targets(kind, fields)
        if any(t["allowed"] for t in targets):
            return None
        said = next((t["why"] for t in targets if t["why"]), None)
        return said or (self._actions.get(kind) or {}).get("why") or NO_TARGET

    def free(self, kind: str, /, **fields) -> dict:
        """What a person types for an allowed target ({field: {"min", "max"}}), or {}."""
        target = self.target(kind, **fields)
        return target["free"] if target else {}
