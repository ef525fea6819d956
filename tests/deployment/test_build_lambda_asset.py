"""The pure parts of the Lambda asset build: what is shipped, what is left out, the zip.

pip itself is not run here: it needs PyPI and ~10 s, and what it does with ``--platform``
and ``--only-binary`` is pip's behaviour, not ours. The build is run by hand before each
deploy (deployment/README.md), and it checks its own result.
"""

from __future__ import annotations

import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from deployment import build_lambda_asset as build

REPO_DIR = Path(__file__).resolve().parents[2]


def _pyproject() -> dict[str, object]:
    return tomllib.loads((REPO_DIR / "pyproject.toml").read_text(encoding="utf-8"))


def test_requirement_names_are_read_from_pep_508_strings_in_canonical_form() -> None:
    assert build.requirement_name("pydantic-settings==2.16.3") == "pydantic-settings"
    assert build.requirement_name("Foo_Bar[extra]>=1; python_version < '3.12'") == "foo-bar"
    assert build.requirement_name("aws-lambda-powertools") == "aws-lambda-powertools"


def test_only_project_dependencies_are_shipped_pins_kept_and_the_excluded_left_out() -> None:
    pyproject = {
        "project": {
            "dependencies": ["fastapi==1.0", "Boto3==1.2", "typer>=0.1", "mangum==0.2"],
            "optional-dependencies": {"dev": ["pytest==9"]},
        }
    }
    assert build.runtime_requirements(pyproject) == ["fastapi==1.0", "mangum==0.2"]


def test_every_excluded_distribution_is_still_a_project_dependency() -> None:
    dependencies = {build.requirement_name(r) for r in _pyproject()["project"]["dependencies"]}  # type: ignore[index]
    stale = [
        e.distribution
        for e in build.EXCLUDED
        if build.normalise(e.distribution) not in dependencies
    ]
    assert stale == [], "excluded but no longer a dependency: drop from EXCLUDED"


def test_the_api_framework_and_the_lambda_adapter_are_shipped() -> None:
    shipped = {build.requirement_name(r) for r in build.runtime_requirements(_pyproject())}
    assert {"fastapi", "pydantic", "pydantic-settings", "mangum"} <= shipped
    assert not shipped & {"boto3", "uvicorn", "typer", "rich", "httpx"}


def test_pip_installs_arm64_wheels_for_the_runtime_python_into_the_target() -> None:
    command = build.pip_command(["fastapi==1.0"], Path("/out"), "3.13")
    assert command[:4] == [sys.executable, "-m", "pip", "install"]
    text = " ".join(command)
    assert "--platform manylinux2014_aarch64" in text
    assert "--implementation cp" in text
    assert "--python-version 3.13" in text
    assert "--only-binary=:all:" in command
    assert "--no-compile" in command
    assert "--target /out" in text
    assert command[-1] == "fastapi==1.0"


def _tree(root: Path, files: list[str]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")


def test_copied_packages_leave_out_caches_tests_the_cli_and_the_arena(tmp_path: Path) -> None:
    source, target = tmp_path / "src", tmp_path / "out"
    _tree(
        source,
        [
            "engine/__init__.py",
            "engine/game.py",
            "engine/__pycache__/game.cpython-311.pyc",
            "engine/tests/test_game.py",
            "app/__init__.py",
            "app/entrypoints/http.py",
            "app/api/main.py",
            "app/cli/__init__.py",
            "arena/render.py",
            "app/stray.pyc",
        ],
    )
    build.copy_packages(source, target)
    copied = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    assert copied == [
        "app/__init__.py",
        "app/api/main.py",
        "app/entrypoints/http.py",
        "engine/__init__.py",
        "engine/game.py",
    ]


def test_imports_of_anything_not_shipped_are_found_even_inside_functions(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "bad.py").write_text(
        "import boto3\n"
        "import json\n"
        "def f():\n"
        "    import typer\n"
        "from app.cli import serve\n"
        "import arena\n"
        "from rich.console import Console\n"
    )
    (tmp_path / "engine").mkdir()
    found = build.forbidden_imports(tmp_path)
    assert [line.split(": imports ")[1].split(" (")[0] for line in found] == [
        "typer",
        "app.cli",
        "arena",
        "rich.console",
    ]
    assert found[0].startswith("app/bad.py:4: imports typer")


def test_the_shipped_code_of_this_repository_imports_nothing_left_out(tmp_path: Path) -> None:
    build.copy_packages(REPO_DIR, tmp_path)
    assert (tmp_path / "app" / "entrypoints" / "http.py").is_file()
    assert build.forbidden_imports(tmp_path) == []


def test_the_zip_is_reproducible_and_holds_every_file_by_relative_path(tmp_path: Path) -> None:
    _tree(tmp_path / "asset", ["b.py", "a/__init__.py", "a/z.py"])
    first = build.write_zip(tmp_path / "asset", tmp_path / "one.zip")
    second = build.write_zip(tmp_path / "asset", tmp_path / "two.zip")
    assert first == second
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "one.zip") as archive:
        assert archive.namelist() == ["b.py", "a/__init__.py", "a/z.py"]
        assert archive.read("a/z.py") == b"x = 1\n"


def test_bytecode_is_compiled_only_by_a_python_of_the_runtime_version() -> None:
    assert build.find_compiler("2.0") is None
    with pytest.raises(build.BuildError, match=r"not a working Python 3\.99"):
        build.find_compiler("3.99", sys.executable)
    this = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert build.find_compiler(this, sys.executable) is not None
    command = build.compile_command("python3.13", Path("/out"))
    assert command[-3:] == ["--invalidation-mode", "unchecked-hash", "/out"]


def test_the_browser_clients_files_are_shipped_in_the_package(tmp_path: Path) -> None:
    build.copy_packages(REPO_DIR, tmp_path)
    static = tmp_path / "app" / "web" / "static"
    shipped = sorted(p.name for p in static.iterdir())
    assert {"index.html", "main.js", "bets.js", "deal.js", "api.js", "style.css"} <= set(shipped)
    assert (tmp_path / "app" / "api" / "routes" / "web.py").is_file()
