"""No module of app/ imports, at module level, a module that imports it back: importing any
module never depends on the order modules were imported in, and the type checker's view has
no circle either (an import under ``if TYPE_CHECKING`` counts; one inside a function runs
later and is left out; importing ``a.b.c`` runs ``a`` and ``a.b`` first, so those count)."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_level(tree: ast.Module) -> list[ast.stmt]:
    """The module's own statements, with those of its ``if TYPE_CHECKING:`` blocks."""
    return [
        statement
        for top in tree.body
        for statement in (
            top.body
            if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
            else [top]
        )
    ]


def _top_level_imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The app modules ``path`` imports when it is imported (its parents' packages too)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _module_level(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            found |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & known
    found.discard(module)
    return found


def test_no_app_module_imports_one_that_imports_it_back_at_module_level() -> None:
    paths = {_module_of(p): p for p in sorted((ROOT / "app").rglob("*.py"))}
    known = set(paths)
    graph = grimp.ImportGraph()
    for module in known:
        graph.add_module(module)
    for module, path in paths.items():
        for imported in _top_level_imports(path, module, known):
            if not module.startswith(imported + "."):  # a package's own parents
                graph.add_import(importer=module, imported=imported)
    circles = sorted(
        (a, b)
        for a in known
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    )
    assert circles == []
