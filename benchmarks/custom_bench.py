"""Custom rule sets: what their id and their page cost.

Run with ``.venv/bin/python benchmarks/custom_bench.py [--runs N]``; results go in
``benchmarks/custom_results.md`` by hand.

Figures (each the median of ``--runs`` runs):

- reading a canonical id (``damiera.rules.custom.read_custom``) and the longest text refused
  by its length bound, in microseconds a call: the reader is one pass, so a 10,000-character
  text costs no more than a short one (it is refused before it is read);
- ``damiera.variant`` on a custom id (cached) and ``custom_variant`` without its cache;
- building a custom rule set's rules page data (sections, diagrams rendered by the rules core,
  the comparison table) in milliseconds, as ``GET /custom/<code>`` does before templating.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from damiera.rules.custom import CustomRuleError, read_custom, write_custom
from damiera.rules.variant import VARIANTS, custom_fields, custom_variant, variant
from damiera.web import i18n
from damiera.web.custom.page import build_custom_page, page_data

ID = write_custom({**custom_fields(VARIANTS["russian"]), "board_size": 10, "man_rows": 4,
                   "losing": True, "board": "thai"}, "Club rules of Ω")


def per_call(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def refused() -> None:
    try:
        read_custom("custom:1:" + "a" * 10_000)
    except CustomRuleError:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    rows: dict[str, list[float]] = {}
    v = variant(ID)
    i18n.set_locale("en")
    for _ in range(runs):
        rows.setdefault("read_custom (µs)", []).append(per_call(lambda: read_custom(ID), 20_000) * 1e6)
        rows.setdefault("10,000-char text refused (µs)", []).append(per_call(refused, 20_000) * 1e6)
        rows.setdefault("variant(id), cached (µs)", []).append(per_call(lambda: variant(ID), 20_000) * 1e6)
        rows.setdefault("custom_variant uncached (µs)", []).append(
            per_call(lambda: custom_variant.__wrapped__(ID), 5_000) * 1e6)
        rows.setdefault("rules page data (ms)", []).append(
            per_call(lambda: (build_custom_page(v, i18n.gettext), page_data(v)), 50) * 1e3)
    for name, values in rows.items():
        print(f"{name:34} {statistics.median(values):10.2f}")


if __name__ == "__main__":
    main()
