"""The story's charts as SVG drawn on the server (no chart script): plain data in, markup out;
and the net-worth chart of a story (`worth_chart`: the story pages' and a player's page's).

Coordinates are whole units of a picture 480 wide (under half a pixel off on a phone, and a
fifth fewer bytes than tenths); the axes' type is 26 units (static/chart.css), so that the
labels stay 19 px or more on a phone (the picture drawn about 360 px wide) and grow with the
picture on a big screen. Colours come from CSS classes (`seat-N` for a player's line in
static/chart.css, `part-*` for cash, deeds and buildings in board.css), so each colour scheme
gets its own shade. Every chart has a title and is shown next to a table of the same figures
(the templates in templates/story/).
"""

from __future__ import annotations

import functools

from markupsafe import Markup, escape

from banker.web.common.present import money, seat_color

W, H = 480, 300
LEFT, RIGHT, TOP, BOTTOM = 76, 30, 16, 44
PARTS = (("cash", "Cash"), ("deeds", "Deeds"), ("buildings", "Buildings"))


def nice_max(value: int) -> int:
    """A round upper bound for an axis (1, 2 or 5 times a power of ten, at least 100)."""
    value = max(value, 100)
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= value:
                return m * step
        step *= 10


def _short(amount: int) -> str:
    """An axis amount for a small chart: 2,500 as 2.5k."""
    if amount < 1000:
        return str(amount)
    return f"{amount / 1000:g}k"


def _ticks(top: int) -> list[int]:
    return [top * k // 4 for k in range(5)]


def _x(i: int, n: int, width: int = W) -> float:
    span = width - LEFT - RIGHT
    return LEFT + (span * i / (n - 1) if n > 1 else span / 2)


def _y(v: float, top: int, height: int = H) -> float:
    return height - BOTTOM - (height - TOP - BOTTOM) * v / top


def _round_label(label: str) -> str:
    """A round's label under the axis: "Round 12" as "12" ("Start", "Now", "End" as they are)."""
    return label.removeprefix("Round ")


def _axes(
    labels: list[str], top: int, width: int = W, height: int = H, few: bool = False
) -> list[str]:
    """Grid lines, every other one with its amount (2,500 as 2.5k), and round labels under
    the x axis (`few`: only the first and the last round, and three lines, for a small
    chart). A new list each time (the caller adds its lines); drawn once for each phone's
    chart of a change (_drawn_axes)."""
    return list(_drawn_axes(tuple(labels), top, width, height, few))


@functools.lru_cache(maxsize=256)
def _drawn_axes(labels: tuple, top: int, width: int, height: int, few: bool) -> tuple:
    out = []
    for k, t in enumerate(_ticks(top)):
        if few and k % 2:
            continue
        y = _y(t, top, height)
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{width - RIGHT}" y1="{y:.0f}" y2="{y:.0f}"/>'
        )
        if k % 2 == 0:  # every other amount: at most four characters (2.5k), big enough
            out.append(
                f'<text class="tick" x="{LEFT - 8}" y="{y + 8:.0f}" '
                f'text-anchor="end">{_short(t)}</text>'
            )
    n = len(labels)
    every = max(1, n - 1) if few else max(1, -(-n // 5))
    for i, label in enumerate(labels):
        if i % every and i != n - 1:
            continue
        if i != n - 1 and n - 1 - i < every * 0.8:
            continue  # too close to the last label
        x = _x(i, n, width)
        anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        x += RIGHT // 2 if anchor == "end" else 0
        out.append(
            f'<text class="tick" x="{x:.0f}" y="{height - BOTTOM + 30}" '
            f'text-anchor="{anchor}">{escape(_round_label(label))}</text>'
        )
    return tuple(out)


def _svg(title: str, body: list[str], cls: str, width: int = W, height: int = H) -> Markup:
    return Markup(
        f'<svg class="chart {cls}" viewBox="0 0 {width} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg>"
    )


def lines(title: str, labels: list[str], series: list[dict], highlight: str | None = None,
          ids: str | None = None):  # fmt: skip
    """A line per series ({"id", "seat", "values"}); None values are gaps. The highlighted
    series is drawn thick and on top, the others thin. `ids`: each line gets the id
    "<ids>-<series id>" (a page sent a change as its parts then swaps only the lines that moved)."""
    values = [v for s in series for v in s["values"] if v is not None]
    top = nice_max(max(values, default=0))
    body = _axes(labels, top)
    n = len(labels)
    ordered = sorted(series, key=lambda s: s["id"] == highlight)
    for s in ordered:
        points = _points(tuple(s["values"]), n, top)
        if not points:
            continue
        cls = f"line seat-{s['seat']}"
        if highlight is not None:
            cls += " mine" if s["id"] == highlight else " other"
        # Closed by an end tag, not "/>": a part (banker.net.parts) is an element with an end
        # tag, and a line read alone as HTML would not be closed by "/>".
        named = f' id="{escape(ids)}-{escape(s["id"])}"' if ids else ""
        if len(points) == 1:
            x, y = points[0].split(",")
            body.append(f'<circle{named} class="{cls} dot" cx="{x}" cy="{y}" r="6"></circle>')
        else:
            body.append(f'<polyline{named} class="{cls}" points="{" ".join(points)}"></polyline>')
    return _svg(title, body, "lines")


@functools.lru_cache(maxsize=1024)  # a few hundred bytes to a few KB each
def _points(values: tuple, n: int, top: int) -> tuple[str, ...]:
    """A series' points ("x,y"), None values left out: kept, for each phone of a game draws
    the same lines at each change (only whose is thick differs), and a line's earlier rounds
    stay as they were."""
    return tuple(f"{_x(i, n):.0f},{_y(v, top):.0f}" for i, v in enumerate(values) if v is not None)


def parts(title: str, labels: list[str], rows: list[dict], top: int) -> Markup:
    """Stacked areas of one player's cash, deeds and buildings (rows: worth dicts by round).

    A hidden cash (None) is drawn as nothing: the stack then starts with the deeds."""
    width, height = 420, 260
    body = _axes(labels, top, width, height, few=True)
    n = len(labels)
    base = [0.0] * n
    for key, _ in PARTS:
        layer = [(r[key] or 0) for r in rows]
        upper = [b + v for b, v in zip(base, layer, strict=True)]
        if any(layer):
            if n == 1:
                x0, x1 = _x(0, 2, width), _x(1, 2, width)
                pts = [(x0, upper[0]), (x1, upper[0]), (x1, base[0]), (x0, base[0])]
            else:
                pts = [(_x(i, n, width), upper[i]) for i in range(n)]
                pts += [(_x(i, n, width), base[i]) for i in reversed(range(n))]
            d = " ".join(f"{x:.0f},{_y(v, top, height):.0f}" for x, v in pts)
            body.append(f'<polygon class="part part-{key}" points="{d}"/>')
        base = upper
    return _svg(title, body, "parts", width, height)


def bar(value: int, top: int, cls: str = "", color: str | None = None) -> Markup:
    """One horizontal bar as wide as value/top of its cell (for a table row)."""
    pct = 0 if top <= 0 else max(0.0, min(100.0, 100 * value / top))
    fill = f' fill="{escape(color)}"' if color else ""
    return Markup(
        '<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" '
        f'xmlns="http://www.w3.org/2000/svg"><rect class="{escape(cls)}" x="0" y="0" '
        f'width="{pct:.2f}" height="10"{fill}/></svg>'
    )


def worth_chart(story: dict, highlight: str | None = None, table_rows: int | None = None) -> dict:
    """The net-worth lines and their table; deeds and buildings only when cash is hidden
    from this viewer for anyone. `table_rows`: at most so many rounds in the table (evenly
    chosen, the first and the latest kept), for a page that is re-sent often."""
    figures = worth_figures(story, table_rows)
    return {**figures, "svg": worth_lines(figures, highlight)}


def worth_lines(figures: dict, highlight: str | None = None, ids: str | None = None) -> Markup:
    """The chart of `worth_figures`, `highlight`'s line thick and on top (`ids`: as `lines`)."""
    return lines(figures["title"], figures["labels"], figures["series"], highlight, ids)


def worth_figures(story: dict, table_rows: int | None = None) -> dict:
    """What `worth_chart` shows but the lines: the same for every viewer of the same story
    (a phone's chart differs from the others' only by whose line is thick)."""
    labels = [r["label"] for r in story["rounds"]]
    hidden = any(w["total"] is None for r in story["rounds"] for w in r["worth"].values())
    key = "holdings" if hidden else "total"

    def value(w: dict) -> int | None:
        return w["deeds"] + w["buildings"] if hidden else w["total"]

    series = [
        {
            "id": p["id"],
            "seat": seat_color(p["seat"]),
            "name": p["name"],
            "values": [value(r["worth"][p["id"]]) for r in story["rounds"]],
        }
        for p in story["players"]
    ]
    title = (
        "Deeds and buildings of every player, round by round (cash is private in this game)"
        if hidden
        else "Net worth of every player, round by round"
    )
    rows = list(range(len(labels)))
    if table_rows and len(rows) > table_rows:
        step = (len(rows) - 1) / (table_rows - 1)
        rows = sorted({round(i * step) for i in range(table_rows)})
    every = story.get("every", 1)
    return {
        "title": title,
        "measure": key,
        "rows": rows,
        "every": every,
        "labels": labels,
        # The figures of the table's rounds only (a long game's phone shows 8 of its rounds).
        "series": [{**s, "shown": {i: money(s["values"][i]) for i in rows}} for s in series],
    }
