"""Types of the native core (csrc/binding*.c); see damiera.rules.movegen for the values."""

import builtins
import os
from collections.abc import Callable, Sequence
from typing import Any, SupportsIndex

MATE: int
MATE_BOUND: int
INF: int
MAX_PLY: int
PV_MAX: int
ASPIRATION_WINDOW: int
ASPIRATION_DEPTH: int
DEADLINE_SHARE: float
MAX_CAPS: int
NO_MOVES: int
MAN: int
KING_FLYING: int
KING_SHORT: int
KING_SHORT_SAFE: int
BACK_GUARD: int
BACK_GUARD_VS_KINGS: int
CENTRE: int
MOBILITY: int
BALANCE: int
TEMPO: int
MAIN_DIAGONAL: int
DOUBLE_CORNER: int
CHASE: int
RUNAWAY_ROWS: int
RUNAWAY_STEP: int
EGDB_MAX_PIECES: int
EGDB_MAX_PIECES_10X10: int
MAX_MOVETIME: int
MAX_CLOCK: int
MAX_MOVES_TO_GO: int
MAX_GAME_PLY: int
TERMS: int

def read_weights(rules: Rules, path: str, key: str) -> tuple[int, int, bytes, int, bytes]: ...
def allocate_time(
    remaining: float, increment: float = 0.0, moves_to_go: int = 0, ply: int = 0, /
) -> tuple[float, float]: ...

class Values:
    def __init__(self, move: type, position: type, white: Any, black: Any) -> None: ...
    def apply(self, position: Any, move: Any) -> Any: ...
    def is_progress(self, move: Any) -> bool: ...

class Rules:
    def __init__(
        self,
        size: int,
        flying: bool,
        men_back: bool,
        men_take_kings: bool,
        choice: int,
        promotion: int,
        mandatory: bool,
        label_order: Sequence[int],
        man_rows: int,
        draw_plies: int,
        values: Values,
        *,
        land_behind: bool = False,
        remove_at_once: bool = False,
        orthogonal: bool = False,
        all_squares: bool = False,
        straight: bool = False,
        no_reverse: bool = False,
        losing: bool = False,
        breakthrough: bool = False,
    ) -> None: ...
    def moves(self, position: Any) -> list[Any]: ...
    def raw_captures(self, position: Any) -> list[Any]: ...
    def quiet_moves(self, position: Any) -> list[Any]: ...
    def has_capture(self, position: Any, white: bool) -> bool: ...
    def perft(self, position: Any, depth: int) -> int: ...
    def hash(self, position: Any) -> int: ...
    def end(self, position: Any) -> tuple[Any, str] | None: ...

class Evaluation:
    king_value: int
    start_pieces: int
    pattern_rows: int
    pattern_phases: int
    king_rows: int
    terms: tuple[int, ...]
    def __init__(
        self,
        rules: Rules,
        weights: str | None = None,
        tables: tuple[int, int, bytes] | None = None,
        key: str | None = None,
    ) -> None: ...
    def evaluate(self, position: Any) -> int: ...
    def term_features(self, position: Any) -> tuple[int, ...]: ...

class Engine:
    nodes: int
    def __init__(self, rules: Rules, evaluation: Evaluation, tt_entries: SupportsIndex) -> None: ...
    def search(
        self,
        position: Any,
        history: Sequence[Any],
        depth: int = 0,
        movetime: float = 0.0,
        nodes: int = 0,
        root_scores: bool = False,
        threat_extension: bool = True,
        reduce_sacrifices: bool = True,
        prune_late_moves: bool = True,
        probcut: bool = True,
        *,
        on_info: Callable[[int, int, int, float, list[Any], list[tuple[int, list[Any]]]], None]
        | None = None,
        cpu_time: bool = False,
        remaining: float = 0.0,
        increment: float = 0.0,
        moves_to_go: int = 0,
        ply: int = 0,
        resting_king: int = -1,
    ) -> tuple[Any, int, int, int, float, list[Any], list[tuple[Any, int]]]: ...
    def stop(self) -> None: ...
    def clear(self) -> None: ...
    def tt_used(self) -> int: ...
    def set_egdb(self, db: Egdb | None) -> None: ...

class Egdb:
    pieces: int
    positions: int
    bytes: int
    max_distance: int
    rules_key: str
    classes: tuple[tuple[int, int, int, int], ...]
    def __init__(self, rules: Rules, pieces: int, solve: bool = True) -> None: ...
    def probe(self, position: Any) -> tuple[int, int] | None: ...
    def ready(self, cls: tuple[int, int, int, int]) -> bool: ...
    def values(self, cls: tuple[int, int, int, int]) -> builtins.bytes: ...
    def solve(self, cls: tuple[int, int, int, int]) -> None: ...
    def save(self, cls: tuple[int, int, int, int], path: str | os.PathLike[str]) -> None: ...
    def load(self, cls: tuple[int, int, int, int], path: str | os.PathLike[str]) -> None: ...
    def check(self, cls: tuple[int, int, int, int], path: str | os.PathLike[str]) -> None: ...
