"""The layout rules of the tree that no linter checks: a source file holds one idea and stays
at most 600 lines (split along an idea past that), and only the binding (``csrc/binding*.c``
and its header ``csrc/binding.h``) knows Python (no other file of ``csrc/`` so much as
mentions ``Python.h``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The folders whose source files are held to the limit, and what counts as source.
FOLDERS = ("src", "csrc", "tests", "tools", "benchmarks")
SUFFIXES = {".py", ".c", ".h", ".js"}
MOST_LINES = 600
#: Files over the limit that are known and not yet split, each with the most lines it may
#: keep meanwhile (its length when it was listed): it may shrink, never grow, and its entry
#: must go once it is back under the limit.
NOT_YET_SPLIT: dict[str, int] = {}


def source_files() -> list[Path]:
    """Every source file of FOLDERS (caches and build output left out), sorted."""
    found = [p for folder in FOLDERS for p in (ROOT / folder).rglob("*")
             if p.suffix in SUFFIXES and p.is_file()
             and not any(part.startswith(".") or part in ("__pycache__", "build",
                                                           "node_modules")
                         for part in p.relative_to(ROOT).parts)]
    return sorted(found)


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8", errors="replace").splitlines())


def too_long(lines: dict[str, int], listed: dict[str, int] | None = None) -> list[str]:
    """What breaks the limit in ``lines`` (relative path -> lines): a file over MOST_LINES not
    listed, a listed file longer than listed, or a listed file back under the limit;
    ``listed``: the known long files (path -> most lines), NOT_YET_SPLIT when None."""
    listed = NOT_YET_SPLIT if listed is None else listed
    problems = [f"{name}: {n} lines" for name, n in sorted(lines.items())
                if n > MOST_LINES and n > listed.get(name, MOST_LINES)]
    problems += [f"{name}: {lines[name]} lines, under {MOST_LINES} now: take it off "
                 f"NOT_YET_SPLIT" for name in listed
                 if name in lines and lines[name] <= MOST_LINES]
    return problems


def test_too_long_finds_a_long_file_a_grown_one_and_a_stale_entry() -> None:
    assert too_long({"a.py": 600, "b.py": 599}, {}) == []
    assert too_long({"a.py": 601}, {}) == ["a.py: 601 lines"]
    listed = {"big.c": 700}
    assert too_long({"big.c": 700}, listed) == []
    assert too_long({"big.c": 701}, listed) == ["big.c: 701 lines"]
    assert too_long({"big.c": 600}, listed)[0].startswith("big.c: 600 lines, under")


def test_no_source_file_is_over_600_lines() -> None:
    files = source_files()
    assert ROOT / "csrc" / "binding.c" in files and ROOT / "tests" / "test_layout.py" in files
    lines = {str(p.relative_to(ROOT)): line_count(p) for p in files}
    assert too_long(lines) == []
    assert set(NOT_YET_SPLIT) <= set(lines), "a NOT_YET_SPLIT file is gone: take it off"


def test_only_the_binding_mentions_python_h() -> None:
    """Only csrc/binding*.c and csrc/binding.h mention Python.h: the binding is the core's one
    seam with Python (the other units build without it into the C test program), and it is a
    file per Python type (with one private header for the objects they share) so that each
    stays under the 600-line limit; every other file of csrc/ stays plain C."""
    csrc = ROOT / "csrc"
    files = sorted(p for p in csrc.rglob("*") if p.is_file() and "build" not in p.parts)
    assert csrc / "binding.c" in files
    mentions = [p for p in files if b"Python.h" in p.read_bytes()]
    assert csrc / "binding.c" in mentions
    strangers = [str(p.relative_to(ROOT)) for p in mentions
                 if p.parent != csrc or not (p.name == "binding.h" or (
                     p.name.startswith("binding") and p.suffix == ".c"))]
    assert strangers == []
