"""The JSON API under /api/v1 (`routes`) and its OpenAPI document (`openapi`,
`openapi_schemas`)."""

from banker.web.api.routes import bp

__all__ = ["bp"]
