"""Checks of the engine API's numeric arguments, one wording for all of them."""

from __future__ import annotations

from numbers import Integral


def whole_number(value: object, name: str, unit: str = "") -> int:
    """``value`` as an int when it is a whole number (an ``int`` or another
    :class:`numbers.Integral` such as NumPy's, never a ``bool``); TypeError ``"NAME is a whole
    number [of UNIT], not TYPE"`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        of = f" of {unit}" if unit else ""
        raise TypeError(f"{name} is a whole number{of}, not {type(value).__name__}")
    return int(value)
