"""The rules a trainer exercise drills: rule parameters of :class:`~damiera.rules.variant.Variant`
and, for each, the same rule set without that rule (its *contrast*).

An exercise drills the rule ``param`` of a rule set when its answer under the rule set
differs from its answer under a contrast: the rule set with only that parameter changed.
Nothing here knows a rule set by name; any :class:`Variant` (a named one, the house rule, one
added later) gets its contrasts from its own parameter values:

- a yes/no rule (``men_capture_backward``, ``flying_kings``, ``men_capture_kings``,
  ``mandatory_capture``) is switched the other way;
- ``capture_choice``: a choice rule is switched off (free choice); free choice is contrasted
  with the majority rule (you *may* take fewer pieces);
- ``promotion_during_capture``: a man crowned and stopped is contrasted with one that goes on
  capturing as a king, and the two that go on (as a king, as a man) with one that stops.
"""

from __future__ import annotations

import dataclasses

from damiera.rules.variant import CaptureChoice, PromotionDuringCapture, Variant

#: The rule parameters the trainer drills, in the order sessions list them.
RULE_PARAMS: tuple[str, ...] = (
    "capture_choice",
    "men_capture_kings",
    "promotion_during_capture",
    "men_capture_backward",
    "flying_kings",
    "mandatory_capture",
)


def contrasts(variant: Variant, param: str) -> list[Variant]:
    """The rule set ``variant`` without its rule ``param`` (one variant, the parameter alone
    changed; see the module docstring). Raises ValueError for a parameter not in
    :data:`RULE_PARAMS`."""
    if param not in RULE_PARAMS:
        raise ValueError(f"not a drilled rule: {param!r}")
    value = getattr(variant, param)
    if isinstance(value, bool):
        flipped: dict[str, object] = {param: not value}
        return [dataclasses.replace(variant, **flipped)]  # type: ignore[arg-type]
    if param == "capture_choice":
        choice = CaptureChoice.MAJORITY if value is CaptureChoice.FREE else CaptureChoice.FREE
        return [dataclasses.replace(variant, capture_choice=choice)]
    stop = PromotionDuringCapture.PROMOTE_AND_STOP
    promotion = PromotionDuringCapture.PROMOTE_AND_CONTINUE if value is stop else stop
    return [dataclasses.replace(variant, promotion_during_capture=promotion)]

