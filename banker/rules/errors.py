"""Refusals: every one carries an HTTP status, a short code and a sentence fit to show the Banker.

`Refusal` is the one base of every refusal in banker: the core's DomainError and BadCommand
below, the store's StoreError, the snapshot's SnapshotError, the web's ApiError, FormError and
the player's page's Refused. The web answers any of them the same way: the JSON API as
{"error": {"code", "message"}} with its status, a page with its sentence.
"""


class Refusal(Exception):
    """Something refused, with `status`, `code` and `message`. `replayable`: a refusal that an
    accepted earlier request with the same idempotency key turns into that request's replay."""

    status = 400
    code = "refused"
    replayable = False

    def __init__(self, message: str, code: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
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
