"""Which named rule set a custom rule set plays, when it plays one.

A custom rule set whose fields are those of a named rule set (:data:`~damiera.rules.variant.
VARIANTS`), with or without the options optional capture, losing and breakthrough, plays that
rule set's games: same board, notation, first move, start and rules. Fields that change
nothing (:func:`damiera.rules.moot_rules.effective_fields`: breakthrough's king rules) are
compared by the game they play, so a custom set with breakthrough and short kings is
International draughts with breakthrough when its other fields are International's.

The name, the PDN ``GameType`` and the capture separator are not rules: they are not compared.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from damiera.rules.custom import CustomRuleError
from damiera.rules.moot_rules import effective_fields
from damiera.rules.rule_set import RuleOption, Variant
from damiera.rules.variant import VARIANTS, VariantOptionError, custom_fields, with_options


def named_rule_set(v: Variant) -> Variant | None:
    """The named rule set, with its options, whose games ``v`` plays (the first in menu
    order when several would), or None. ``v``: any Variant; a named one is itself."""
    if v.id in VARIANTS:
        return v
    try:
        key = _key(custom_fields(v))
    except CustomRuleError:  # a notation no custom rule set has: no named one either
        return None
    return _table().get(key)


def _key(fields: dict[str, object]) -> tuple[tuple[str, object], ...]:
    return tuple(sorted(effective_fields(fields).items()))


@lru_cache(maxsize=1)
def _table() -> dict[tuple[tuple[str, object], ...], Variant]:
    """Every named rule set with every playable set of options, by its effective fields."""
    table: dict[tuple[tuple[str, object], ...], Variant] = {}
    options = list(RuleOption)
    for base in VARIANTS.values():
        for n in range(len(options) + 1):
            for chosen in combinations(options, n):
                try:
                    v = with_options(base, set(chosen))
                except VariantOptionError:
                    continue
                table.setdefault(_key(custom_fields(v)), v)
    return table
