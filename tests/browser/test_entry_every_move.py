"""Every legal move can be entered by clicks (the shared capture entry, ``static/entry.js``,
of the play page and the analysis board), in every rule set.

Positions are drawn at random with a fixed seed (a few pieces of the side to move, often
kings, among more of the other side's; kept when they have two captures or more), plus the
positions where entry once failed: captures whose every square also belongs to another
capture ending on the same square (American ``W:WK22:B17,18,19,26,27``: 22x13 inside
22x15x24x31x22x13; Russian ``W:WKc3:Bb4,d2,f2,g5,e5``: c3:a5), and International king
captures ending on their own start square. ``entry_explorer.js`` runs in Chromium on each
position's legal moves as the server sends them, clicks every square of the moves' paths
in every state the entry reaches and picks every offered choice, and checks that each legal
move is played by some sequence, that nothing is played before its end is clicked or
off the clicked squares, and that clicking the piece again (or its start while choosing)
only puts it back."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from damiera.rules.geometry import geometry
from damiera.rules.movegen import legal_moves
from damiera.rules.position import FenError, parse_fen
from damiera.rules.variant import VARIANTS, variant
from damiera.web.serialization import moves_with_paths_json, pieces_json
from tests.browser.test_analysis_page import open_analysis

Page = Any

EXPLORER = (Path(__file__).parent / "entry_explorer.js").read_text(encoding="utf-8")

#: Random positions kept per rule set (each with two captures or more).
PER_RULE_SET = 90
#: States explored from one piece at most (far more than any position here needs).
MAX_STATES = 20_000

#: Positions where entry failed before, each with the capture that could not be entered.
KNOWN = [
    ("american", False, "W:WK22:B17,18,19,26,27"),                       # 22x13
    ("russian", False, "W:WKc3:Bb4,d2,f2,g5,e5"),                        # c3:a5
    ("international", False, "W:WK4:B10,20,22,32,33,37,39"),            # 4x...x4, two on 9
    ("czech", False, "W:WKd2:Bc3,Kb6,g3,g5,b2,d6,Kh8,Kd8,Kh4,f8"),        # d2xh6
    ("czech", False, "W:WKd4,Kd8:BKg5,b2,g3,d6,Kd2,e3,a7,Ke5"),          # d4xa1
    ("czech", False, "W:WKh8,Ke3:Ba7,d2,Ke1,a5,f2,Kg5,d6,d4,g7,g3"),     # e3xc1, e3xg1
    ("czech", False, "W:WKc5,Kh4:Ba5,e7,g3,b6,e5,Kf4,g7,Kb4,Ke3,Kb8"),   # h4xd8
    ("czech", False, "W:WKe3:Bb8,h2,c5,a7,h4,b4,d2,h6,Kg1,f6,Kc7"),      # e3xc1
    ("american", False, "W:WK10:B23,4,K14,20,16,6,9,7,15,K2,22"),        # 10x1, 10x3
    ("american", False, "W:WK22:B2,4,K30,18,27,19,16,26,17"),            # 22x13
]


def _position(vid: str, optional: bool, fen: str) -> dict[str, Any] | None:
    """The position as the pages receive it (moves with every path, pieces, side to move),
    or None when the FEN is refused or nothing can move."""
    v = variant(vid, optional_capture=optional)
    try:
        pos = parse_fen(v, fen)
    except FenError:
        return None
    moves = legal_moves(v, pos)
    if not moves:
        return None
    return {"variant": v.id + (" (captures optional)" if optional else ""), "fen": fen,
            "moves": moves_with_paths_json(v, pos, moves), "pieces": pieces_json(v, pos),
            "turn": pos.turn.word, "count": len(moves)}


def _random_positions(vid: str, optional: bool, count: int) -> list[dict[str, Any]]:
    rng = random.Random(f"{vid} {optional}")
    labels = [geometry(variant(vid)).label(s) for s in geometry(variant(vid)).label_order]
    found: list[dict[str, Any]] = []
    for _ in range(50_000):
        if len(found) == count:
            break
        picks = rng.sample(labels, rng.randint(5, 12))
        n = rng.randint(1, 3)
        mine, theirs = picks[:n], picks[n:]
        turn = rng.choice("WB")
        other = "B" if turn == "W" else "W"

        def listed(squares: list[str], kings: float) -> str:
            return ",".join(("K" if rng.random() < kings else "") + s for s in squares)

        fen = f"{turn}:{turn}{listed(mine, 0.7)}:{other}{listed(theirs, 0.2)}"
        if other == "W":
            fen = f"{turn}:W{listed(theirs, 0.2)}:B{listed(mine, 0.7)}"
        item = _position(vid, optional, fen)
        if item is not None and sum(1 for m in item["moves"] if m["captures"]) >= 2:
            found.append(item)
    assert len(found) == count, f"{vid}: only {len(found)} positions with two captures"
    return found


RULE_SETS = [(vid, False) for vid in VARIANTS] + [
    (vid, True) for vid, v in VARIANTS.items() if v.board_size == 8]


@pytest.mark.parametrize(("vid", "optional"), RULE_SETS,
                         ids=[f"{v}{'-optional' if o else ''}" for v, o in RULE_SETS])
def test_every_legal_move_can_be_entered_by_clicks(page: Page, vid: str, optional: bool) -> None:
    positions = _random_positions(vid, optional, PER_RULE_SET)
    positions += [p for p in (_position(*k) for k in KNOWN if k[:2] == (vid, optional)) if p]
    open_analysis(page, "variant=international")
    report = page.evaluate(EXPLORER, {"positions": positions, "maxStates": MAX_STATES})
    assert report["failures"] == []
    assert report["positions"] == len(positions)
    assert report["moves"] == sum(p["count"] for p in positions)   # every move was tried
    assert report["states"] >= report["positions"]   # at least one state a piece
