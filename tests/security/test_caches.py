"""Bounded caches: equal variants share one entry, and every cache is capped, so a new
Variant object per game (1,000 house-rule games) does not grow memory."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from damiera.engine import egdb, egdb_files
from damiera.rules import movegen
from damiera.rules.custom import write_custom
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


def test_custom_rule_sets_differing_only_in_name_share_the_core_and_the_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(egdb, "_DATABASES", OrderedDict())
    first = variant("custom:1:Club 0")
    db = egdb.endgame_database(first, 2)
    before = len(movegen._BY_VALUE)
    for i in range(1, 300):
        named = variant(f"custom:1:Club {i}")
        assert egdb.endgame_database(named, 2) is db      # not solved again
        legal_moves(named, start_position(named))
    assert len({id(found) for found in egdb._DATABASES.values()}) == 1
    assert len(movegen._BY_VALUE) == before


def test_the_endgame_databases_and_rule_objects_are_capped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(egdb, "_DATABASES", OrderedDict())
    # 8x8 rule sets with different parameters: each its own database (2 pieces: quick).
    rule_sets = [variant(write_custom({"men_capture_backward": back, "flying_kings": flying,
                                       "capture_choice": choice}))
                 for back in (False, True) for flying in (False, True)
                 for choice in ("free", "majority", "king-precedence")]
    assert len({egdb_files.rules_key(v) for v in rule_sets}) == 12 > egdb.MAX_DATABASES
    for v in rule_sets:
        egdb.endgame_database(v, 2)
    assert len(egdb._DATABASES) == egdb.MAX_DATABASES
    for size in (10, 8):
        for rows in range(1, 4):
            for bits in range(32):
                flags = [bool(bits >> k & 1) for k in range(5)]
                try:
                    v = variant(write_custom({
                        "board_size": size, "man_rows": rows, "men_capture_backward": flags[0],
                        "flying_kings": flags[1], "men_capture_kings": flags[2],
                        "remove_captured_at_once": flags[3], "orthogonal_captures": flags[4],
                    }))
                except ValueError:
                    continue
                legal_moves(v, start_position(v))
    assert len(movegen._BY_VALUE) <= movegen._MAX_BY_VALUE


def test_the_endgame_rules_key_is_computed_once_per_rules_and_capped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[object] = []
    real = egdb_files._core.Egdb

    class CountingEgdb:
        def __init__(self, *args: object, **kwargs: object) -> None:
            built.append(args)
            self.rules_key = real(*args, **kwargs).rules_key

    class Core:
        Egdb = CountingEgdb

    egdb_files._rules_key.cache_clear()
    monkeypatch.setattr(egdb_files, "_core", Core)
    keys = {egdb_files.rules_key(variant(f"custom:1:Club {i}")) for i in range(300)}
    assert len(keys) == 1 and len(built) == 1    # one empty database asked, not 300
    assert egdb_files._rules_key.cache_info().maxsize == egdb_files.MAX_RULES_KEYS
    with pytest.raises(ValueError, match="8x8 and 10x10"):
        egdb_files.rules_key(variant("turkish"))
    egdb_files._rules_key.cache_clear()
