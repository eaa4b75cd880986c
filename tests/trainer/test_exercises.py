"""The rules trainer's exercises: each answer depends on the rule it drills (the same
position under the rule set without that rule gives another answer) and on no other drilled
rule, answers come from the rules core, ids name exactly one exercise, sessions mix rules and
offer missed ones first."""

from __future__ import annotations

import dataclasses
import random

import pytest

from damiera.rules.movegen import legal_moves
from damiera.rules.position import parse_fen
from damiera.rules.variant import VARIANTS, CaptureChoice, PromotionDuringCapture, Variant, variant
from damiera.trainer.exercises import Exercise, ExerciseError, exercises_at, parse_id
from damiera.trainer.pool import catalogue, find, pool, session
from damiera.trainer.rules import RULE_PARAMS, contrasts

RULE_SETS = [variant(v) for v in VARIANTS] + [
    variant(v, optional_capture=True) for v, r in VARIANTS.items() if r.board_size == 8]


def _name(v: Variant) -> str:
    return v.id + ("+optional" if v.optional_capture else "")


def switched_off(v: Variant, param: str) -> Variant:
    """The rule set without rule ``param``, written out here independently of
    damiera.trainer.rules: a yes/no rule the other way, a capture-choice rule off (free
    choice; free choice against the majority rule), a promotion that stops against one
    that goes on as a king, and the others against one that stops."""
    value = getattr(v, param)
    if isinstance(value, bool):
        return dataclasses.replace(v, **{param: not value})  # type: ignore[arg-type]
    if param == "capture_choice":
        return dataclasses.replace(v, capture_choice=CaptureChoice.MAJORITY
                                   if value is CaptureChoice.FREE else CaptureChoice.FREE)
    stop = PromotionDuringCapture.PROMOTE_AND_STOP
    return dataclasses.replace(v, promotion_during_capture=(
        PromotionDuringCapture.PROMOTE_AND_CONTINUE if value is stop else stop))


def expected_answer(e: Exercise, v: Variant) -> object:
    """The answer of ``e`` under ``v``, computed here from the legal moves alone."""
    legal = legal_moves(v, e.position)
    if e.kind in ("capture", "promotion"):
        return {(m.start, m.end, m.captured) for m in legal if m.captures}
    if e.kind == "destinations":
        return {m.end for m in legal if m.start == e.focus[0]}
    if e.kind == "legal":
        keys = {(m.start, m.end, m.captured) for m in legal}
        return any(m.path == e.focus and (m.start, m.end, m.captured) in keys
                   for m in e.candidates())
    return e.position.turn.opponent.word if not legal else "none"


@pytest.mark.parametrize("v", RULE_SETS, ids=_name)
def test_every_exercise_answer_changes_when_its_rule_is_switched_off(v: Variant) -> None:
    exercises = catalogue(v)
    # Frysk!'s five men a side reach fewer of the 10x10 pool's positions than the others
    assert len(exercises) >= (100 if v.men_per_side > 5 else 50), \
        "the pool gives every rule set many exercises"
    kinds = {"destinations", "legal"} | ({"capture"} if v.mandatory_capture else set())
    assert {e.kind for e in exercises} >= kinds
    for e in exercises:
        here = expected_answer(e, v)
        without = expected_answer(e, switched_off(v, e.param))
        assert here != without, (e.id, e.param)
        assert e.answer() == (frozenset(here) if isinstance(here, set) else here), e.id


@pytest.mark.parametrize("v", RULE_SETS, ids=_name)
def test_no_other_rule_switched_off_changes_an_exercise_answer(v: Variant) -> None:
    """The rule the page names is the only one to blame for a wrong answer: in Italian, a
    question of which capture to take is not one of compulsory capture, since the majority
    rule decides among the captures."""
    for e in catalogue(v):
        here = expected_answer(e, v)
        for param in RULE_PARAMS:
            if param != e.param:
                assert expected_answer(e, switched_off(v, param)) == here, (e.id, param)


@pytest.mark.parametrize("v", RULE_SETS, ids=_name)
def test_sessions_have_ten_exercises_of_several_rules_and_kinds(v: Variant) -> None:
    chosen = session(v, random.Random(7))
    assert len(chosen) == 10
    assert len({e.index for e in chosen}) == 10          # no position twice
    assert len({e.param for e in chosen}) >= 3
    assert len({e.kind for e in chosen}) >= 2


def test_the_rules_a_player_missed_come_first() -> None:
    italian = variant("italian")
    chosen = session(italian, random.Random(3), again=["men_capture_kings"])
    assert sum(e.param == "men_capture_kings" for e in chosen) >= 2
    plain = session(italian, random.Random(3))
    assert (sum(e.param == "men_capture_kings" for e in chosen)
            >= sum(e.param == "men_capture_kings" for e in plain))


def test_an_exercise_id_names_one_exercise_and_is_rebuilt_from_it() -> None:
    czech = variant("czech")
    for e in catalogue(czech)[:200]:
        assert find(czech, e.id) == e


@pytest.mark.parametrize("bad", [
    "", "capture", "capture:1:no_rule:", "dance:1:flying_kings:", "capture:x:flying_kings:",
    "legal:1:flying_kings:1-a", "capture:99999999:flying_kings:", "x" * 500,
    "legal:1:flying_kings:" + "-".join(["1"] * 40),
])
def test_bad_exercise_ids_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(ExerciseError):
        parse_id(bad)
        find(variant("italian"), bad)


def test_an_id_whose_rule_does_not_decide_the_position_is_refused() -> None:
    italian = variant("italian")
    e = next(x for x in catalogue(italian) if x.param == "men_capture_kings")
    russian = variant("russian")   # men take kings there too, but nothing else differs
    other = [x for x in exercises_at(russian, e.index, e.position)
             if (x.kind, x.param, x.focus) == (e.kind, e.param, e.focus)]
    if not other:
        with pytest.raises(ExerciseError):
            find(russian, e.id)


def test_italian_men_may_not_take_kings_decides_a_capture_exercise() -> None:
    """A hand-made position: White's man on 23 could jump the black king on 19 only where
    men take kings; in Italian draughts it may take only the man on 18 (from 22), so the
    legal moves differ with the rule switched off."""
    italian = variant("italian")
    position = parse_fen(italian, "W:W22,23:B18,K19,3")
    e = next((x for x in exercises_at(italian, 0, position) if x.param == "men_capture_kings"),
             None)
    assert e is not None
    assert e.answer() != e.answer(contrasts(italian, "men_capture_kings")[0])


def test_contrasts_change_only_the_rule_drilled() -> None:
    for v in RULE_SETS:
        for param in RULE_PARAMS:
            for c in contrasts(v, param):
                changed = [f.name for f in dataclasses.fields(v)
                           if getattr(v, f.name) != getattr(c, f.name)]
                assert changed == [param]


def test_the_pools_are_real_positions_of_both_boards() -> None:
    assert len(pool(8)) >= 300 and len(pool(10)) >= 100
    for positions in (pool(8), pool(10)):
        assert all(p.white and p.black for p in positions)
        assert len(set(positions)) == len(positions)


def test_thai_exercises_use_only_positions_thai_can_reach() -> None:
    """The 8x8 pool holds positions of twelve men a side; Thai draughts starts with eight, so
    its exercises come from the positions it can reach (each one a legal Thai FEN)."""
    from damiera.rules.position import check_position

    thai = variant("thai")
    exercises = catalogue(thai)
    assert exercises
    for e in exercises:
        check_position(thai, e.position)
    crowded = next(i for i, p in enumerate(pool(8)) if p.white.bit_count() > 8)
    with pytest.raises(ExerciseError):
        find(thai, f"legal:{crowded}:capture_choice:")
