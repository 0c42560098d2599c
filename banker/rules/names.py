"""Players' names as the table will read them: normalised, visible, and not look-alikes.

A name is shown on every phone at the table and in the history, so it must read as what it is:
- normalised to NFC (an "é" typed as e + accent is the same name as a precomposed "é") and
  trimmed of spaces at either end, inner runs of spaces made one;
- refused when it holds a character nobody can see or that changes how text around it reads:
  control characters, format characters (zero-width spaces and joiners, the right-to-left
  override and the other bidirectional controls, soft hyphens), line separators, private-use,
  unassigned or surrogate code points, or a pile of combining marks;
- refused as a duplicate when it looks like another player's name: "Ann" and "ann", but also
  "Ann" and Cyrillic "Аnn", "Zoë" and "Zoe", "Al" and "A1".

The look-alike test compares skeletons (after Unicode TR39's idea of a confusable skeleton):
compatibility-decomposed (NFKD), accents dropped, case folded, and the letters of other scripts
that are drawn like Latin ones mapped onto them by the small table below. The core stays on the
standard library, so the table is ours rather than a package's: it covers the Cyrillic, Greek,
Armenian and Cherokee letters and the Latin small capitals that render like Latin letters in
common phone fonts ("Bօb" is "Bob", "Aɴɴ" is "Ann"), and the digits and signs that pass for
letters. It is deliberately small: names that merely resemble
each other in some font are the table's business to tell apart, not the server's.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .errors import BadCommand

# Categories of characters a name may not hold: Cc control, Cf format (zero-width, bidi
# controls, soft hyphen), Cs surrogate, Co private use, Cn unassigned, Zl/Zp line separators.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_MAX_MARKS = 3  # combining marks on one letter: Vietnamese needs 2; "zalgo" text has dozens

# Capitals drawn like Latin capitals (mapped before case folding: Greek "Ν" is an N, "ν" a v).
_CAPITALS = str.maketrans(
    {
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Α": "A", "Β": "B",
        "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
        "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        # Armenian capitals (they fold to small letters unlike Latin ones)
        "Օ": "O", "Ս": "U", "Տ": "S", "Լ": "L",
    }
)  # fmt: skip
# Letters drawn like Latin ones (after case folding), and digits and signs that pass for them.
_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z", "μ": "u",
        # digits and signs
        "0": "o", "1": "l", "|": "l", "!": "l", "5": "s", "$": "s", "@": "a",
        # Latin letters that pass for others
        "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ß": "ss",
        # Armenian small letters
        "օ": "o", "ս": "u", "ո": "n", "հ": "h", "ց": "g", "զ": "q",
        # Cherokee (its small letters fold to these capitals)
        "Ꭰ": "d", "Ꭱ": "r", "Ꭲ": "t", "Ꭵ": "i", "Ꭹ": "y", "Ꭺ": "a", "Ꭻ": "j", "Ꭼ": "e",
        "Ꮃ": "w", "Ꮇ": "m", "Ꮋ": "h", "Ꮍ": "y", "Ꮐ": "g", "Ꮒ": "h", "Ꮓ": "z", "Ꮟ": "b",
        "Ꮢ": "r", "Ꮤ": "w", "Ꮪ": "s", "Ꮮ": "l", "Ꮯ": "c", "Ꮲ": "p", "Ꮶ": "k", "Ᏼ": "b",
        # Latin small capitals
        "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
        "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
        "ꞯ": "q", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y",
        "ᴢ": "z",
    }
)  # fmt: skip


def _refusal(name: str) -> str | None:
    """Why a name cannot be shown as typed, or None."""
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if category in _REFUSED_CATEGORIES:
            code = f"U+{ord(ch):04X}"
            return (
                f"The name {_shown(name)!r} holds an invisible or control character ({code}): "
                "type it again with letters, digits and spaces only."
            )
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > _MAX_MARKS:
            return f"The name {_shown(name)!r} piles up accents on one letter: type it plainly."
        if ch.isspace() and ch != " ":
            return f"The name {_shown(name)!r} holds a tab or an unusual space: use plain spaces."
    return None


def _shown(name: str) -> str:
    """A name safe to quote in a sentence: its visible characters only."""
    visible = "".join(
        ch for ch in name if unicodedata.category(ch) not in _REFUSED_CATEGORIES or ch == " "
    )
    return visible[:30]


@lru_cache(maxsize=4096)  # a table's few names, asked of for every rename and leave button
def skeleton(name: str) -> str:
    """What a name looks like: two names with the same skeleton are taken for each other."""
    folded = unicodedata.normalize("NFKD", name.translate(_CAPITALS).casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(plain.translate(_LOOK_ALIKES).casefold().split())


def normalised_names(names: list[str]) -> list[str]:
    """The names as the game keeps them (NFC, trimmed, inner spaces single), in order.

    Raises BadCommand "bad_name" for a name with invisible or control characters and
    "duplicate_name" for two names that look alike. Lengths are the caller's to check.
    """
    out = []
    for raw in names:
        name = raw
        if any(unicodedata.category(ch) == "Cs" for ch in name):
            raise BadCommand(
                "A name holds a lone UTF-16 surrogate, which is not a character: type it again.",
                "bad_name",
            )
        name = unicodedata.normalize("NFC", name).strip()
        while "  " in name:
            name = name.replace("  ", " ")
        why = _refusal(name)
        if why:
            raise BadCommand(why, "bad_name")
        out.append(name)
    seen: dict[str, str] = {}
    for name in out:
        key = skeleton(name)
        if key in seen:
            same = seen[key].casefold() == name.casefold()
            raise BadCommand(
                "Two players have the same name: give each a different one."
                if same
                else f"Two players have names that look alike ({seen[key]!r} and {name!r}): "
                "give each a name the table can tell apart.",
                "duplicate_name",
            )
        seen[key] = name
    return out


def player_names(names: list[str]) -> list[str]:
    """normalised_names, each of 1 to 30 characters (else BadCommand "out_of_range")."""
    out = normalised_names(names)
    if not all(1 <= len(n) <= 30 for n in out):
        raise BadCommand("Each player's name has 1 to 30 characters.", "out_of_range")
    return out
