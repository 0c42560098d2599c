"""Refusals: every one carries an HTTP status, a short code and a sentence fit to show the Banker.

`Refusal` is the one base of every refusal in banker: the core's DomainError and BadCommand
below, the store's StoreError, the snapshot's SnapshotError, the web's ApiError, FormError and
the player's page's Refused. The web answers any of them the same way: the JSON API as
{"error": {"code", "message"}} with its status, a page with its sentence.

With the option `private_cash` nobody but the Banker and the player concerned may be told a
player's cash in hand. A sentence that states it is a `WithCash`: the sentence as the Banker and
that player hear it, which also carries whose cash it states (`cash_of`) and its wording
without the figure for everyone else (`without_cash`). Events and refusals keep both
(`rules.text_for` picks one for a seat).
"""

from __future__ import annotations


class WithCash(str):
    """A sentence stating player `cash_of`'s cash in hand, with `without_cash`: the same news
    worded without that figure (amounts that change hands stay in both)."""

    cash_of: str
    without_cash: str

    def __new__(cls, text: str, cash_of: str, without_cash: str) -> WithCash:
        said = super().__new__(cls, text)
        said.cash_of, said.without_cash = cash_of, without_cash
        return said


class Refusal(Exception):
    """Something refused, with `status`, `code` and `message`. `replayable`: a refusal that an
    accepted earlier request with the same idempotency key turns into that request's replay."""

    status = 400
    code = "refused"
    replayable = False

    cash_of: str | None = None  # a message stating this player's cash in hand (WithCash)
    without_cash: str | None = None  # …and the message without the figure, for the others

    def __init__(self, message: str, code: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        if isinstance(message, WithCash):
            self.message = str(message)
            self.cash_of, self.without_cash = message.cash_of, message.without_cash
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class DomainError(Refusal):
    """The rules forbid this command (HTTP 422)."""

    status = 422

    def __init__(self, message: str, code: str = "rule_violation"):
        super().__init__(message, code)


class BadCommand(DomainError):
    """The command is malformed: wrong type, unknown id, missing field (HTTP 400)."""

    status = 400

    def __init__(self, message: str, code: str = "bad_command"):
        super().__init__(message, code)
