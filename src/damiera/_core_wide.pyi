# damiera._core_wide: the same C sources as damiera._core built with 128-bit board words
# (csrc/position.h, -DDAMIERA_WIDE) for the boards of more than 64 bits (12x12); the same
# classes, functions and constants (MAX_CAPS is 30 here).
from damiera._core import (
    ASPIRATION_DEPTH as ASPIRATION_DEPTH,
)
from damiera._core import (
    ASPIRATION_WINDOW as ASPIRATION_WINDOW,
)
from damiera._core import (
    BACK_GUARD as BACK_GUARD,
)
from damiera._core import (
    BACK_GUARD_VS_KINGS as BACK_GUARD_VS_KINGS,
)
from damiera._core import (
    BALANCE as BALANCE,
)
from damiera._core import (
    CENTRE as CENTRE,
)
from damiera._core import (
    CHASE as CHASE,
)
from damiera._core import (
    DEADLINE_SHARE as DEADLINE_SHARE,
)
from damiera._core import (
    DOUBLE_CORNER as DOUBLE_CORNER,
)
from damiera._core import (
    EGDB_MAX_PIECES as EGDB_MAX_PIECES,
)
from damiera._core import (
    EGDB_MAX_PIECES_10X10 as EGDB_MAX_PIECES_10X10,
)
from damiera._core import (
    INF as INF,
)
from damiera._core import (
    KING_FLYING as KING_FLYING,
)
from damiera._core import (
    KING_SHORT as KING_SHORT,
)
from damiera._core import (
    KING_SHORT_SAFE as KING_SHORT_SAFE,
)
from damiera._core import (
    MAIN_DIAGONAL as MAIN_DIAGONAL,
)
from damiera._core import (
    MAN as MAN,
)
from damiera._core import (
    MATE as MATE,
)
from damiera._core import (
    MATE_BOUND as MATE_BOUND,
)
from damiera._core import (
    MAX_CAPS as MAX_CAPS,
)
from damiera._core import (
    MAX_CLOCK as MAX_CLOCK,
)
from damiera._core import (
    MAX_GAME_PLY as MAX_GAME_PLY,
)
from damiera._core import (
    MAX_MOVES_TO_GO as MAX_MOVES_TO_GO,
)
from damiera._core import (
    MAX_MOVETIME as MAX_MOVETIME,
)
from damiera._core import (
    MAX_PLY as MAX_PLY,
)
from damiera._core import (
    MOBILITY as MOBILITY,
)
from damiera._core import (
    NO_MOVES as NO_MOVES,
)
from damiera._core import (
    PV_MAX as PV_MAX,
)
from damiera._core import (
    RUNAWAY_ROWS as RUNAWAY_ROWS,
)
from damiera._core import (
    RUNAWAY_STEP as RUNAWAY_STEP,
)
from damiera._core import (
    TEMPO as TEMPO,
)
from damiera._core import (
    TERMS as TERMS,
)
from damiera._core import (
    Egdb as Egdb,
)
from damiera._core import (
    Engine as Engine,
)
from damiera._core import (
    Evaluation as Evaluation,
)
from damiera._core import (
    Rules as Rules,
)
from damiera._core import (
    Values as Values,
)
from damiera._core import (
    allocate_time as allocate_time,
)
from damiera._core import (
    read_weights as read_weights,
)
