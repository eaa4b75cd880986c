"""Custom rule sets: the canonical ``custom:`` id (every field value written and read back,
the refusals with their reasons, the length bound) and that a custom rule set with a named
one's parameters plays exactly its legal moves."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damiera
from damiera.rules.custom import (
    BOARD_STYLES,
    CUSTOM_PREFIX,
    DEFAULT_NAME,
    FIELDS,
    MAX_CUSTOM_ID,
    MAX_NAME,
    CustomRuleError,
    check_fields,
    default_fields,
    read_custom,
    write_custom,
)
from damiera.rules.game import Game
from damiera.rules.variant import (
    VARIANTS,
    RuleOption,
    Variant,
    custom_fields,
    custom_variant,
    variant,
    with_options,
)

#: What a field's value needs to be playable at all (the other fields set so that the
#: combination is allowed).
_PREREQUISITES: dict[tuple[str, object], dict[str, object]] = {
    ("king_lands_behind", True): {"flying_kings": True},
    ("promotion_during_capture", "pass-through"): {"men_capture_backward": True},
    ("man_rows", 4): {"board_size": 10},
    ("mandatory_capture", False): {"board_size": 8},
    ("no_reverse_capture", True): {"remove_captured_at_once": True},
    ("back_rows_empty", 1): {"man_rows": 2},
}


def _playable(name: str, value: object) -> dict[str, object]:
    fields = default_fields()
    fields.update(_PREREQUISITES.get((name, value), {}))
    fields[name] = value
    return fields


#: Values refused alone (tests of check_fields show them): 12x12, five rows.
_REFUSED_VALUES = (("board_size", 12), ("man_rows", 5))
_EVERY_VALUE = [(f.name, value) for f in FIELDS for value in f.values
                if (f.name, value) not in _REFUSED_VALUES]


@pytest.mark.parametrize(("name", "value"), _EVERY_VALUE,
                         ids=[f"{n}={v}" for n, v in _EVERY_VALUE])
def test_every_field_value_is_written_and_read_back(name: str, value: object) -> None:
    fields = _playable(name, value)
    text = write_custom(fields, "Club rules")
    back, club, canonical = read_custom(text)
    assert back == fields and club == "Club rules" and canonical == text
    v = variant(text)
    assert v.full_id == v.id == text and v.name == "Club rules"
    assert custom_fields(v) == fields
    if name not in ("board",):
        plain = getattr(v, name)
        assert (plain.value if hasattr(plain, "value") else plain) == value


def test_the_default_code_is_the_version_alone_and_trailing_defaults_are_not_written() -> None:
    assert write_custom(default_fields()) == "custom:1"
    assert read_custom("custom:10000")[2] == "custom:1"
    v = variant("custom:1")
    assert v.name == DEFAULT_NAME and v.board_size == 8 and v.pdn_gametype == ""


def test_reading_ignores_the_case_of_prefix_and_code_and_keeps_the_name() -> None:
    text = write_custom(custom_fields(VARIANTS["international"]), "Éclair")
    assert variant("  " + text.upper().replace("ÉCLAIR", "Éclair") + " ").full_id == text


@pytest.mark.parametrize(("fields", "code", "words"), [
    ({"man_rows": 4}, "rows", "at most 3 rows"),
    ({"board_size": 10, "man_rows": 5}, "rows", "at most 4 rows"),
    ({"king_lands_behind": True}, "land-behind-short-king", "only when kings fly"),
    ({"board_size": 10, "man_rows": 4, "mandatory_capture": False}, "optional-capture-10x10",
     "8x8 boards only"),
    ({"losing": True, "breakthrough": True}, "losing-breakthrough", "two different goals"),
    ({"promotion_during_capture": "pass-through"}, "pass-through-forward-men",
     "capturing backward"),
    ({"board_size": 10, "man_rows": 4, "all_squares": True}, "all-squares-8x8",
     "8x8 boards only"),
    ({"all_squares": True, "orthogonal_captures": True}, "all-squares-orthogonal",
     "along rows and columns only"),
    ({"back_rows_empty": 1}, "back-rows", "at most 2 rows"),
    ({"no_reverse_capture": True}, "no-reverse-blocked", "changes nothing unless"),
    ({"breakthrough": True, "men_capture_kings": False}, "breakthrough-kings",
     "men_capture_kings changes nothing"),
    ({"breakthrough": True, "king_quiet_move_limit": 3}, "breakthrough-kings",
     "king_quiet_move_limit changes nothing"),
    ({"breakthrough": True, "king_ending_draws": ((2, 1, 7), (1, 1, 2))},
     "breakthrough-kings", "king_ending_draws changes nothing"),
    ({"breakthrough": True, "capture_choice": "king-precedence"}, "breakthrough-choice",
     '"king-precedence" is "free"'),
    ({"breakthrough": True, "capture_choice": "italian-priorities"}, "breakthrough-choice",
     '"italian-priorities" is "majority"'),
    ({"breakthrough": True, "capture_choice": "most-pieces-then-kings"}, "breakthrough-choice",
     '"most-pieces-then-kings" is "majority"'),
    ({"breakthrough": True, "capture_choice": "value"}, "breakthrough-choice",
     '"value" is "majority"'),
    ({"breakthrough": True, "flying_kings": True}, "breakthrough-flying",
     "goes on capturing as a king"),
    ({"breakthrough": True, "flying_kings": True, "king_lands_behind": True,
      "men_capture_backward": True, "promotion_during_capture": "pass-through"},
     "breakthrough-flying", "goes on capturing as a king"),
])
def test_impossible_or_meaningless_combinations_are_refused_with_the_reason(
        fields: dict[str, object], code: str, words: str) -> None:
    full = {**default_fields(), **fields}
    with pytest.raises(CustomRuleError, match=words) as caught:
        check_fields(full)
    assert caught.value.code == code
    with pytest.raises(CustomRuleError, match=words):
        write_custom(full)
    # the same combination written by hand in a code is refused when read
    chars = "".join("0123456789"[next(i for i, x in enumerate(f.values)
                                      if x == full[f.name] and type(x) is type(full[f.name]))]
                    for f in FIELDS)
    with pytest.raises(ValueError, match=words):
        variant(CUSTOM_PREFIX + "1" + chars)


@pytest.mark.parametrize(("text", "words"), [
    ("custom:", "starts with its version 1"),
    ("custom:2", "starts with its version 1, not '2'"),
    ("custom:1z", "'z' is no value of board_size"),
    ("custom:1" + "0" * (len(FIELDS) + 1), f"at most {len(FIELDS) + 1} characters"),
    ("custom:1:" + "x" * (MAX_NAME + 1), f"at most {MAX_NAME} characters"),
    ("custom:1:<b>", "not '<'"),
    ("custom:1:a\"b", "not '\"'"),
    ("custom:1:---", "needs a letter or a digit"),
    ("custom:1:" + "e" + "\u0301" * 5, "not"),
])
def test_a_broken_custom_id_is_refused_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(CustomRuleError, match=words):
        variant(text)


def test_the_length_is_bounded_before_anything_is_read() -> None:
    assert MAX_CUSTOM_ID <= 64  # the store's variant column
    with pytest.raises(CustomRuleError, match=f"at most {MAX_CUSTOM_ID} characters"):
        read_custom("custom:1:" + "a" * 10_000)
    with pytest.raises(ValueError, match="at most 120 characters"):
        variant("custom:1:" + "a" * 10_000)
    longest = write_custom({**default_fields(), "board": "thai", "losing": True}, "ä" * MAX_NAME)
    assert len(longest) <= MAX_CUSTOM_ID


def test_a_name_is_cleaned_to_one_canonical_form() -> None:
    assert variant("custom:1:  Club   rules ").full_id == "custom:1:Club rules"
    assert variant("custom:1:Cafe\u0301").name == "Café"  # NFC


def test_options_on_a_custom_rule_set_fold_into_its_code() -> None:
    base = variant("custom:1:Home")
    losing = variant("custom:1:Home+losing")
    assert losing.losing and losing.full_id == write_custom({**default_fields(), "losing": True},
                                                            "Home")
    assert variant("custom:1:Home", optional_capture=True).optional_capture
    assert with_options(losing, set()) == base
    assert with_options(losing, {RuleOption.BREAKTHROUGH}).breakthrough
    ten = custom_variant(write_custom(custom_fields(VARIANTS["international"])))
    with pytest.raises(ValueError, match="8x8"):
        with_options(ten, {RuleOption.OPTIONAL_CAPTURE})
    assert pickle.loads(pickle.dumps(losing)) == losing


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({f.name: st.sampled_from(f.values) for f in FIELDS}),
       st.text(st.sampled_from("abcXYZ 019-.'éжع"), max_size=MAX_NAME))
def test_any_playable_rule_set_round_trips(fields: dict[str, object], name: str) -> None:
    try:
        text = write_custom(fields, name)
    except CustomRuleError as refused:
        if refused.code == "name":  # a name of punctuation alone
            assert not any(c.isalnum() for c in name)
        else:
            with pytest.raises(CustomRuleError):
                check_fields(fields)
        return
    back, _name, canonical = read_custom(text)
    assert back == fields and canonical == text and len(text) <= MAX_CUSTOM_ID
    assert variant(text).full_id == text


def _paths(game: Game) -> set[tuple[str, ...]]:
    return {move.path for move in game.legal_moves}


@pytest.mark.parametrize("named", list(VARIANTS))
def test_a_custom_rule_set_with_a_named_ones_parameters_plays_its_legal_moves(
        named: str) -> None:
    base = VARIANTS[named]
    custom = variant(write_custom(custom_fields(base), f"Like {named}"))
    assert custom.id.startswith(CUSTOM_PREFIX) and custom != base
    rng = random.Random(named)
    for _ in range(6):
        ours, theirs = damiera.Game(custom), damiera.Game(base)
        for _ply in range(80):
            assert _paths(ours) == _paths(theirs)
            if theirs.is_game_over():
                assert ours.is_game_over() and ours.outcome() == theirs.outcome()
                break
            move = rng.choice(theirs.legal_moves)
            theirs.push(move)
            ours.push(("x" if move.captures else "-").join(move.path))
        assert ours.fen == theirs.fen


def test_every_rule_field_of_variant_is_in_the_code() -> None:
    """A rule field added to Variant must get its entry in FIELDS (at the end, the rule as
    before first), or custom rule sets could not choose it and a named rule set using it
    would read back as another."""
    not_rules = {"id", "name", "pdn_gametype", "capture_separator"}
    in_code = {f.name for f in FIELDS} | {k for style in BOARD_STYLES.values() for k in style}
    assert {f.name for f in dataclasses.fields(Variant)} - not_rules - in_code == set()


@pytest.mark.parametrize(("name", "value"), _REFUSED_VALUES[2:])
def test_turkish_rules_are_refused_with_their_reason(name: str, value: object) -> None:
    with pytest.raises(CustomRuleError) as info:
        write_custom({**default_fields(), name: value})
    assert info.value.code == "turkish-rules"


@pytest.mark.parametrize(("field", "value"), [
    ("board_size", "8"), ("board_size", True), ("board_size", 8.0), ("man_rows", 3.0),
    ("man_rows", "3"), ("flying_kings", 1), ("draw_moves_without_progress", 40.0),
    ("king_ending_draws", ((2, 1, "7"), (1, 1, 2))),
    ("king_ending_draws", ((2, 1, True), (1, 1, 2))),
])
def test_write_custom_takes_each_value_only_with_its_own_type(field: str, value: object) -> None:
    with pytest.raises(CustomRuleError) as caught:
        write_custom({field: value})
    assert caught.value.code == "value" and caught.value.params["field"] == field


def test_check_fields_refuses_a_value_of_the_wrong_type_too() -> None:
    with pytest.raises(CustomRuleError, match="board_size cannot be \"8\";"):
        check_fields({**default_fields(), "board_size": "8"})


def test_json_lists_stand_for_the_tables_tuples() -> None:
    assert write_custom({"king_ending_draws": [[2, 1, 7], [1, 1, 2]]}) == write_custom(
        {"king_ending_draws": ((2, 1, 7), (1, 1, 2))})


@pytest.mark.parametrize("name", ["\u3164", "\u115f", "\u3164\u3164 \u3164", "\uffa0", "A\u3164B"])
def test_a_name_of_letters_that_draw_nothing_is_refused(name: str) -> None:
    with pytest.raises(CustomRuleError) as caught:
        write_custom({}, name)
    assert caught.value.code == "name"


def test_hangul_syllables_are_visible_letters() -> None:
    assert write_custom({}, "한국 규칙").endswith(":한국 규칙")
