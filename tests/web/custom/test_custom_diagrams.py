"""The diagrams of custom rule sets' pages, checked against the rules core like the named
pages' diagrams: every claim of every diagram, for every value of every rule field and for
random rule sets."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damiera.rules.custom import FIELDS, CustomRuleError, default_fields, write_custom
from damiera.rules.variant import VARIANTS, custom_fields, variant
from damiera.web.custom.diagrams import custom_diagrams
from damiera.web.rules_pages.diagram_model import Claim
from tests.rules.test_custom import _EVERY_VALUE, _PREREQUISITES, _playable
from tests.rules_pages.test_diagrams import check_diagram


def _problems(v_id: str) -> list[str]:
    v = variant(v_id)
    diagrams = custom_diagrams(v)
    assert [d.section for d in diagrams] == sorted(
        (d.section for d in diagrams),
        key=("setup", "moves", "captures", "choice", "promotion", "end").index)
    return [f"{d.id}: {p}" for d in diagrams for p in check_diagram(d)]


@pytest.mark.parametrize(("name", "value"), _EVERY_VALUE,
                         ids=[f"{n}={v}" for n, v in _EVERY_VALUE])
def test_every_diagram_holds_for_every_field_value(name: str, value: object) -> None:
    assert _problems(write_custom(_playable(name, value))) == []


@pytest.mark.parametrize("named", list(VARIANTS))
def test_every_diagram_holds_with_each_named_rule_sets_parameters(named: str) -> None:
    assert _problems(write_custom(custom_fields(VARIANTS[named]))) == []


@settings(max_examples=60, deadline=None)
@given(st.fixed_dictionaries({f.name: st.sampled_from(f.values) for f in FIELDS}))
def test_every_diagram_holds_for_random_rule_sets(fields: dict[str, object]) -> None:
    try:
        text = write_custom(fields)
    except CustomRuleError:
        return
    assert _problems(text) == []


def test_the_diagrams_show_the_rule_that_differs() -> None:
    plain = {d.id for d in custom_diagrams(variant(write_custom(default_fields())))}
    assert {"custom-men-forward", "custom-crowned-stop", "custom-free-choice"} <= plain
    flying = write_custom({**default_fields(), "flying_kings": True, "king_lands_behind": True,
                           "capture_choice": "majority", "losing": True,
                           "remove_captured_at_once": True})
    ids = {d.id for d in custom_diagrams(variant(flying))}
    assert {"custom-land-behind", "custom-most-pieces", "custom-losing",
            "custom-removed-at-once"} <= ids
    assert _problems(flying) == []


def test_a_wrong_claim_in_a_custom_diagram_is_caught() -> None:
    d = next(d for d in custom_diagrams(variant("custom:1")) if d.id == "custom-men-forward")
    backward = d.claims[1].move  # refused: men capture forward only
    wrong = dataclasses.replace(d, claims=(Claim("legal", moves=(backward,)),))
    assert check_diagram(wrong)
    # the same position under a rule set whose men capture backward makes it legal
    back = write_custom({**default_fields(), "men_capture_backward": True})
    assert check_diagram(dataclasses.replace(wrong, variant=back)) == []


def test_a_flying_king_turning_back_after_each_landing_is_one_move() -> None:
    """Found by the random rule sets: taking the far piece first, the king may turn back
    from any landing, and those captures (same start, end and pieces) are one move."""
    flying = write_custom({**default_fields(), "flying_kings": True,
                           "remove_captured_at_once": True})
    assert _problems(flying) == []


def test_every_diagram_holds_for_every_pair_of_field_values() -> None:
    """Each two rule values together (with what they need), so that rules that meet in a
    diagram are met deterministically, not only by the random rule sets."""
    seen: set[str] = set()
    problems: list[str] = []
    for i, (name, value) in enumerate(_EVERY_VALUE):
        for other, other_value in _EVERY_VALUE[i + 1:]:
            fields = default_fields()
            fields.update(_PREREQUISITES.get((name, value), {}))
            fields.update(_PREREQUISITES.get((other, other_value), {}))
            fields[name], fields[other] = value, other_value
            try:
                text = write_custom(fields)
            except CustomRuleError:
                continue
            if text not in seen:
                seen.add(text)
                problems += _problems(text)
    assert len(seen) > 400 and problems == []
