"""Every rules-page diagram's claims, checked against the rules core.

A diagram whose caption says something the rules core disagrees with (a wrong legal-move set,
a shown move that is illegal or takes other pieces, a refusal for another reason) fails here,
so the pages can never contradict the game. The last tests prove the checker catches a
deliberately wrong claim.
"""

from __future__ import annotations

import dataclasses

import pytest

from damiera.rules.game import Game
from damiera.rules.movegen import legal_moves
from damiera.rules.notation import NotationError, move_labels, parse_move
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
from damiera.web.rules_pages.diagram_model import Claim, Diagram, Shown
from damiera.web.rules_pages.diagrams import all_diagrams


def check_diagram(d: Diagram) -> list[str]:
    """Problems with ``d`` (empty when every claim and the shown move agree with the core)."""
    v = variant(d.variant, optional_capture=d.optional_capture)
    pos = parse_fen(v, d.fen)
    labels = [move_labels(v, m) for m in legal_moves(v, pos)]
    by_text = {str(m["move"]): m for m in labels}
    problems: list[str] = []
    for claim in d.claims:
        if claim.kind == "only_legal_moves":
            if sorted(claim.moves) != sorted(by_text):
                problems.append(f"legal moves are {sorted(by_text)}, not {sorted(claim.moves)}")
        elif claim.kind == "legal":
            missing = [m for m in claim.moves if m not in by_text]
            if missing:
                problems.append(f"{missing} not legal; legal: {sorted(by_text)}")
        elif claim.kind == "ends":
            game = Game(v, pos)
            if claim.move:
                game.play(claim.move)
            outcome = game.outcome()
            found = None if outcome is None else (
                outcome.winner.word if outcome.winner else None, outcome.reason.value)
            if found != (claim.winner, claim.reason_code):
                problems.append(f"after {claim.move or 'nothing'} the game ends {found}, not "
                                f"{(claim.winner, claim.reason_code)}")
        elif claim.kind == "illegal":
            try:
                parse_move(v, pos, claim.move)
            except NotationError as exc:
                if exc.code != claim.reason_code:
                    problems.append(
                        f"{claim.move} refused as {exc.code!r} ({exc}), not {claim.reason_code!r}"
                    )
            else:
                problems.append(f"{claim.move} is legal")
        else:
            problems.append(f"unknown claim kind {claim.kind!r}")
    if d.shown is not None:
        m = by_text.get(d.shown.move)
        if m is None:
            problems.append(f"shown move {d.shown.move} is not legal ({sorted(by_text)})")
        else:
            if tuple(m["captures"]) != d.shown.captures:  # type: ignore[arg-type]
                problems.append(f"{d.shown.move} captures {m['captures']}, not {d.shown.captures}")
            if m["promotes"] != d.shown.promotes:
                problems.append(f"{d.shown.move} promotes={m['promotes']}")
    if d.from_square and not any(m["from"] == d.from_square for m in labels):
        problems.append(f"no legal move starts on {d.from_square}")
    if not d.claims:
        problems.append("a diagram must make at least one claim")
    return problems


@pytest.mark.parametrize("page,diagram", all_diagrams(), ids=lambda x: getattr(x, "id", x))
def test_diagram_claims_hold_in_rules_core(page: str, diagram: Diagram) -> None:
    assert check_diagram(diagram) == []


def test_diagram_ids_are_unique() -> None:
    ids = [d.id for _, d in all_diagrams()]
    assert len(ids) == len(set(ids))


def _one(diagram_id: str) -> Diagram:
    return next(d for _, d in all_diagrams() if d.id == diagram_id)


def test_wrong_legal_move_set_is_detected() -> None:
    d = _one("italian-most-pieces")
    wrong = dataclasses.replace(d, claims=(Claim("only_legal_moves", moves=("21x14x5", "24x15")),))
    assert check_diagram(wrong)


def test_wrong_illegal_reason_is_detected() -> None:
    d = _one("italian-man-cannot-take-king")
    wrong = dataclasses.replace(d, claims=(Claim("illegal", move="22x13", reason_code="most_pieces"),))
    assert check_diagram(wrong)


def test_legal_move_claimed_illegal_is_detected() -> None:
    d = _one("american-free-choice")
    wrong = dataclasses.replace(d, claims=(Claim("illegal", move="27x18", reason_code="most_pieces"),))
    assert check_diagram(wrong)


def test_wrong_shown_captures_or_promotion_is_detected() -> None:
    d = _one("russian-crowned-continues")
    assert check_diagram(dataclasses.replace(d, shown=Shown("b6:d8:f6", ("c7", "e7"), False)))
    assert check_diagram(dataclasses.replace(d, shown=Shown("b6:d8:f6", ("e7", "c7"), True)))
    assert check_diagram(dataclasses.replace(d, shown=Shown("b6:d8", ("c7",), True)))


def test_wrong_game_end_of_a_goal_diagram_is_detected() -> None:
    d = _one("losing-last-piece")
    assert check_diagram(d) == []
    wrong_winner = Claim("ends", move="32x23", winner="white", reason_code="losing-no-pieces")
    assert check_diagram(dataclasses.replace(d, claims=(wrong_winner,)))
    # the same position without the losing rule ends the other way
    assert check_diagram(dataclasses.replace(d, variant="international"))
