"""Pause and resume in the browser (`routes`), and the paper record of a paused game
(`paper_record`); templates in templates/snapshots/."""

from banker.web.snapshots.routes import bp

__all__ = ["bp"]
