"""What a refused form keeps: every value typed and every choice made, drawn again as it was
sent, so that a refusal never makes anyone type or choose again (the Banker's Correct cash
refused for a missing reason keeps the player and the amount; a bid refused keeps its amount).

A form is named by its `at` (the place its refusal is shown on the Banker's screens; "bid" on a
player's page). The kept fields travel with the refusal: in the htmx answer, or across a plain
POST's redirect in the refusal's cookie (`as_json`, bounded). A field drawn with a kept value
carries `data-typed` (static/typing.js then treats it as typed: a live update keeps it).
"""

from __future__ import annotations

from markupsafe import Markup

# A form's bookkeeping, never a person's input.
HIDDEN = frozenset(
    {"type", "key", "expected_version", "back", "at", "confirm", "d1", "pad", "seen"}
)
MAX_FIELDS = 40
MAX_VALUE = 200


class Kept:
    """The fields of one refused form (none: nothing is kept)."""

    def __init__(self, at: str = "", fields: dict[str, list[str]] | None = None):
        self.at = at
        self.fields = fields or {}

    @classmethod
    def of_form(cls, at: str, form) -> Kept:
        """What a submitted form (a MultiDict) keeps: its inputs but the bookkeeping ones."""
        fields: dict[str, list[str]] = {}
        for name, value in form.items(multi=True):
            if name in HIDDEN or len(fields) >= MAX_FIELDS:
                continue
            fields.setdefault(name[:MAX_VALUE], []).append(value[:MAX_VALUE])
        return cls(at, fields)

    @classmethod
    def of_json(cls, data) -> Kept:
        """Read back from `as_json` (a cookie: anything not of that shape keeps nothing)."""
        if not isinstance(data, dict) or not isinstance(data.get("at"), str):
            return cls()
        fields = data.get("fields")
        if not isinstance(fields, dict):
            return cls()
        clean = {
            str(k): [str(v) for v in vs]
            for k, vs in list(fields.items())[:MAX_FIELDS]
            if isinstance(vs, list)
        }
        return cls(data["at"], clean)

    def as_json(self) -> dict:
        return {"at": self.at, "fields": self.fields}

    def __bool__(self) -> bool:
        return bool(self.at)

    def value(self, at: str, name: str) -> str:
        """The value typed in input `name` of form `at`, or ""."""
        if at != self.at:
            return ""
        values = self.fields.get(name) or [""]
        return values[0]

    def chose(self, at: str, name: str, value: str) -> bool:
        """Whether choice `value` of input `name` (a box, a radio, an option) was chosen."""
        return at == self.at and str(value) in self.fields.get(name, [])

    def typed(self, at: str, name: str) -> Markup:
        """The attributes of a text input drawn again: its value, and data-typed when kept."""
        value = self.value(at, name)
        mark = " data-typed" if value else ""
        return Markup('value="{}"{}').format(value, Markup(mark))


NOTHING = Kept()
