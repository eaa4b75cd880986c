"""Bounded caches: equal variants share one entry, and every cache is capped, so a new
Variant object per game (1,000 house-rule games) does not grow memory."""

from __future__ import annotations

from damiera.rules import movegen
from damiera.rules.movegen import legal_moves
from damiera.rules.position import start_position
from damiera.rules.variant import variant
from damiera.web import computer


def test_movegen_tables_stay_bounded_over_1000_house_rule_variants() -> None:
    for _ in range(1000):
        v = variant("american", optional_capture=True)     # a new object each time
        legal_moves(v, start_position(v))
    before = len(movegen._BY_VALUE)
    for _ in range(1000):
        v = variant("american", optional_capture=True)
        legal_moves(v, start_position(v))
    assert len(movegen._RULES) <= movegen._MAX_IDENTITIES
    assert len(movegen._BY_VALUE) == before   # equal variants share one native rule object


def test_web_players_are_shared_by_equal_variants_and_capped() -> None:
    computer._players.clear()
    first = computer._player(variant("american", optional_capture=True), 1)
    for _ in range(1000):
        assert computer._player(variant("american", optional_capture=True), 1) is first
    assert len(computer._players) == 1
    for vid in ("american", "italian", "czech", "russian", "brazilian", "spanish",
                "international"):
        for level in (1, 2, 3):
            computer._player(variant(vid), level)
    assert len(computer._players) == computer.MAX_PLAYERS
    computer._players.clear()
