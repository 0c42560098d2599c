"""The Banker's pages: the home page and new games (`home`), a game's screens (`screens`, their
data from `presenters`), the Join panel's codes and new links (`join`) and moving
the Banker's seat to another device (`move_seat`). Every route joins the one blueprint of
`blueprint`; templates in templates/table/."""

from banker.web.table import home, join, move_seat, screens
from banker.web.table.blueprint import bp

__all__ = ["bp", "home", "join", "move_seat", "screens"]
