"""The position files of the pattern trainer (``tools/train_patterns.py``): NumPy ``.npz``
archives of quiet positions written by ``selfplay`` and ``label`` and read by the fits.

A file holds the variant's id (``variant``) and seven int64 columns of equal length, one row a
position: ``white``, ``black``, ``kings`` (bitboards of damiera.rules.geometry), ``turn``
(1 White to move, 0 Black), ``score`` (the search's score, White's view, centi-men), ``game``
(the game's number in its file) and ``result`` (+1 White won, 0 draw, -1 Black won).
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import numpy as np

from damiera.files import replace_regular
from damiera.rules.geometry import geometry
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant


def save_positions(out: str, rows: list[tuple[int, int, int, int, int, int, int]],
                   v: Variant) -> None:
    """Write ``rows`` (white, black, kings, turn, score, game, result) of variant ``v`` to
    ``out`` (.npz), whole or not at all (:func:`damiera.files.replace_regular`: a process
    stopped while it writes leaves the last whole file). Raises ValueError for a
    board whose bitboards do not fit the files' signed 64-bit columns (the 12x12 boards),
    before anything is written, and OSError when it cannot be written."""
    bits = geometry(v).nbits
    if bits > 63:
        raise ValueError(f"{v.id}: its board's bitboards take {bits} bits; the position files "
                         f"hold boards of at most 63 (pattern weights are trained for boards "
                         f"up to 10x10)")
    arr = np.array(rows, dtype=np.int64).reshape(-1, 7)
    with replace_regular(out) as f:
        np.savez_compressed(f, variant=np.array(v.full_id), white=arr[:, 0],
                            black=arr[:, 1], kings=arr[:, 2], turn=arr[:, 3],
                            score=arr[:, 4], game=arr[:, 5], result=arr[:, 6])


def load_positions(files: list[str], v: Variant) -> dict[str, np.ndarray]:
    """The positions of ``files`` (``selfplay`` or ``label`` output) as one set of columns.
    Raises ValueError for a file that is missing, of another kind, of another variant or not
    as ``save_positions`` writes it (columns, squares, turn, result, game numbers)."""
    keys = ("white", "black", "kings", "turn", "score", "game", "result")
    parts = []
    board = geometry(v).mask
    if geometry(v).nbits > 63:
        raise ValueError(f"{v.id}: its board's bitboards take {geometry(v).nbits} bits; the "
                         f"position files hold boards of at most 63")
    resolved = [Path(f).resolve() for f in files]
    for f, r in zip(files, resolved):
        if resolved.count(r) > 1:
            raise ValueError(f"{f} is given twice: its games would be counted twice, and "
                             f"copies of training games held out")
    for f in files:
        if not Path(f).exists():
            raise ValueError(f"{f}: no such file")
        if not Path(f).is_file():
            raise ValueError(f"{f}: not a file")
        try:
            part = np.load(f, allow_pickle=False)
            if not isinstance(part, np.lib.npyio.NpzFile):
                raise TypeError("a single array, not an archive of columns")
            parts.append({k: part[k] for k in keys})
            stored = str(part["variant"]) if "variant" in part else None
        except (OSError, EOFError, KeyError, ValueError, TypeError, AttributeError,
                zipfile.BadZipFile, zlib.error) as exc:
            why = exc if isinstance(exc, KeyError) else "not a NumPy .npz archive"
            raise ValueError(f"{f}: not a file written by `selfplay` ({why})") from None
        # Files before the goal options hold the plain id, which is the full id of the usual
        # goal with mandatory capture; files of older versions say no variant.
        if stored is not None and stored != v.full_id:
            raise ValueError(f"{f}: positions of {stored}, not {v.full_id}")
        _check_columns(f, parts[-1], board, v)
    out: dict[str, np.ndarray] = {}
    offset = 0
    for k in keys:
        out[k] = np.concatenate([p[k] for p in parts])
    # Game numbers restart in every file: make them unique.
    games = []
    for p in parts:
        games.append(p["game"] + offset)
        offset += int(p["game"].max()) + 1 if len(p["game"]) else 0
    out["game"] = np.concatenate(games)
    return out


def _check_columns(f: str, part: dict[str, np.ndarray], board: int, v: Variant) -> None:
    """ValueError naming ``f`` unless its columns are what ``save_positions`` writes: one
    dimension, whole numbers, one length, positions of ``v``'s board (``board``: its squares'
    mask; the men of each side apart, every king on a piece), turn 0 or 1, result -1, 0 or +1,
    game numbers from 0 below 2**40."""
    lengths = {k: c.shape for k, c in part.items()}
    if any(len(shape) != 1 for shape in lengths.values()) or len(set(lengths.values())) != 1:
        raise ValueError(f"{f}: columns of different shapes {lengths} (one row a position)")
    wrong = [k for k, c in part.items() if not np.issubdtype(c.dtype, np.integer)]
    if wrong:
        raise ValueError(f"{f}: columns {wrong} do not hold whole numbers")
    white, black, kings = (part[k].astype(np.int64) for k in ("white", "black", "kings"))
    occupied = white | black
    rows = ((white < 0) | (black < 0) | (kings < 0) | ((occupied & ~board) != 0)
            | ((white & black) != 0) | ((kings & ~occupied) != 0))
    if rows.any():
        raise ValueError(f"{f}: row {int(np.argmax(rows))} is not a position of the "
                         f"{v.full_id} board (squares off the board, a square of both sides "
                         f"or a king on an empty square)")
    for key, ok in (("turn", np.isin(part["turn"], (0, 1))),
                    ("result", np.isin(part["result"], (-1, 0, 1))),
                    ("game", (part["game"] >= 0) & (part["game"] < 2**40))):
        if not ok.all():
            raise ValueError(f"{f}: row {int(np.argmin(ok))}: {key} "
                             f"{part[key][int(np.argmin(ok))]} (turn 0 or 1, result -1, 0 or "
                             f"+1, game numbers from 0 below 2**40)")


def pieces_on_board(data: dict[str, np.ndarray]) -> np.ndarray:
    """The number of pieces of every loaded position (shape (positions,))."""
    occupied = (data["white"] | data["black"]).astype(np.uint64)
    counts: np.ndarray = np.unpackbits(occupied.view(np.uint8)).reshape(-1, 64).sum(axis=1)
    return counts


def position_at(data: dict[str, np.ndarray], i: int) -> Position:
    """Row ``i`` of a loaded file as a position."""
    turn = Color.WHITE if data["turn"][i] else Color.BLACK
    return Position(int(data["white"][i]), int(data["black"][i]), int(data["kings"][i]), turn)
