"""No code, docstring or comment cites an issue number: a reader of the tree cannot look them
up, so each says what and why itself (the measurements' notes in ``benchmarks/*.md`` may)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"\bissues? #?\d", re.IGNORECASE)


def test_no_source_file_cites_an_issue_number() -> None:
    files = [p for folder in ("src", "csrc", "tests", "tools", "benchmarks")
             for p in (ROOT / folder).rglob("*")
             if p.suffix in {".py", ".c", ".h", ".js", ".html", ".po", ".css"}]
    assert len(files) > 100
    citing = [f"{p.relative_to(ROOT)}:{n}" for p in files
              for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
              if CITATION.search(line)]
    assert citing == []
