"""A player's own page and remote (`routes`), and what it shows (`remote`)."""

from banker.web.player.routes import bp

__all__ = ["bp"]
