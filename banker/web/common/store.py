"""The running app's Store: the one handle every blueprint reads and writes the games through."""

from __future__ import annotations

from flask import current_app

from banker.store import Store

EXTENSION = "banker.store"


def install(app, store: Store) -> None:
    """Give the app its Store (create_app)."""
    app.extensions[EXTENSION] = store


def get_store() -> Store:
    """The Store of the running app."""
    return current_app.extensions[EXTENSION]
