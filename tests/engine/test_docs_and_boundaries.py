"""The engine's own documentation runs, and the engine stands alone.

Every module of the ``engine`` package has its doctests run (new modules are found by
walking the package). The engine imports nothing from the service around it or from web and
cloud frameworks: checked on the source (the AST of every file) and on a fresh interpreter.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ENGINE_DIR = Path(engine.__file__).parent
FORBIDDEN = {
    "app",
    "infra",
    "fastapi",
    "pydantic",
    "pydantic_settings",
    "boto3",
    "botocore",
    "starlette",
    "mangum",
    "uvicorn",
    "aws_lambda_powertools",
    "aws_cdk",
    "moto",
    "httpx",
    "typer",
}


def engine_modules() -> list[str]:
    found = pkgutil.walk_packages(engine.__path__, prefix="engine.")
    return ["engine", *sorted(info.name for info in found)]


def engine_files() -> list[Path]:
    return sorted(ENGINE_DIR.rglob("*.py"))


@pytest.mark.parametrize("name", engine_modules())
def test_the_examples_in_each_engine_module_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_core_modules_carry_examples() -> None:
    for name in ("engine.facts", "engine.sets", "engine.dealing", "engine.game", "engine.play"):
        finder = doctest.DocTestFinder()
        examples = sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
        assert examples > 0, name


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            roots.update(
                arg.value.split(".")[0]
                for arg in node.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            )
    return roots


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_no_engine_file_imports_the_service_or_a_framework(path: Path) -> None:
    assert not imported_roots(path) & FORBIDDEN


def test_the_import_check_sees_the_imports_it_looks_for() -> None:
    assert {"engine", "typing"} <= imported_roots(ENGINE_DIR / "game.py")
    assert {"enum", "re", "typing"} <= imported_roots(ENGINE_DIR / "facts.py")


def test_importing_the_whole_engine_loads_no_service_or_framework_module() -> None:
    names = ", ".join(repr(n) for n in engine_modules())
    script = (
        "import importlib, sys\n"
        f"for name in [{names}]:\n"
        "    importlib.import_module(name)\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(out.stdout.split())
    assert "engine" in loaded
    assert not loaded & FORBIDDEN


def test_no_engine_module_imports_one_that_imports_it_back() -> None:
    """The engine's modules form no circle, not even through an import inside a function:
    facts, then the format (serialise), the records, the views, the game, the agents."""
    import grimp

    graph = grimp.build_graph("engine")
    circles = [
        (a, b)
        for a in sorted(graph.modules)
        for b in sorted(graph.find_modules_directly_imported_by(a))
        if graph.chain_exists(importer=b, imported=a)
    ]
    assert circles == []


def test_no_engine_module_reads_another_ones_private_attributes() -> None:
    """Only a class touches its own private fields (``self._x``, or ``game._x`` inside Game):
    other modules use the public reads and the restore hook."""
    private = re.compile(r"\b(?!self\b|cls\b|game\b)[a-z_]+\._[a-z]\w*")
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in engine_files()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if private.search(line) and "import" not in line
    ]
    found += [
        f"{path.name}: game._"
        for path in engine_files()
        if path.name != "game.py" and "game._" in path.read_text()
    ]
    assert found == []
