"""Reading colours back from a rendered PNG (Pillow, a test dependency)."""

from __future__ import annotations

import io

from PIL import Image


class Picture:
    def __init__(self, png: bytes):
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        self.image = Image.open(io.BytesIO(png)).convert("RGB")
        self.width, self.height = self.image.size

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        return self.image.getpixel((round(x), round(y)))  # type: ignore[return-value]

    def has(self, x: float, y: float, colour: str, tolerance: int = 10, radius: int = 1) -> bool:
        """Most pixels of the small square around (x, y) are ``colour``."""
        want = rgb(colour)
        hits = total = 0
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                got = self.at(x + dx, y + dy)
                total += 1
                hits += all(abs(a - b) <= tolerance for a, b in zip(got, want, strict=True))
        return hits * 2 > total


def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
