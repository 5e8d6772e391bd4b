"""Pixels to PNG and back: a picture written as a palette PNG, a PNG read into pixels.

A board is flat colours and their anti-aliased edges, so ``PALETTE`` colours chosen for it
(Pillow's fast octree, without dithering, which would speckle the flat fills and cost bytes)
look the same as the picture's own, and the PNG is a third of a true-colour one's size: a
standard board about 140 KB where it was 350 (a results mail must stay under 200 KB). The
colours are chosen from every fourth pixel of every fourth row (every flat colour is still
there, and most blends), then each pixel takes its nearest: about 5 ms for a standard board,
where choosing from every pixel took 20 to 40 (and the pictures differ from their own
colours by as little).
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Sequence

import numpy as np
from PIL import Image

try:  # ISA-L's deflate: the same format, level 1 about five times as fast as zlib's, 2% larger
    from isal.isal_zlib import compress
except ImportError:  # no wheel of it for this machine: zlib's
    from zlib import compress

PNG_LEVEL = 1  # the fastest that still looks for matches: the pictures are flat colours
PALETTE = 128


def decode_rgba(png: bytes) -> np.ndarray:
    """A PNG as rows x columns x RGBA, straight (not premultiplied) alpha."""
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGBA"))


def encode_png(canvas: np.ndarray, colours: int = PALETTE, keep: Sequence[tuple[int, int, int]] = ()) -> bytes:
    """The canvas (rows x columns x RGB, or RGBA whose alpha is ignored) as a PNG of ``colours``
    colours, ``keep`` among them as they are (the picture's own flat colours, small marks' too,
    which the sample may miss): no row filters (flat colours compress best as they are) and the
    fastest level."""
    height, width = canvas.shape[:2]
    if canvas.shape[2] == 4 and canvas.flags.c_contiguous:  # read in place: no copy
        image = Image.frombuffer("RGBA", (width, height), canvas, "raw", "RGBA", 0, 1).convert("RGB")
    else:
        image = Image.fromarray(np.ascontiguousarray(canvas[:, :, :3]), "RGB")
    chosen = image.resize((width // 4, height // 4), Image.Resampling.NEAREST) if min(height, width) >= 64 else image
    kept = list(dict.fromkeys(keep))[:colours // 2]
    chosen_palette = chosen.quantize(colours - len(kept), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    found = chosen_palette.getpalette()[:3 * (colours - len(kept))]  # type: ignore[index]
    palette_image = Image.new("P", (1, 1))
    palette_image.putpalette([c for colour in kept for c in colour] + found)
    quantized = image.quantize(palette=palette_image, dither=Image.Dither.NONE)
    indices = np.asarray(quantized, np.uint8)
    used = int(indices.max()) + 1
    palette = bytes(quantized.getpalette()[:3 * used])  # type: ignore[index]
    depth = 8 if used > 16 else 4 if used > 4 else 2 if used > 2 else 1
    rows = _packed(indices, depth)
    header = struct.pack(">IIBBBBB", width, height, depth, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", compress(rows.data, PNG_LEVEL)), _chunk(b"IEND", b"")))


def _packed(indices: np.ndarray, depth: int) -> np.ndarray:
    """Each row of palette indices packed at ``depth`` bits, after its filter byte (None)."""
    height = indices.shape[0]
    if depth < 8:
        per = 8 // depth
        padded = np.zeros((height, -(-indices.shape[1] // per) * per), np.uint8)
        padded[:, :indices.shape[1]] = indices
        grouped = padded.reshape(height, -1, per)
        shifts = np.arange(per - 1, -1, -1, dtype=np.uint8) * depth
        indices = (grouped << shifts).sum(axis=2, dtype=np.uint16).astype(np.uint8)
    rows = np.zeros((height, indices.shape[1] + 1), np.uint8)
    rows[:, 1:] = indices
    return rows


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
