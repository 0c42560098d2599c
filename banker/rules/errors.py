"""Domain errors: every refusal carries a sentence fit to show the Banker."""


class DomainError(Exception):
    """The rules forbid this command (HTTP 422)."""

    status = 422

    def __init__(self, message: str, code: str = "rule_violation"):
        super().__init__(message)
        self.message = message
        self.code = code


class BadCommand(DomainError):
    """The command is malformed: wrong type, unknown id, missing field (HTTP 400)."""

    status = 400

    def __init__(self, message: str, code: str = "bad_command"):
        super().__init__(message, code)
