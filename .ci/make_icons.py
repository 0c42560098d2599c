"""Draw banker's icons (a white house, as on the board, on the table's green) into static/.

Pure standard library: shapes are sampled 4x4 per pixel and written as RGBA PNGs; the favicon
is an ICO holding 16, 32 and 48 pixel PNGs. Run it again after changing a colour:
`python .ci/make_icons.py`. The files it writes are committed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"
GREEN, WHITE = (11, 107, 58), (255, 255, 255)
SAMPLES = 4


def house(x: float, y: float) -> bool:
    """The house, in a unit square: a roof over a body with a door cut out."""
    roof = 0.22 <= y <= 0.47 and abs(x - 0.5) <= (y - 0.22) / 0.25 * 0.30
    body = 0.26 <= x <= 0.74 and 0.46 <= y <= 0.78
    door = 0.44 <= x <= 0.56 and 0.60 <= y <= 0.78
    return (roof or body) and not door


def rounded(x: float, y: float, r: float) -> bool:
    """Inside a unit square with corners rounded by r."""
    cx = min(max(x, r), 1 - r)
    cy = min(max(y, r), 1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def draw(size: int, maskable: bool) -> bytes:
    """RGBA rows of the icon. Maskable: full bleed, the house shrunk into the safe circle."""
    rows = []
    for py in range(size):
        row = bytearray([0])  # PNG filter: none
        for px in range(size):
            bg = fg = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) / size
                    y = (py + (sy + 0.5) / SAMPLES) / size
                    inside = True if maskable else rounded(x, y, 0.18)
                    if not inside:
                        continue
                    bg += 1
                    hx, hy = ((x - 0.5) / 0.8 + 0.5, (y - 0.5) / 0.8 + 0.5) if maskable else (x, y)
                    fg += house(hx, hy)
            n = SAMPLES * SAMPLES
            if bg == 0:
                row += bytes(4)
                continue
            t = fg / bg
            rgb = [round(g * (1 - t) + w * t) for g, w in zip(GREEN, WHITE, strict=True)]
            row += bytes([*rgb, round(255 * bg / n)])
        rows.append(bytes(row))
    return b"".join(rows)


def png(size: int, maskable: bool = False) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(draw(size, maskable), 9))
        + chunk(b"IEND", b"")
    )


def ico(sizes: tuple[int, ...]) -> bytes:
    images = [png(s) for s in sizes]
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    for s, data in zip(sizes, images, strict=True):
        out += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return out + b"".join(images)


def main() -> None:
    (STATIC / "icon-192.png").write_bytes(png(192))
    (STATIC / "icon-512.png").write_bytes(png(512))
    (STATIC / "icon-maskable-512.png").write_bytes(png(512, maskable=True))
    (STATIC / "apple-touch-icon.png").write_bytes(png(180, maskable=True))
    (STATIC / "favicon.ico").write_bytes(ico((16, 32, 48)))


if __name__ == "__main__":
    main()
