"""QR codes of links, made with qrcode: inline SVG for the pages, text for the terminal."""

from __future__ import annotations

import functools
from typing import TextIO

import qrcode
from markupsafe import Markup, escape


def _matrix(text: str, border: int) -> list[list[bool]]:
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=border)
    qr.add_data(text)
    qr.make(fit=True)
    return qr.get_matrix()


@functools.lru_cache(maxsize=256)
def qr_svg(text: str, label: str = "") -> Markup:
    """An inline <svg> QR code of `text`: one path of dark runs on a white square.

    Built from qrcode's matrix rather than its SVG image factories so that several codes fit on
    one page (no shared element id, no XML prolog) and the markup stays small.
    """
    matrix = _matrix(text, border=4)  # the quiet zone the standard asks, white even in dark mode
    size = len(matrix)
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if row[x]:
                start = x
                while x < size and row[x]:
                    x += 1
                runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return Markup(
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" role="img" aria-label="QR code of {escape(label or text)}">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(runs)}"/></svg>'
    )


def print_qr(text: str, out: TextIO) -> None:
    """Print a QR code of `text` on a terminal: in colour on a tty, else in block characters."""
    qr = qrcode.QRCode(border=2)
    qr.add_data(text)
    qr.make(fit=True)
    try:
        if out.isatty():
            qr.print_tty(out=out)
        else:
            # Light modules drawn as blocks: dark on light on the usual dark-background terminal.
            qr.print_ascii(out=out, invert=True)
    except (OSError, UnicodeEncodeError):
        # A terminal that cannot show block characters still has the URL as text.
        out.write("(No QR code: this terminal cannot show it.)\n")
    out.flush()
