"""Acceptance: docs/api.md, Precise points: event texts are sentences (runs after the other files).

Every expected value comes from docs/api.md, the rule texts or the printed figures, never from
the implementation (see tests/acceptance/contract.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .contract import (
    EVENT_TEXTS,
)


def test_zz_event_texts_are_sentences():
    """Runs last (file order): every event text seen is a sentence (docs/api.md, Precise points)."""
    if not EVENT_TEXTS:
        pytest.skip("run with the rest of the suite")
    odd = sorted({t for t in EVENT_TEXTS if not re.match(r"^\S.*[.!?]$", t, re.S)})
    assert not odd, odd
    Path("/tmp/acceptance_event_texts.txt").write_text("\n".join(sorted(set(EVENT_TEXTS))))
