"""The engine's tests search with the hand-made evaluation (the ``hand_made_evaluation``
fixture of ``tests/conftest.py``): their trees, moves and scores do not depend on the shipped
weights files, which are measured in ``benchmarks/`` instead."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _pinned_evaluation(hand_made_evaluation: None) -> None:
    """Every engine test searches with the hand-made evaluation."""
