"""A version 3 weights file written as damiera.engine.patterns.save_weights writes it, but
without its checks: the files the writer refuses, for tests of the reader."""

from __future__ import annotations

import sys
import zlib
from array import array
from pathlib import Path


def write_unchecked(path: Path, rows: int, windows: int, phases: list[list[list[int]]],
                    key: str) -> None:
    """Write ``phases`` (each a list of the canonical windows' tables, in window order) for
    windows of ``rows`` rows, ``windows`` windows on the board, rules key ``key``; every
    weight must fit 16 bits."""
    body = array("h", [w for tables in phases for table in tables for w in table])
    if sys.byteorder != "little":
        body.byteswap()
    data = body.tobytes()
    header = (f"damiera-patterns 3 {rows} {windows} {len(phases)} {key} "
              f"{zlib.crc32(data):08x}\n")
    path.write_bytes(header.encode("ascii") + data)
