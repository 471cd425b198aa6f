"""Last Pebble as a PNG (the ``picture`` role): one grey square per pebble left, drawn with the
standard library alone (a real game would use matplotlib, as Space Pirates does).

>>> import pathlib, tempfile
>>> from .rules import LastPebble
>>> st = LastPebble().new_state(players=2, seed=0)
>>> path = draw(st, None, pathlib.Path(tempfile.mkdtemp()) / "pebbles.png")
>>> path.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from holotable.engine import State

CELL = 8  # pixels per pebble


def draw(state: State[Any, Any], seat: int | None, path: Path, *, title: str | None = None) -> Path:
    """Write the picture of what ``seat`` sees (everything is public here) to ``path``."""
    pile = state.view(seat)["pile"]
    width, height = max(1, pile) * CELL, CELL
    rows = b"".join(b"\x00" + bytes(96 if (x // (CELL // 2)) % 2 == 0 and pile else 255
                                    for x in range(width)) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
                     + chunk(b"IEND", b""))
    return path
