"""The map of docs/architecture.md holds: no import cycle, and each folder imports only
the folders below it.

The imports are read from the source (``ast``): every ``import`` and ``from ... import``
of the package, at the top of a module or inside a function; those under ``if
TYPE_CHECKING:`` are type hints, not imports, and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "sodos_plugin"

#: lowest first; a module may import its own layer and the layers before it
LAYERS: list[tuple[str, ...]] = [
    ("errors", "util"),
    ("schemas",),
    ("engine",),
    ("config",),
    ("plugins",),
    ("criteria", "writers", "readers"),
    ("ratings",),
    ("store",),
    ("host",),
    ("serve",),
    ("cli",),
]
FRONT = "sodos_plugin"  # the public front: any layer may take __version__ from it


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            # a submodule by its own name; any other name is an attribute of ``base``
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            for child in ast.iter_child_nodes(node):
                visit(child)
            return
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)

    visit(tree)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(module: str) -> int | None:
    if module == FRONT:
        return None
    first = module.split(".")[1]
    for number, folders in enumerate(LAYERS):
        if first in folders:
            return number
    raise AssertionError(f"{module}: its folder is in no layer of the map")


def test_no_module_imports_a_module_that_imports_it_back():
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def strongly_connected(v: str) -> None:  # Tarjan
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                strongly_connected(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in edges:
        if v not in index:
            strongly_connected(v)
    assert not cycles


def test_each_folder_imports_only_the_folders_below_it():
    upward = []
    for module, targets in graph().items():
        mine = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{module} -> {target}")
    assert not upward


def test_the_checker_sees_an_upward_import_and_a_cycle(tmp_path):
    known = {"sodos_plugin.engine.a": tmp_path / "a.py", "sodos_plugin.host": tmp_path / "h.py"}
    (tmp_path / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from sodos_plugin.host import Host\n"
        "def f():\n    from sodos_plugin.host import Host\n"
    )
    found = imports("sodos_plugin.engine.a", known["sodos_plugin.engine.a"], known)
    assert found == {"sodos_plugin.host"}  # the function's import counts, the hint does not
    assert layer_of("sodos_plugin.host") > layer_of("sodos_plugin.engine.a")
