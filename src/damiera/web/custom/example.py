"""The example custom rule set: the ``POST /api/custom`` body the API's documentation shows,
which tools/screenshots_rule_sets.py makes for docs/screenshots/custom_rule_set.png and the
browser tests draw (Russian men and kings on a 10x10 board, the majority rule and
breakthrough: a man crowned during a capture goes on as a flying king, so flying kings
count under breakthrough)."""

from __future__ import annotations

from typing import Any, Final

#: The rules, by field name as ``POST /api/custom`` reads them.
EXAMPLE_RULES: Final[dict[str, Any]] = {
    "board_size": 10, "man_rows": 4, "men_capture_backward": True, "flying_kings": True,
    "capture_choice": "majority", "promotion_during_capture": "promote-and-continue",
    "breakthrough": True,
}
#: The rule set's name.
EXAMPLE_NAME: Final = "Club rules"


def example_body() -> dict[str, Any]:
    """A new copy of the whole request body: ``{"rules": ..., "name": ...}``."""
    return {"rules": dict(EXAMPLE_RULES), "name": EXAMPLE_NAME}
