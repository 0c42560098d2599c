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

The core's answer for one seat and command type is made once per state (`answer`): the state
the store keeps is never changed, a command makes a new one, so an answer kept beside the very
state object it was made from is that state's answer. The Banker's command answered with its
screen and the same screen pushed to the Banker's other pages ask it once.
"""

from __future__ import annotations

from banker.rules import actions, may_send
from banker.web.common.recent import Recent

NO_TARGET = "Not possible now."
MOST_KEPT = 512  # (game, seat, command type) answers kept, the oldest first out: an answer is
# asked again within moments (a command's answer, then its push), and each holds its state

_kept = Recent(MOST_KEPT)  # (game, seat, kind) -> (state, the core's answer)
_whole = Recent(MOST_KEPT)  # the same -> (state, may_send's answer)


def answer(state: dict, seat: str, kind: str) -> dict | None:
    """`actions(state, seat, [kind])[kind]` (None for no such command type), made once for this
    state object (the store's, never changed) and kept until the game moves on."""
    key = (state.get("game_id"), seat, kind)
    found = _kept.get(key)
    if found is not None and found[0] is state:
        return found[1]
    try:
        made = actions(state, seat, [kind])[kind]
    except KeyError:  # no such command type
        made = None
    _kept.put(key, (state, made))
    return made


def whole(state: dict, seat: str, kind: str) -> tuple | None:
    """`may_send(state, seat, kind)` (None for no such command type), kept as `answer` is,
    unless the whole answer is kept already."""
    key = (state.get("game_id"), seat, kind)
    found, said = _kept.get(key), _whole.get(key)
    if found is not None and found[0] is state:
        entry = found[1]
        if entry is None:
            return None
        return entry["allowed"], entry["why"], bool(entry["targets"])
    if said is not None and said[0] is state:
        return said[1]
    try:
        made = may_send(state, seat, kind)
    except KeyError:  # no such command type
        made = None
    _whole.put(key, (state, made))
    return made


class May:
    """The core's answer to "what may this seat send now?" for one state."""

    def __init__(self, state: dict, seat: str, kinds=None):
        self.seat, self._state, self._kinds = seat, state, kinds
        self._actions: dict[str, dict] = {}
        self._by: dict[tuple, dict] = {}  # (kind, field) -> {value: its targets, in order}

    def _entry(self, kind: str) -> dict | None:
        """The core's answer for one command type, asked the first time a page needs it (a
        screen asks about a few types: trying every command of every type for each drawing
        was most of the Banker's screen's cost)."""
        if kind not in self._actions:
            if self._kinds is not None and kind not in self._kinds:
                return None
            self._actions[kind] = answer(self._state, self.seat, kind)
        return self._actions.get(kind)

    def _targets(self, kind: str, fields: dict) -> list[dict]:
        entry = self._entry(kind) or {"targets": []}
        if len(fields) == 1:  # a deed's button (property=…): its targets looked up, not searched
            ((field, value),) = fields.items()
            if type(value) in (str, int):
                by = self._by.get((kind, field))
                if by is None:
                    by = {}
                    for t in entry["targets"]:
                        v = t["command"].get(field)
                        if type(v) in (str, int, bool):  # all a str or an int can be equal to
                            by.setdefault(v, []).append(t)
                    self._by[kind, field] = by
                return by.get(value, [])
        return [
            t for t in entry["targets"] if all(t["command"].get(k) == v for k, v in fields.items())
        ]

    def target(self, kind: str, /, **fields) -> dict | None:
        """The first allowed target of `kind` holding `fields`, or None."""
        return next((t for t in self._targets(kind, fields) if t["allowed"]), None)

    def allowed(self, kind: str, /, **fields) -> bool:
        if not fields and kind not in self._actions:
            return self.why(kind) is None
        return self.target(kind, **fields) is not None

    def why(self, kind: str, /, **fields) -> str | None:
        """None when `kind` (with `fields`) may be sent now, else the sentence why not."""
        if not fields and kind not in self._actions:  # the type as a whole: tried lazily
            if self._kinds is not None and kind not in self._kinds:
                return NO_TARGET
            found = whole(self._state, self.seat, kind)
            if found is None:
                return NO_TARGET
            allowed, why, any_target = found
            return None if allowed else (why or NO_TARGET)
        targets = self._targets(kind, fields)
        if any(t["allowed"] for t in targets):
            return None
        said = next((t["why"] for t in targets if t["why"]), None)
        return said or (self._entry(kind) or {}).get("why") or NO_TARGET

    def free(self, kind: str, /, **fields) -> dict:
        """What a person types for an allowed target ({field: {"min", "max"}}), or {}."""
        target = self.target(kind, **fields)
        return target["free"] if target else {}
