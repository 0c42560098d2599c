"""Web hygiene (issue 10.5): no inline style or script anywhere, so the Content-Security-Policy
can be `default-src 'self'`; compression, caching and security headers on every answer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))

INLINE = {
    "a style attribute": re.compile(r"""\sstyle\s*=""", re.I),
    "a <style> block": re.compile(r"<style\b", re.I),
    "an inline <script> body": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "an on… handler": re.compile(r"""\son[a-z]+\s*=\s*["']""", re.I),
    "an hx-on handler": re.compile(r"""\shx-on[:-]""", re.I),
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_carries_inline_style_or_script(template):
    text = template.read_text()
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert found == [], f"{template.name} has {', '.join(found)}"
