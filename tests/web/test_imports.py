"""The web layer's modules import each other without a cycle (the whole tree's graph is
checked with grimp in ``tests/test_import_graph.py``).

Every ``import`` and ``from ... import`` in ``damiera/web`` counts, including those inside
functions (a deferred import hides a cycle from Python, not from a reader); a cycle is
reported as the modules on it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import damiera.web

WEB = Path(damiera.web.__file__).parent


def _module_name(path: Path) -> str:
    parts = ("damiera", "web", *path.relative_to(WEB).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the damiera.web modules it imports (a package imported for one of its
    modules counts as that module)."""
    files = {_module_name(p): p for p in WEB.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{a.name}" for a in node.names]
                named = [t for t in targets if t in files]
                graph[name].update(named or ([node.module] if node.module in files else []))
            elif isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in files)
        graph[name].discard(name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as its modules in order (first repeated last), or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_find_cycle_reports_a_cycle_and_accepts_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_deferred_imports() -> None:
    graph = import_graph()
    assert "damiera.web.computer_queue" in graph["damiera.web.app"]   # inside a function


def test_web_layer_has_no_import_cycle() -> None:
    assert find_cycle(import_graph()) is None
