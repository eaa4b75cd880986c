"""Rules values survive pickle and copy.

Variants, positions and moves are values (DESIGN.md): they may be sent to worker processes
or copied like any other value.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from damiera.rules.geometry import geometry
from damiera.rules.movegen import generate
from damiera.rules.position import start_position
from damiera.rules.variant import VARIANTS, variant

ROUND_TRIPS: list[Callable[[Any], Any]] = [
    lambda value: pickle.loads(pickle.dumps(value)),
    copy.copy,
    copy.deepcopy,
]


@pytest.mark.parametrize("round_trip", ROUND_TRIPS, ids=["pickle", "copy", "deepcopy"])
@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_variant_position_and_move_round_trip_equal(
    vid: str, round_trip: Callable[[Any], Any]
) -> None:
    v = variant(vid)
    position = start_position(v)
    move = generate(v, position)[0]
    values: list[object] = [v, position, move]
    if v.board_size == 8:
        values.append(variant(vid, optional_capture=True))
    for value in values:
        twin = round_trip(value)
        assert twin == value and hash(twin) == hash(value) and type(twin) is type(value)


@pytest.mark.parametrize("round_trip", ROUND_TRIPS, ids=["pickle", "copy", "deepcopy"])
def test_geometry_round_trips_with_the_same_squares_and_labels(
    round_trip: Callable[[Any], Any],
) -> None:
    for vid in ("american", "russian", "international", "spanish"):
        geo = geometry(variant(vid))
        twin = round_trip(geo)
        assert twin.squares == geo.squares and twin.ray == geo.ray
        assert [twin.label(s) for s in twin.squares] == [geo.label(s) for s in geo.squares]
