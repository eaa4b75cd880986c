"""No import circle anywhere in the ``damiera`` tree, read by grimp (every import statement,
those inside functions too: a deferred import hides a circle from Python, not from a
reader; imports only for type checkers are left out), and the CLI in one package."""

from __future__ import annotations

from pathlib import Path

import grimp

import damiera

SRC = Path(damiera.__file__).resolve().parent


def import_graph() -> dict[str, set[str]]:
    """Every module of ``damiera`` and the ``damiera`` modules it imports."""
    graph = grimp.build_graph("damiera", exclude_type_checking_imports=True, cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted:
    every import circle lies in one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_circles_finds_a_circle_and_accepts_a_tree() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_damiera_tree_has_no_import_circle() -> None:
    graph = import_graph()
    assert "damiera.rules.game" in graph and "damiera.cli.engine" in graph
    assert circles(graph) == []


def test_the_rules_core_imports_nothing_above_it() -> None:
    graph = import_graph()
    for module, targets in graph.items():
        if module.startswith("damiera.rules"):
            # "damiera" itself: ``from damiera import _core``, the compiled core
            above = {t for t in targets if t != "damiera" and not t.startswith("damiera.rules")}
            assert above == set(), module


def test_the_cli_is_one_package() -> None:
    commands = sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                      if p.name == "cli.py" or p.name.endswith("_cli.py"))
    assert commands == [], commands
    assert {p.stem for p in (SRC / "cli").glob("*.py")} >= {
        "__init__", "common", "rules", "engine", "pdn", "web", "db"}
