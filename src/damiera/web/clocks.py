"""Game clocks kept by the server: time controls, charging each move's
time, the flag, and the clock in the game JSON and the PDN.

A timed game stores one JSON object in the ``clock`` column of its row
(:class:`~damiera.web.store.StoredGame`):

``{"base": s, "increment": s, "remaining": {"white": ms, "black": ms}, "turn_started": ISO
time, "after": [{"white": ms, "black": ms}, ...], "stopped": bool}``

``remaining`` is each side's time when the current turn began; the side to move's clock runs
from ``turn_started``. After each move the mover is charged the time since then and gets the
increment (Fischer); ``after[i]`` is both clocks after move ``i`` (for undo and the PDN's
clock comments). The clock runs on the server: a flag falls when the side to move's time is
used up, whether or not a page is open; the next request that loads the game records the
result (:func:`flag_due`, :func:`record_flag`), and no move is accepted after it. A flag
loses, unless the opponent cannot win by any legal series of moves: then the game is drawn
(:func:`damiera.rules.game.flag_result` decides, in the rules core; without a proof within
its node budget the flag loses).

Times come from :func:`now` (tests replace it; nothing here reads the wall clock elsewhere).
"""

from __future__ import annotations

import copy
import re
import threading
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from damiera.engine.search import MAX_CLOCK, MAX_GAME_PLY, allocate_time
from damiera.rules.game import Result, ResultReason, flag_result
from damiera.rules.position import Position
from damiera.rules.variant import Variant, variant
from damiera.web.results import TIME_DRAW_REASON, TIME_REASON, stored_result_text
from damiera.web.store import StoredGame

#: The time controls offered in the menu: label -> (base seconds, increment seconds).
PRESETS: dict[str, tuple[int, int]] = {"5+3": (300, 3), "10+0": (600, 0), "15+10": (900, 10)}
#: Bounds of a custom time control: minutes, increment seconds.
MAX_MINUTES = 180
MAX_INCREMENT = 60
_SPEC = re.compile(r"(\d{1,3})\+(\d{1,3})")


#: Seconds of a side's clock that :func:`move_share` keeps back from the engine's planning:
#: on the server a move costs more than its search (the request, the worker's round trip,
#: two saves), beyond what the engine keeps back for a move's overhead itself; this keeps
#: that cost of a few dozen moves on the clock.
SERVER_RESERVE = 2.0


def now() -> datetime:
    """The server's time (UTC); the one place clocks read it."""
    return datetime.now(UTC)


def parse_time_control(text: str | None) -> tuple[int, int] | None:
    """``"M+S"`` (minutes for the game, seconds added per move) as ``(base seconds,
    increment seconds)``; None, ``""`` or ``"none"``: no clock. Raises ValueError with a
    one-line reason (minutes 1-180, increment 0-60)."""
    if text is None:
        return None
    spec = str(text).strip().replace(" ", "")[:20]
    if spec in ("", "none"):
        return None
    found = _SPEC.fullmatch(spec)
    if not found:
        raise ValueError(f"clock must be 'minutes+seconds' such as '5+3', or 'none', not {spec!r}")
    minutes, increment = int(found.group(1)), int(found.group(2))
    if not 1 <= minutes <= MAX_MINUTES:
        raise ValueError(f"clock minutes must be between 1 and {MAX_MINUTES}, not {minutes}")
    if increment > MAX_INCREMENT:
        raise ValueError(f"clock increment must be at most {MAX_INCREMENT} s, not {increment}")
    return minutes * 60, increment


def new_clock(control: tuple[int, int] | None, at: datetime | None = None,
              played: int = 0) -> dict[str, Any] | None:
    """The stored clock of a new game (None without a time control); the side to move's
    clock starts at ``at`` (default :func:`now`). ``played``: moves the game starts with
    (continued from a record), which cost nothing and earn no increment."""
    if control is None:
        return None
    base, increment = control
    full = {"white": base * 1000, "black": base * 1000}
    return {
        "base": base,
        "increment": increment,
        "remaining": dict(full),
        "turn_started": (at or now()).isoformat(),
        "after": [dict(full) for _ in range(played)],
        "stopped": False,
    }


def label(clock: dict[str, Any]) -> str:
    """``"5+3"``: minutes + increment seconds (a base that is not whole minutes in seconds)."""
    base, inc = int(clock["base"]), int(clock["increment"])
    return f"{base // 60}+{inc}" if base % 60 == 0 else f"{base}s+{inc}"


def turn_of(stored: StoredGame) -> str:
    """The side to move of a stored game ("white"/"black"), from its start and move count."""
    if stored.start_fen:
        first = "black" if stored.start_fen.strip()[:1].upper() == "B" else "white"
    else:
        # the column is a canonical id (options after '+', or a custom rule set's id); the
        # rule set decides who starts
        first = variant(stored.variant).first_to_move.word
    if len(stored.moves) % 2 == 0:
        return first
    return "black" if first == "white" else "white"


def _elapsed_ms(clock: dict[str, Any], at: datetime) -> int:
    started = datetime.fromisoformat(clock["turn_started"])
    return max(0, int((at - started).total_seconds() * 1000))


def live(stored: StoredGame, at: datetime | None = None) -> dict[str, int] | None:
    """Each side's time left now in ms (the running clock charged up to ``at``), or None
    for an untimed game."""
    clock = stored.clock
    if clock is None:
        return None
    left = {side: int(ms) for side, ms in clock["remaining"].items()}
    if not clock.get("stopped") and stored.result_reason is None:
        side = turn_of(stored)
        left[side] = max(0, left[side] - _elapsed_ms(clock, at or now()))
    return left


def move_share(stored: StoredGame, at: datetime | None = None) -> float | None:
    """Seconds the side to move of ``stored`` should spend on its move at most, by its
    clock: the share the engine's clock management plans for an ordinary move (the soft
    time of :func:`damiera.engine.search.allocate_time`) of that side's time left now, with
    the game's increment and the plies played, :data:`SERVER_RESERVE` kept back; None for an
    untimed game or a stopped clock (a game over, or online before its first moves)."""
    left = live(stored, at)
    if left is None or stored.clock is None or stored.clock.get("stopped"):
        return None
    remaining = min(max(0.0, left[turn_of(stored)] / 1000 - SERVER_RESERVE), MAX_CLOCK)
    soft, _ = allocate_time(remaining, float(stored.clock["increment"]),
                            ply=min(len(stored.moves), MAX_GAME_PLY))
    return soft


def flag_due(stored: StoredGame, at: datetime | None = None) -> bool:
    """Whether the side to move has used up its time and the loss is not yet recorded."""
    left = live(stored, at)
    return left is not None and stored.result_reason is None and left[turn_of(stored)] <= 0


_ONE_SEARCH = threading.Lock()


def flag_verdict(variant: Variant, position: Position) -> Result:
    """:func:`damiera.rules.game.flag_result` for the position where the side to move ran
    out of time (a search of up to its node budget: call it in a worker thread). One search
    runs at a time in the process, and the last verdicts are remembered, so requests that
    load the same game at once search it once."""
    with _ONE_SEARCH:
        return _verdict(variant, position)


@lru_cache(maxsize=64)
def _verdict(variant: Variant, position: Position) -> Result:
    return flag_result(variant, position)


def record_flag(stored: StoredGame, result: Result, at: datetime | None = None) -> None:
    """Record that the side to move in ``stored`` ran out of time, with ``result`` (a
    ``TIME`` or ``TIME_NO_WIN`` result: :func:`flag_verdict` of the game's position); the
    caller saves it."""
    assert stored.clock is not None
    assert result.reason in (ResultReason.TIME, ResultReason.TIME_NO_WIN), result
    side = turn_of(stored)
    clock = copy.deepcopy(stored.clock)
    clock["remaining"][side] = 0
    clock["stopped"] = True
    clock["turn_started"] = (at or now()).isoformat()
    stored.clock = clock
    stored.result_winner = result.winner.word if result.winner else None
    stored.result_reason = result.reason.value


def ended_on_time(stored: StoredGame) -> bool:
    """Whether a flag fell in ``stored``: lost on time, or drawn because the opponent
    could not win."""
    return stored.result_reason in (TIME_REASON, TIME_DRAW_REASON)


def charge(stored: StoredGame, movers: list[str], over: bool, at: datetime | None = None) -> None:
    """Bring the clock of ``stored`` up to date before it is saved with ``movers`` (the side
    that played each move of the game, in order) and ``over`` (the game has a result).

    Each move not yet charged costs its mover the time since ``turn_started`` (only the
    first: several at once are the computer's opening reply, which costs nothing more;
    nothing while the clock is stopped: a game online waiting for its players' first moves)
    and earns the increment; fewer moves than charged (an undo) go back to the clocks after the
    last move kept. A finished game's clocks stop."""
    if stored.clock is None:
        return
    at = at or now()
    clock = copy.deepcopy(stored.clock)
    done = clock["after"]
    n = len(movers)
    inc = int(clock["increment"]) * 1000
    if n < len(done):
        del done[n:]
        base = int(clock["base"]) * 1000
        clock["remaining"] = dict(done[-1]) if done else {"white": base, "black": base}
        clock["stopped"] = False
        clock["turn_started"] = at.isoformat()
    for i in range(len(done), n):
        waiting = bool(stored.clock.get("stopped"))    # a game online before it began
        spent = _elapsed_ms(clock, at) if i == len(stored.clock["after"]) and not waiting else 0
        mover = movers[i]
        clock["remaining"][mover] = max(0, int(clock["remaining"][mover]) - spent) + inc
        done.append(dict(clock["remaining"]))
        clock["turn_started"] = at.isoformat()
    if over and not clock.get("stopped"):
        if n == len(stored.clock["after"]):   # ended without a move (resigned, agreed)
            side = turn_of(stored)
            clock["remaining"][side] = max(0, int(clock["remaining"][side]) - _elapsed_ms(clock, at))
        clock["stopped"] = True
    stored.clock = clock


def decorate(stored: StoredGame, data: dict[str, Any]) -> dict[str, Any]:
    """The game JSON with ``clock`` (null for an untimed game; else ``{"label", "base_ms",
    "increment_ms", "white_ms", "black_ms", "running"}``, times left now, ``running`` the
    side whose clock runs or null) and, for a game whose flag fell, its ``result`` (reason
    ``"time"``, or ``"time-opponent-cannot-win"`` with no winner for the draw; and no legal
    moves). ``data`` is not changed (it may be cached)."""
    left = live(stored)
    if left is None or stored.clock is None:
        return data if "clock" in data else {**data, "clock": None}
    clock = stored.clock
    running = None
    if not clock.get("stopped") and stored.result_reason is None:
        running = turn_of(stored)
    out = {
        **data,
        "clock": {
            "label": label(clock),
            "base_ms": int(clock["base"]) * 1000,
            "increment_ms": int(clock["increment"]) * 1000,
            "white_ms": left["white"],
            "black_ms": left["black"],
            "running": running,
        },
    }
    if ended_on_time(stored):
        out["result"] = {"winner": stored.result_winner, "reason": stored.result_reason,
                         "text": stored_result_text(stored)}
        out["legal_moves"] = []
        out["can_undo"] = False
    return out


def _clk(ms: int) -> str:
    seconds = max(0, int(ms)) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def pdn_extras(stored: StoredGame, movers: list[str]) -> tuple[dict[str, str], list[str | None]]:
    """PDN tags and per-move comments of a timed game: ``TimeControl`` (``"300+3"``: seconds
    + increment, as PGN writes it), ``Termination "time forfeit"`` when a flag fell and,
    after each move, ``[%clk h:mm:ss]``: the mover's time left; a game drawn on time says
    why in English after the last move (PDN text is not translated). An untimed game:
    none."""
    clock = stored.clock
    if clock is None:
        return {}, []
    tags = {"TimeControl": f"{int(clock['base'])}+{int(clock['increment'])}"}
    if ended_on_time(stored):
        tags["Termination"] = "time forfeit"
    comments: list[str | None] = []
    for after, mover in zip(clock["after"], movers, strict=False):
        comments.append(f"[%clk {_clk(after[mover])}]")
    if stored.result_reason == TIME_DRAW_REASON and comments:
        flagged = turn_of(stored)
        other = "Black" if flagged == "white" else "White"
        comments[-1] = (f"{comments[-1]} {flagged.capitalize()}'s flag fell, but {other} "
                        "cannot win by any series of legal moves: draw")
    return tags, comments
