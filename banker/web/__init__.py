"""The web app: `create_app` (banker.web.app) builds it, a blueprint per room over one Store.

    api/        the JSON API under /api/v1 and its OpenAPI document
    table/      the Banker's pages (home, a game's screens, the Join panel, moving the seat)
    player/     a player's own page and remote
    display/    the big screen and the story pages
    snapshots/  pause and resume in the browser
    common/     what every blueprint may use: leaf modules that import no blueprint

A blueprint imports common/ and the core, never another blueprint (tests/project/test_structure.py).
"""

from banker.web.app import create_app
from banker.web.common.store import get_store

__all__ = ["create_app", "get_store"]
