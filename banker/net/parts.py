"""What changed between two renderings of one page's view: the parts a page swaps in instead of
the whole view (issue 35: a change on every page in a few milliseconds, not a whole redraw).

A view is the HTML its page's poll answers (banker.web.common.pushed): one or more elements,
out-of-band ones beside the main one. Its *parts* are its elements that carry an `id`; each
part holds the parts inside it. `changed(old, new, was, now)` compares the view the page has
(`old`, drawn at version `was`) with the new one (`new`, at `now`) and gives the changed parts,
each marked `hx-swap-oob="true"` (htmx swaps an element by its id), the smallest that hold a
change: a part whose own text (its parts aside) changed is sent whole; one whose text did not
is looked into. None when the view's own text around its parts changed (a part came or went):
the page then swaps the whole view, as before.

What differs in every rendering without being a change the page must be shown is not compared
(`masked`), and is brought up to date by the page itself (static/refresh.js, on the parts it
keeps): the version the view was drawn at, where it is written for the page's own use (the
`data-version` of a live view, a form's `expected_version` and `seen`, the `v=` of a live
part's `hx-get`), and each form's fresh key (any key the page holds is one it has not sent).
`apply` is what the page does, on strings (the tests hold `changed` to it).

Pure string work, no HTML parser: the tags are read with one regular expression (the views
are banker's own templates: attributes quoted, no script).
"""

from __future__ import annotations

import bisect
import re

# A tag (its name, and whether it closes or closes itself) or a comment.
_TAG = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9:-]*)([^>]*)>", re.S)
_ID = re.compile(r"""\sid=["']([^"']+)["']""")
_VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)  # fmt: skip


# A part: (its id, where it starts, where it ends, its parts) — places in the masked text; the
# whole view is a part without an id. Tuples of strings and numbers: a kept view costs the
# garbage collector nothing (Python stops tracking such tuples).
Part = tuple  # (str | None, int, int, tuple[Part, ...])


def _tree(html: str) -> Part | None:
    """The view's parts, as a tree under one part standing for the whole text; None when the
    tags do not nest (the page then swaps the whole view)."""
    return _read(html, 0, None)


def _element_at(html: str, at: int) -> Part | None:
    """The part (an element with an id and an end tag) that starts at `at`, with its parts;
    None when none does or its tags do not nest."""
    m = _TAG.match(html, at)
    if m is None:
        return None
    closing, name, attributes = m.groups()
    if closing or name is None or name in _VOID or attributes[-1:] == "/":
        return None
    found = _ID.search(attributes)
    if found is None:
        return None
    return _read(html, m.end(), (found.group(1), at, name))


def _read(html: str, at: int, first: tuple | None) -> Part | None:
    """The parts read from `at` on: of the whole text (`first` None), or of the element already
    open there (`first`: its id, where it starts, its name), until it closes."""
    names: list[str] = []  # the open tags' names
    owners: list[tuple | None] = []  # and, for a tag with an id, (id, start, its parts so far)
    holders: list[list] = [[]]  # the parts found so far inside each open part, innermost last
    if first is not None:
        names.append(first[2])
        owners.append((first[0], first[1], []))
        holders.append(owners[0][2])
    void, find_id = _VOID, _ID.search
    name_in, name_out, owner_in, owner_out = names.append, names.pop, owners.append, owners.pop
    for m in _TAG.finditer(html, at):  # the busiest loop of a change's push: kept lean
        closing, name, attributes = m.groups()
        if closing:
            if not names or name_out() != name:
                return None
            owner = owner_out()
            if owner is not None:
                holders.pop()
                made = (owner[0], owner[1], m.end(), tuple(owner[2]))
                if first is not None and not names:
                    return made
                holders[-1].append(made)
            continue
        if name is None or name in void or attributes[-1:] == "/":  # a comment, <br>, <x/>
            continue
        if "id=" in attributes:
            found = find_id(attributes)
            if found is not None:
                inside: list = []
                owner_in((found.group(1), m.start(), inside))
                holders.append(inside)
                name_in(name)
                continue
        owner_in(None)
        name_in(name)
    if names or first is not None:
        return None
    return (None, 0, len(html), tuple(holders[0]))


def masked(text: str, version: int) -> str:
    """`text` with what differs in every rendering at `version` (see the module's docstring)
    written as "#"."""
    return _masked(text, version)[0]


def _masked(text: str, version: int) -> tuple[str, list[tuple[int, int]]]:
    """(masked text, [(a place in it, how many characters of `text` it is behind there)]): each
    place after a mask, so that a place in the masked text is found in `text`."""
    v = str(version)
    spans = []
    for before in _VERSIONED:
        at = text.find(before)
        while at >= 0:
            at += len(before)
            if text.startswith(v, at) and not text[at + len(v) : at + len(v) + 1].isalnum():
                if before != "v=" or text[at - 3 : at - 2] in "?&;":
                    spans.append((at, at + len(v)))
            at = text.find(before, at)
    at = text.find(_KEY)
    while at >= 0:
        at += len(_KEY)
        end = text.find('"', at)
        spans.append((at, end))
        at = text.find(_KEY, end)
    if not spans:
        return text, []
    spans.sort()
    pieces, shifts, at, behind = [], [], 0, 0
    for start, end in spans:
        pieces.append(text[at:start])
        pieces.append("#")
        after = start - behind + 1  # the place after the "#" in the masked text
        behind += end - start - 1
        shifts.append((after, behind))
        at = end
    pieces.append(text[at:])
    return "".join(pieces), shifts


# Where a rendering writes its version for the page's own use, and a form's key.
_VERSIONED = ('data-version="', 'name="expected_version" value="', 'name="seen" value="', "v=")
_KEY = 'name="key" value="'


class Drawn:
    """One rendering of a view, read for comparing: its text with what differs in every
    rendering written as "#" (`masked`), and its parts (places in the masked text). Kept to
    compare the next rendering with (`kept`), it holds only what that needs.

    `after`: the rendering before it, when there is one: its parts are then found by walking
    that one's (`_aligned`: the text between parts compared as strings, only a part that
    changed read tag by tag), and what changed since is found on the way (`changed`). Reading
    every tag of a view cost more than rendering the big screen."""

    __slots__ = ("html", "version", "masked", "shifts", "tree", "after", "parts")

    def __init__(self, html: str, version: int, after: Drawn | None = None):
        self.html, self.version = html, version
        masked, shifts = _masked(html, version)
        self.masked, self.shifts = masked, tuple(shifts)
        self.after, self.parts = None, None
        if after is not None and after.tree is not None:
            found = _align(after.masked, after.tree, masked)
            self.after = after  # `parts` None: the whole view changed (`changed` says so)
            if found is not None:
                self.tree, self.parts = found
                return
        self.tree = _tree(masked)

    def kept(self) -> Drawn:
        """This rendering as the next one is compared with: its own text let go (and the one
        before it)."""
        self.html, self.shifts, self.after, self.parts = "", (), None, None
        return self

    def text(self, start: int, end: int) -> str:
        """The rendering's own text between two places of the masked text (tags' edges)."""
        return self.html[self._place(start) : self._place(end)]

    def _place(self, at: int) -> int:
        shifts = self.shifts
        if not shifts or at < shifts[0][0]:
            return at
        return at + shifts[bisect.bisect_right(shifts, (at, 1 << 62)) - 1][1]


def changed(old: Drawn, new: Drawn) -> str | None:
    """The parts of `new` that differ from `old`'s, out of band, in one string ("" when none
    did); None when the page must swap the whole view (its own text around its parts changed,
    a part of it came or went, its tags do not nest)."""
    if old.masked == new.masked:
        return ""
    if new.after is old:  # found while its parts were
        found = new.parts
    elif old.tree is None:
        found = None
    else:
        aligned = _align(old.masked, old.tree, new.masked)
        found = None if aligned is None else aligned[1]
    if found is None:
        return None
    return "".join(_out_of_band(new.text(start, end)) for start, end in found)


_SAME, _INNER, _WHOLE = 0, 1, 2  # how an element differs from the one of its id before


def _align(old: str, root: Part, new: str) -> tuple[Part, list] | None:
    """(`new`'s parts, the places of those that changed since `old`, in document order: the
    smallest parts that hold a change, a part whose own text changed sent whole) by walking
    `old`'s parts (`root`); None when the text around the parts changed or they do not nest
    (the page swaps the whole view: `_tree` then reads `new`)."""
    out: list[tuple[int, int]] = []
    found = _aligned(old, root, new, 0, out)
    return None if found is None else (found[0], out)


def _aligned(old: str, a: Part, new: str, at: int, out: list) -> tuple[Part, int] | None:
    """(the element of `new` that starts at `at` in place of `a`, as a part; how it differs
    from it), the places of its parts that changed added to `out` (a part whose own text
    changed is added whole, not looked into); None when no element of a's id
    starts there, or a's tags do not nest there (its holder is then sent whole)."""
    ident, start, end, inside = a
    if new.startswith(old[start:end], at) and (ident is not None or len(new) == at + end - start):
        return _shifted(a, at - start), _SAME
    mark, was, now, made = len(out), start, at, []
    for part in inside:
        between = old[was : part[1]]
        if not new.startswith(between, now):
            break
        found = _aligned(old, part, new, now + len(between), out)
        if found is None:
            break
        made.append(found[0])
        if found[1] == _WHOLE:
            out.append((found[0][1], found[0][2]))
        was, now = part[2], found[0][2]
    else:
        tail = old[was:end]
        if new.startswith(tail, now) and (ident is not None or len(new) == now + len(tail)):
            return (ident, at, now + len(tail), tuple(made)), _INNER
    del out[mark:]  # a's own text changed: it goes whole, none of its parts alone
    if ident is None:
        return None
    whole = _element_at(new, at)
    if whole is None or whole[0] != ident:
        return None
    return whole, _WHOLE


def _shifted(part: Part, by: int) -> Part:
    if not by:
        return part
    return (part[0], part[1] + by, part[2] + by, tuple(_shifted(p, by) for p in part[3]))


def _out_of_band(element: str) -> str:
    """The element marked to be swapped by its id (htmx's hx-swap-oob), once."""
    head = element[: element.index(">")]
    if "hx-swap-oob=" in head:
        return element
    name_end = re.match(r"<[A-Za-z][A-Za-z0-9:-]*", head).end()
    return f'{element[:name_end]} hx-swap-oob="true"{element[name_end:]}'


def apply(old: str, parts: str, was: int, now: int) -> str:
    """What the page holds after swapping `parts` into `old` and bringing its versions up to
    date (static/refresh.js does this on the page's document), as a string: the tests compare it
    with the new view, keys aside."""
    tree = _tree(parts)
    assert tree is not None
    found = {p[0]: parts[p[1] : p[2]] for p in tree[3]}
    whole = _tree(old)
    assert whole is not None

    def walk(part: Part) -> str:
        if part[0] is not None and part[0] in found:
            return found[part[0]]
        pieces, at = [], part[1]
        for inner in part[3]:
            pieces.append(old[at : inner[1]])
            pieces.append(walk(inner))
            at = inner[2]
        pieces.append(old[at : part[2]])
        return "".join(pieces)

    text = walk(whole)
    v, w = str(was), str(now)
    text = text.replace(f'data-version="{v}"', f'data-version="{w}"')
    text = text.replace(
        f'name="expected_version" value="{v}"', f'name="expected_version" value="{w}"'
    )
    text = text.replace(f'name="seen" value="{v}"', f'name="seen" value="{w}"')
    return re.sub(rf"([?&;]v=){v}(?![0-9A-Za-z])", rf"\g<1>{w}", text)
