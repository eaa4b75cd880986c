"""The engine on custom rule sets: trained weights are keyed by the rule parameters, so a
custom rule set with a named one's rules plays with its weights, and any other with the
hand-made evaluation; the search plays a legal move either way."""

from __future__ import annotations

import pytest

import damiera
from damiera.engine import Engine, Limit
from damiera.engine.evaluate import Evaluator
from damiera.rules.custom import write_custom
from damiera.rules.variant import VARIANTS, custom_fields, variant


@pytest.mark.parametrize("named", ["russian", "international"])
def test_a_custom_rule_set_with_a_named_ones_rules_uses_its_weights(named: str) -> None:
    custom = variant(write_custom(custom_fields(VARIANTS[named]), "Same rules"))
    ours = Evaluator(custom, patterns=True)
    theirs = Evaluator(VARIANTS[named], patterns=True)
    assert theirs.weights_file is not None and ours.weights_file == theirs.weights_file


def test_a_new_combination_is_played_with_the_hand_made_evaluation() -> None:
    custom = variant(write_custom({**custom_fields(VARIANTS["russian"]), "board_size": 10,
                                   "man_rows": 4, "capture_choice": "king-precedence"}))
    assert Evaluator(custom, patterns=True).weights_file is None
    game = damiera.Game(custom)
    with Engine(custom, level=3) as engine:
        played = engine.play(game, Limit(depth=3)).move
    assert played in game.legal_moves
