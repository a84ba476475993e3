"""Issue 22 for the command line's rooms: the batch runners live in their cores
(workbench.gate.batch, .jobs, workbench.runtime.pool), the reporters in workbench.report, and
none of them imports the command line, Flask, or each other in a circle — counting the imports
written inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "workbench"
OURS = ("workbench.cli", "workbench.report", "workbench.gate.batch", "workbench.gate.jobs",
        "workbench.runtime.pool", "workbench.jsontext.lines")


def _modules() -> dict[str, Path]:
    out = {}
    for p in PACKAGE.rglob("*.py"):
        parts = p.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def imports_of(name: str, path: Path, modules) -> set[str]:
    """Every workbench module ``name`` imports, at the top or inside a function; ``from P
    import m`` counts the submodule m, not the package P."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - (node.level - 1)] if node.level else []
            target = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
            subs = {f"{target}.{a.name}" for a in node.names} & modules.keys()
            found |= subs or ({target} & modules.keys())
            if not subs and target not in modules and node.level == 0 and target.split(".")[0] == "flask":
                found.add("flask")
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules or a.name.split(".")[0] == "flask"}
    return found - {name}


def _graph():
    modules = _modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def _cycle_from(graph, start):
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in graph.get(node, ()):
            if nxt == start:
                return path + [nxt]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_no_import_circle_through_the_command_line_rooms():
    graph = _graph()
    cycles = [c for name in graph if name.startswith(OURS) if (c := _cycle_from(graph, name))]
    assert not cycles, [" -> ".join(c) for c in cycles]


def test_the_cores_do_not_reach_up_into_the_command_line_or_flask():
    graph = _graph()
    for name, deps in graph.items():
        if name.startswith(("workbench.report", "workbench.gate", "workbench.runtime.pool")):
            assert not [d for d in deps if d.startswith("workbench.cli") or d == "flask"], name


def test_the_finder_sees_an_import_inside_a_function(tmp_path):
    # the check itself can fail: a circle made of one top-level and one in-function import
    modules = {"pkg.a": tmp_path / "a.py", "pkg.b": tmp_path / "b.py"}
    modules["pkg.a"].write_text("from . import b\n")
    modules["pkg.b"].write_text("def f():\n    from .a import x\n")
    graph = {n: imports_of(n, p, modules) for n, p in modules.items()}
    assert _cycle_from(graph, "pkg.a") == ["pkg.a", "pkg.b", "pkg.a"]


def test_no_import_circle_anywhere_in_the_package():
    """Issue 22: no module of workbench/ reaches itself again through its imports, counting
    imports inside functions (the four two-file circles were each broken that way)."""
    graph = _graph()
    cycles = [c for name in graph if (c := _cycle_from(graph, name))]
    assert not cycles, [" -> ".join(c) for c in cycles]


def test_no_function_of_120_lines_or_more_in_the_package():
    """Issue 22: a function that long is several steps that want names of their own."""
    import ast
    long = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines >= 120:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert not long, long
