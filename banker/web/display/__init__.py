"""The big screen (`screen`) and the story pages (`story_pages`), on the one blueprint of
`blueprint`; templates in templates/display/ and templates/story/."""

from banker.web.display import screen, story_pages
from banker.web.display.blueprint import bp

__all__ = ["bp", "screen", "story_pages"]
