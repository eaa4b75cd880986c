"""Finding tactics puzzles with the engine, and verifying them.

A position is a puzzle when one move wins material or the game by force and no other move
does: the side to move (the solver) has at least two legal moves, and a search of
:attr:`Settings.verify_depth` plies scoring every root move (multi-PV,
:func:`damiera.engine.analysis.analyse`) finds

- the best move winning at least :attr:`Settings.gain` centi-men over the material now on
  the board (men 100, kings :data:`KING_VALUE`), or a won game;
- the second-best move at least :attr:`Settings.margin` centi-men worse, and itself winning
  no more than half of ``gain`` (so there is one way to win, not two).

Finding is cheap first: every position gets a shallow search (:attr:`Settings.screen_depth`
plies, the engine keeping its tables), and only the positions whose shallow score already
says "material is won" are verified with the deeper multi-PV search. The margin and depths,
and how many verified puzzles stay unique at a deeper search, are measured in
``benchmarks/puzzles_results.md`` (``benchmarks/puzzles_bench.py``).

The line (:func:`solution_line`): the solver's move, then the engine's best reply at the
verify depth, then the solver's next move, which must again be the only good one (the only
legal move, or unique by the same margin), until the material is won and the opponent has
no capture left, or the game is won; a line that does not get there within
:attr:`Settings.max_plies` is no puzzle. Every move comes from the rules core.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from damiera.engine import Engine, Limit
from damiera.engine.analysis import Line, analyse
from damiera.engine.search import MATE_BOUND
from damiera.puzzles.model import Puzzle, puzzle_id
from damiera.puzzles.themes import line_themes
from damiera.rules.game import Game
from damiera.rules.movegen import Move, apply_move, has_capture, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Color, Variant

#: A king's worth in men when counting material (centi-men per king).
KING_VALUE = 300
MAN_VALUE = 100
#: A puzzle's line has at least one of these themes (a shot, not a piece left hanging).
COMBINATION = frozenset({"sacrifice", "multi-capture", "breakthrough", "win"})


@dataclass(frozen=True)
class Settings:
    """How puzzles are found: ``screen_depth`` (plies of the shallow search every position
    gets), ``verify_depth`` (plies of the multi-PV search of a candidate and of each move of
    its line; a found puzzle is checked once more two plies deeper), ``gain`` (centi-men the
    solution must win), ``margin`` (centi-men by which the best move must beat the second),
    ``max_plies`` (longest line)."""

    screen_depth: int
    verify_depth: int
    gain: int = 100
    margin: int = 150
    max_plies: int = 21

    @property
    def confirm_depth(self) -> int:
        """Plies of the last check of a found puzzle (two more than ``verify_depth``)."""
        return self.verify_depth + 2

    @property
    def recheck_depth(self) -> int:
        """Plies at which a shipped puzzle is judged again (two more than
        :attr:`confirm_depth`): by the test suite, and by the generator's ``--recheck``,
        which drops the puzzles a changed engine no longer finds unique there."""
        return self.confirm_depth + 2


def settings_for(variant: Variant) -> Settings:
    """The generator's settings for a board (the 10x10 board searches two plies less deep:
    its trees are wider). The values are justified in ``benchmarks/puzzles_results.md``."""
    if variant.board_size >= 10:
        return Settings(screen_depth=4, verify_depth=8)
    return Settings(screen_depth=4, verify_depth=10)


def material(position: Position, color: Color) -> int:
    """``color``'s material minus its opponent's, in centi-men (men 100, kings
    :data:`KING_VALUE`)."""
    def worth(c: Color) -> int:
        kings = position.kings_of(c).bit_count()
        return MAN_VALUE * (position.pieces(c).bit_count() - kings) + KING_VALUE * kings

    return worth(color) - worth(color.opponent)


def is_win(score: int) -> bool:
    """True for a score that is a forced win for the side to move."""
    return score >= MATE_BOUND


@dataclass
class Verdict:
    """The deep search's judgement of a position: ``unique`` (one winning move by the
    margin), ``move`` (the best), ``best`` and ``second`` (scores, side to move's view),
    ``found_depth`` (the shallowest iteration from which the best move was already unique
    and stayed so: how hard the puzzle is to see)."""

    unique: bool
    move: Move | None
    best: int
    second: int
    found_depth: int
    pv: list[Move] = field(default_factory=list)


def new_searcher(variant: Variant) -> Engine:
    """An engine as :func:`damiera.engine.analysis.analyse` makes one (level 3, with the
    endgame database on 8x8), made once and cleared before each judgement: making one costs
    more than most of the searches it does."""
    return Engine(variant, 3)


def judge(variant: Variant, position: Position, depth: int, settings: Settings,
          base: int | None = None, searcher: Engine | None = None) -> Verdict:
    """Search ``position`` ``depth`` plies deep scoring every root move, and say whether one
    move wins by the settings' gain and margin (``base``: the material the gain is counted
    from, default the position's own). The search starts from empty tables each time (a
    ``searcher`` given is cleared first), so the verdict is the same on every run and
    machine."""
    mover = position.turn
    base = material(position, mover) if base is None else base
    history: list[list[Line]] = []
    if searcher is not None:
        searcher.clear()
    lines = analyse(variant, position, multipv=2, depth=depth, on_lines=history.append,
                    engine=searcher)
    if len(lines) < 2:
        return Verdict(False, lines[0].pv[0].raw if lines and lines[0].pv else None,
                       lines[0].score if lines else 0, 0, depth)
    final_move = lines[0].pv[0].raw
    found = depth + 1
    for it in history:
        if len(it) < 2 or not it[0].pv:
            continue
        ok = it[0].pv[0].raw == final_move and wins_alone(it[0].score, it[1].score, base, settings)
        if ok:
            found = min(found, it[0].depth)
        else:
            found = depth + 1
    best, second = lines[0].score, lines[1].score
    return Verdict(wins_alone(best, second, base, settings), final_move, best, second,
                   min(found, depth), [m.raw for m in lines[0].pv])


def wins_alone(best: int, second: int, base: int, settings: Settings) -> bool:
    """The puzzle rule on two root scores (centi-men, side to move's view; ``base``: the
    material now): the best move wins ``gain`` (or the game), the second does not win and
    is at least ``margin`` worse, winning at most half of ``gain``."""
    wins = is_win(best) or best - base >= settings.gain
    if not wins or is_win(second):
        return False
    return best - second >= settings.margin and second - base <= settings.gain // 2


@dataclass
class Finder:
    """Finds puzzles in the positions of games of one variant (keeps a screening engine
    whose tables carry over from position to position). ``final_depth``: plies of a found
    puzzle's last check (0: :attr:`Settings.confirm_depth`)."""

    variant: Variant
    settings: Settings
    variant_key: str
    final_depth: int = 0
    screens: int = 0
    candidates: int = 0
    verified: int = 0
    puzzles: int = 0

    def __post_init__(self) -> None:
        self.seen: set[Position] = set()
        self._engine = Engine(self.variant, level=3)
        self._searcher = new_searcher(self.variant)

    def remember(self, position: Position) -> None:
        """Note a position as screened (the set is emptied past a million positions)."""
        if len(self.seen) >= 1_000_000:
            self.seen.clear()
        self.seen.add(position)

    def screen_score(self, position: Position) -> int | None:
        """The shallow search's score of ``position`` (side to move's view), or None when
        the game is over there."""
        self.screens += 1
        game = Game(self.variant, position)
        if game.outcome() is not None:
            return None
        return self._engine.analyse(game, Limit(depth=self.settings.screen_depth)).score

    def screen(self, position: Position, score: int, before: int | None) -> bool:
        """The cheap test of a position whose shallow ``score`` is known (``before``: the
        shallow score of the position a ply earlier, from its own mover's view, None when
        unknown): at least two legal moves; the score wins material; and it jumped by as
        much since the ply before (the opponent's last move let the shot in; an exchange
        under way was already in the score before)."""
        if len(legal_moves(self.variant, position)) < 2:
            return False
        gain = self.settings.gain
        base = material(position, position.turn)
        if not (is_win(score) or score - base >= gain):
            return False
        return before is None or is_win(score) or score + before >= gain

    def puzzle_at(self, position: Position, before: int | None = None) -> Puzzle | None:
        """The puzzle of ``position``, or None (screened, then verified, then its line);
        ``before``: the shallow score of the position a ply earlier (:meth:`screen`)."""
        score = self.screen_score(position)
        if score is None or not self.screen(position, score, before):
            return None
        return self.verify(position)

    @property
    def confirm_plies(self) -> int:
        """Plies of :meth:`confirm`'s search: :attr:`final_depth`, or when that is 0 two
        plies deeper than the verification (:attr:`Settings.confirm_depth`)."""
        return self.final_depth or self.settings.confirm_depth

    def confirm(self, position: Position, move: Move) -> bool:
        """The last check of a found puzzle: :attr:`confirm_plies` deep, ``move`` is still
        the only winning move."""
        verdict = judge(self.variant, position, self.confirm_plies, self.settings,
                        searcher=self._searcher)
        return verdict.unique and verdict.move == move

    def verify(self, position: Position) -> Puzzle | None:
        """The puzzle of a screened candidate, or None: a multi-PV search two plies deeper
        than the screen first (a position where two moves already win a man there is
        dropped: most candidates are, and so is one whose expected line shows no
        combination), then the deep search and the line."""
        self.candidates += 1
        base = material(position, position.turn)
        early = judge(self.variant, position, self.settings.screen_depth + 2, self.settings,
                      searcher=self._searcher)
        if is_win(early.second) or early.second - base > self.settings.gain:
            return None                              # two moves win already: not unique
        if not _combination_ahead(self.variant, position, early.pv):
            return None                              # the expected line is no shot
        verdict = judge(self.variant, position, self.settings.verify_depth, self.settings,
                        searcher=self._searcher)
        if not verdict.unique or verdict.move is None:
            return None
        line = solution_line(self.variant, position, verdict.move, self.settings,
                             self._searcher)
        if line is None:
            return None
        if not self.confirm(position, verdict.move):
            return None
        self.verified += 1
        moves, forced_choices = line
        fen = write_fen(self.variant, position)
        themes = line_themes(self.variant, position, moves)
        if not COMBINATION.intersection(themes):
            return None                              # a piece left hanging: no shot
        if themes_say_only_crowning(themes, moves[0][1]):
            return None                              # a man one step from the crown
        self.puzzles += 1
        return Puzzle(puzzle_id(self.variant_key, fen), self.variant_key, fen,
                      tuple(move_text(self.variant, m) for _, m in moves),
                      starting_rating(verdict, moves, forced_choices), themes)


def _combination_ahead(variant: Variant, position: Position, pv: list[Move]) -> bool:
    """Whether the expected line (a principal variation from ``position``) has a
    combination's theme (:data:`COMBINATION`) in its first plies: a cheap look before the
    deep search, which most positions where a piece is just left hanging do not pass."""
    line: list[tuple[Position, Move]] = []
    pos = position
    for move in pv[:9]:
        if move not in legal_moves(variant, pos):
            break
        line.append((pos, move))
        pos = apply_move(pos, move)
    if not line:
        return True
    themes = line_themes(variant, position, line)
    return bool(COMBINATION.intersection(themes)) and not themes_say_only_crowning(
        themes, line[0][1])


def themes_say_only_crowning(themes: tuple[str, ...], first: Move) -> bool:
    """True when the line's only combination is that its first move crowns a man (no
    puzzle: there is nothing to see)."""
    return COMBINATION.intersection(themes) == {"breakthrough"} and first.promotes


def solution_line(variant: Variant, position: Position, first: Move, settings: Settings,
                  searcher: Engine | None = None,
                  ) -> tuple[list[tuple[Position, Move]], int] | None:
    """The puzzle's whole line from ``position`` after the solver's ``first`` move: a list
    of ``(position before, move)``, solver and replies alternating, and how many of the
    solver's later moves were choices (not the only legal move); None when the material is
    not won within ``settings.max_plies`` or a later solver move is not unique."""
    solver = position.turn
    base = material(position, solver)
    line: list[tuple[Position, Move]] = []
    choices = 0
    pos = position
    move: Move | None = first
    while len(line) < settings.max_plies:
        assert move is not None
        line.append((pos, move))
        pos = apply_move(pos, move)
        replies = legal_moves(variant, pos)
        if not replies:
            return line, choices                    # the opponent has no move: won
        if material(pos, solver) - base >= settings.gain and not has_capture(variant, pos):
            return line, choices
        reply = _best(variant, pos, settings.verify_depth, searcher)
        line.append((pos, reply))
        pos = apply_move(pos, reply)
        mine = legal_moves(variant, pos)
        if not mine:
            return None                              # the solver lost: not a puzzle
        if len(mine) == 1:
            move = mine[0]
            continue
        verdict = judge(variant, pos, settings.verify_depth, settings, base=base,
                        searcher=searcher)
        if not verdict.unique or verdict.move is None:
            return None
        choices += 1
        move = verdict.move
    return None


def _best(variant: Variant, position: Position, depth: int,
          searcher: Engine | None) -> Move:
    moves = legal_moves(variant, position)
    if len(moves) == 1:
        return moves[0]
    if searcher is not None:
        searcher.clear()
    lines = analyse(variant, position, depth=depth, engine=searcher)
    return lines[0].pv[0].raw


def starting_rating(verdict: Verdict, line: list[tuple[Position, Move]], choices: int) -> int:
    """A puzzle's rating before anyone tried it: 900, plus 90 for every ply of search it
    took to see the move (the verdict's ``found_depth``), 120 for each later move of the
    solver that is a choice, 60 when the first move is not a capture (a quiet sacrifice is
    harder to see), 30 a solver move past the first; between 700 and 2500. Glicko-2
    corrects it from the attempts."""
    first = line[0][1]
    solver_moves = (len(line) + 1) // 2
    rating = (900 + 90 * verdict.found_depth + 120 * choices
              + (60 if not first.captures else 0) + 30 * (solver_moves - 1))
    return max(700, min(2500, rating))


def find_in_game(finder: Finder, positions: list[Position],
                 on_puzzle: Callable[[Puzzle], None] | None = None) -> list[Puzzle]:
    """Puzzles one move away from a game's positions: for each position, every position its
    side to move could have reached (the move played and the others: each a position where
    that side may have just let a shot in, its shallow score compared with the parent's),
    at most one puzzle per parent. Positions already screened (in any game) are skipped."""
    found: list[Puzzle] = []
    v = finder.variant
    for parent in positions:
        before = finder.screen_score(parent)
        if before is None:
            break
        for move in legal_moves(v, parent):
            child = apply_move(parent, move)
            if child in finder.seen:
                continue
            finder.remember(child)
            puzzle = finder.puzzle_at(child, before)
            if puzzle is not None:
                found.append(puzzle)
                if on_puzzle is not None:
                    on_puzzle(puzzle)
                break
    return found
