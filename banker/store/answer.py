"""The answer to one command, as the Banker is told it and as each other seat may be."""

from __future__ import annotations

from dataclasses import dataclass, field

from banker import rules


@dataclass
class Answer:
    """The answer to one command: the body as a dict and as the exact JSON text to send (both
    as the Banker is told them).

    `private`: for each of the body's events, in order, {"cash_of", "without_cash"} when its
    sentence states a player's cash in hand (else {}): what `said_to` needs to tell another
    seat the same news without that figure (the option private_cash)."""

    body: dict
    text: str
    replayed: bool = False
    private: list = field(default_factory=list)

    def said_to(self, seat: str) -> list[dict]:
        """The answer's events as `seat` ("banker", a player id, "display") is told them."""
        state, events = self.body["state"], self.body["events"]
        private = self.private or [{}] * len(events)
        return [
            {**e, "text": rules.text_for(state, seat, {**e, **p})}
            for e, p in zip(events, private, strict=True)
        ]
