"""Elo statistics of a match (:mod:`damiera.engine.match`): the score of a W/D/L record,
the Elo difference it gives and its 95% interval (:func:`elo_stats`), and the same interval
with the pair of games from one opening as the unit (:func:`pair_stats`)."""

from __future__ import annotations

import math


def _elo(score: float) -> float:
    """Elo difference for a score fraction; -inf at 0 and +inf at 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0" for an even score


def elo_stats(wins: int, draws: int, losses: int) -> tuple[float, float, float, float]:
    """``(score, elo, elo_low, elo_high)`` for a W/D/L record.

    ``score`` is the raw score fraction. ``elo`` is the point estimate; a score of 0% or 100%
    would be infinite, so for it alone the score is moved half a game in ``n + 1`` from the
    edge (``1 / (2n + 2)``): 1-0 gives +191, 40-0 gives +763.

    The 95% interval ``elo_low .. elo_high`` comes from the raw score, never from that clamp:
    it is the Wilson score interval of the score fraction (which stays honest at 0%, 100% and
    in small samples), widened to score +- 1.96 standard errors of the per-game scores (which
    count draws right) on each side where that normal bound stays strictly inside 0..1.
    Bounds are mapped to Elo; a bound at 0% or 100% is infinite (``-inf`` / ``+inf``): a
    100% result has ``elo_low < elo`` and ``elo_high == +inf``. Raises ValueError for no
    games."""
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games played")
    z = 1.96
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    se = math.sqrt(var / n)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo_s = 0.0 if losses == n else centre - half
    hi_s = 1.0 if wins == n else centre + half
    if 0.0 < score - z * se < lo_s:
        lo_s = score - z * se
    if hi_s < score + z * se < 1.0:
        hi_s = score + z * se
    if lo_s < 1e-12:
        lo_s = 0.0
    if hi_s > 1.0 - 1e-12:
        hi_s = 1.0
    eps = 0.5 / (n + 1)
    mid = min(max(score, eps), 1 - eps)
    return score, _elo(mid), _elo(lo_s), _elo(hi_s)


#: Fewest complete pairs for an interval from pairs (:func:`pair_stats`).
MIN_PAIRS = 10
#: Pairs added to each of the five outcomes when :func:`pair_stats` estimates the spread of
#: the pair scores (never their mean).
PAIR_PRIOR = 0.5


def pair_stats(pair_points: list[float]) -> tuple[list[int], float | None, float | None]:
    """``(counts, elo_low, elo_high)`` of a match played in pairs (one opening, each player
    once with each colour), from ``pair_points``: the first player's points in each complete
    pair (0, 0.5, 1, 1.5 or 2).

    ``counts``: how many pairs gave the first player 0, 0.5, 1, 1.5 and 2 points (the
    pentanomial of the pairs). ``elo_low .. elo_high``: the 95% interval of the Elo
    difference with the pair as the unit: the mean pair score (a fraction of 2 points) +-
    1.96 standard errors. The two games of a pair share their opening, so they are not
    independent: an opening one side wins whoever plays it adds the same to both players,
    and the interval from pairs counts it once, where :func:`elo_stats`, game by game, does
    not. The spread of the pair scores is estimated with :data:`PAIR_PRIOR` pairs added to
    each outcome, so that a match whose pairs all scored alike (every pair 2-0, or 1-1) still
    has an interval of a sensible width rather than none. A bound at or beyond 0% or 100% is
    infinite (a 100% result: ``elo_low`` finite, ``elo_high`` +inf). None for both with fewer
    than :data:`MIN_PAIRS` pairs. ValueError for points other than those five."""
    counts = [0] * 5
    for p in pair_points:
        k = round(p * 2)
        if not 0 <= k <= 4 or k != p * 2:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {p}")
        counts[k] += 1
    n = len(pair_points)
    if n < MIN_PAIRS:
        return counts, None, None
    mean = sum(k * c for k, c in enumerate(counts)) / 4 / n
    spread = sum((c + PAIR_PRIOR) * (k / 4 - mean) ** 2 for k, c in enumerate(counts))
    se = math.sqrt(spread / (n + 5 * PAIR_PRIOR - 1) / n)
    return counts, _elo(mean - 1.96 * se), _elo(mean + 1.96 * se)
