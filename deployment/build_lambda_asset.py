#!/usr/bin/env python3
"""Build the Lambda code asset without Docker: ``build/lambda/`` and ``build/lambda.zip``.

    .venv/bin/python deployment/build_lambda_asset.py

1. ``pip install`` the runtime dependencies as wheels for the function's platform (Linux on
   arm64, CPython ``PYTHON_VERSION``) into ``build/lambda``. ``--only-binary=:all:`` makes
   pip take only wheels, so nothing is compiled here for the wrong machine: pip picks the
   ``manylinux2014_aarch64`` wheel of pydantic-core whatever machine this runs on.
2. Copy the project's own packages, ``engine/`` and ``app/``, without what the handler never
   imports (``LEFT_OUT_OF_PACKAGES``: the command line and the bot arena), caches and tests.
3. Check that the shipped code imports nothing that was left out (``EXCLUDED`` dependencies,
   ``LEFT_OUT_OF_PACKAGES`` modules), even inside a function: the build fails if it does.
4. Compile everything to bytecode with a CPython of the runtime's version, if one is found
   (``--compile-with``, else ``python3.13`` on the PATH). The function's code folder is
   read-only, so without shipped ``.pyc`` files every cold start compiles FastAPI, pydantic
   and the app from source: ``benchmarks/cold_start.py --no-bytecode-cache`` shows the
   import taking several times longer. Bytecode depends on the Python version only, not on
   the machine. Without such an interpreter the build warns and ships sources alone.
5. Zip the folder reproducibly into ``build/lambda.zip`` and report its size; fail at
   ``MAX_ZIPPED_MB`` or more. CDK deploys the folder (it zips it again itself); the zip is
   the measure of what a cold start downloads, and can be uploaded by hand.

Needs only PyPI (pip's cache makes a rebuild offline) and the standard library.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_DIR = Path(__file__).resolve().parent.parent

PYTHON_VERSION = "3.13"
"""The function's runtime (``Runtime.PYTHON_3_13`` in infra/blef_infra/api.py; a test checks
that the two agree)."""
PLATFORM = "manylinux2014_aarch64"
"""Wheels for Linux on arm64 (Graviton), the function's architecture."""
MAX_ZIPPED_MB = 10.0
"""Our own budget, far below Lambda's 50 MB: a small package keeps cold starts short."""

PROJECT_PACKAGES = ("engine", "app")
LEFT_OUT_OF_PACKAGES: Mapping[str, str] = {
    "app/cli": "the `blef` command line (serve, arena commands); needs typer and uvicorn",
    "arena": "the bot arena of the command line (referee, tournaments); needs rich",
}
"""Parts of the project's packages the handler never imports, with the reason."""


@dataclass(frozen=True, slots=True)
class Excluded:
    """A runtime dependency of the project that the function does not ship."""

    distribution: str
    import_name: str
    reason: str
    may_be_imported: bool = False
    """True when the Lambda runtime provides the package, so shipped code may import it."""


EXCLUDED: Sequence[Excluded] = (
    Excluded(
        "boto3",
        "boto3",
        "provided by the Lambda Python runtime (with botocore); bundling it would add ~15 MB "
        "zipped and break the 10 MB budget. The store uses only long-stable DynamoDB calls "
        "(GetItem, PutItem, Query, TransactWriteItems); the smoke test on dev checks them "
        "against the runtime's version.",
        may_be_imported=True,
    ),
    Excluded("uvicorn", "uvicorn", "the local server of `blef serve`; Lambda runs Mangum"),
    Excluded("typer", "typer", "the `blef` command line"),
    Excluded("rich", "rich", "the `blef` command line's output"),
    Excluded("httpx", "httpx", "an HTTP client (tests, smoke test, bots); the API makes no calls"),
    Excluded(
        "websockets",
        "websockets",
        "uvicorn's websocket protocol for `blef serve`; on AWS the WebSocket API Gateway "
        "speaks it and app.entrypoints.websocket gets plain events",
    ),
)


def normalise(name: str) -> str:
    """A distribution name in its canonical form (PEP 503): ``Foo_Bar`` -> ``foo-bar``."""
    return re.sub(r"[-_.]+", "-", name).lower()


_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")


def requirement_name(requirement: str) -> str:
    """The distribution a PEP 508 requirement names: ``"fastapi==0.1"`` -> ``"fastapi"``."""
    match = _REQUIREMENT_NAME.match(requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return normalise(match.group(1))


def runtime_requirements(
    pyproject: Mapping[str, Any], excluded: Iterable[Excluded] = EXCLUDED
) -> list[str]:
    """The ``[project.dependencies]`` to ship, as written (pins kept), minus ``excluded``.

    Optional dependencies (``dev``, ``infra``) are never read.
    """
    left_out = {normalise(e.distribution) for e in excluded}
    dependencies: list[str] = pyproject["project"]["dependencies"]
    return [req for req in dependencies if requirement_name(req) not in left_out]


def pip_command(
    requirements: Sequence[str], target: Path, python_version: str = PYTHON_VERSION
) -> list[str]:
    """The pip invocation installing ``requirements`` for the function's platform."""
    return [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-input",
        "--no-compile",  # bytecode from this interpreter would be for the wrong version
        "--platform",
        PLATFORM,
        "--implementation",
        "cp",
        "--python-version",
        python_version,
        "--only-binary=:all:",
        "--target",
        str(target),
        *requirements,
    ]


def _ignored(relative: Path) -> bool:
    return (
        relative.as_posix() in LEFT_OUT_OF_PACKAGES
        or relative.name in {"__pycache__", "tests"}
        or relative.suffix in {".pyc", ".pyo"}
    )


def copy_packages(
    source_root: Path, target: Path, packages: Iterable[str] = PROJECT_PACKAGES
) -> None:
    """Copy the project's packages into ``target``, without caches, tests and what
    ``LEFT_OUT_OF_PACKAGES`` names."""
    for package in packages:
        source = source_root / package
        if not (source / "__init__.py").is_file():
            raise FileNotFoundError(f"{source} is not a Python package")

        def ignore(directory: str, names: list[str]) -> set[str]:
            base = Path(directory).relative_to(source_root)
            return {name for name in names if _ignored(base / name)}

        shutil.copytree(source, target / package, ignore=ignore)


def installed_distributions(target: Path) -> set[str]:
    """The distributions pip installed into ``target``, by canonical name."""
    names = set()
    for info in target.glob("*.dist-info"):
        name, _, _version = info.name.removesuffix(".dist-info").partition("-")
        names.add(normalise(name))
    return names


def forbidden_imports(
    target: Path,
    packages: Iterable[str] = PROJECT_PACKAGES,
    excluded: Iterable[Excluded] = EXCLUDED,
    left_out: Mapping[str, str] = LEFT_OUT_OF_PACKAGES,
) -> list[str]:
    """``path:line: imports X (reason)`` for every import, anywhere in the shipped packages
    (even inside a function), of a dependency or a project module the function does not ship.
    """
    forbidden = {e.import_name: e.reason for e in excluded if not e.may_be_imported}
    forbidden |= {folder.replace("/", "."): reason for folder, reason in left_out.items()}
    found: list[str] = []
    for package in packages:
        for path in sorted((target / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            hits = []
            for node in ast.walk(tree):
                hit = next(
                    (
                        (module, reason)
                        for module in _imported_modules(node)
                        for prefix, reason in forbidden.items()
                        if module == prefix or module.startswith(prefix + ".")
                    ),
                    None,
                )
                if hit is not None:
                    hits.append((getattr(node, "lineno", 0), *hit))
            where = path.relative_to(target).as_posix()
            found += [
                f"{where}:{line}: imports {module} ({why})" for line, module, why in sorted(hits)
            ]
    return found


def _imported_modules(node: ast.AST) -> list[str]:
    """The modules an import statement may load: ``from a import b`` may load ``a.b``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return []


def _files(root: Path) -> Iterator[Path]:
    for directory, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            yield Path(directory, name)


def write_zip(source: Path, zip_path: Path) -> int:
    """Zip ``source``'s contents reproducibly (sorted, fixed timestamps); return the size."""
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in _files(source):
            info = zipfile.ZipInfo(path.relative_to(source).as_posix(), (1980, 1, 1, 0, 0, 0))
            executable = path.stat().st_mode & stat.S_IXUSR
            info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return zip_path.stat().st_size


def find_compiler(python_version: str, candidate: str | None = None) -> str | None:
    """A Python interpreter of exactly ``python_version``: ``candidate`` if given (it must
    match), else ``python<version>`` on the PATH if it runs and matches; else ``None``."""
    for command in [candidate] if candidate else [f"python{python_version}"]:
        path = shutil.which(command)
        if path is None:
            continue
        try:
            done = subprocess.run(
                [path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
        except OSError:
            continue
        if done.returncode == 0 and done.stdout.strip() == python_version:
            return path
    if candidate:
        raise BuildError(f"{candidate} is not a working Python {python_version}")
    return None


def compile_command(python: str, target: Path) -> list[str]:
    """Compile ``target`` to bytecode. ``unchecked-hash``: the code never changes once
    deployed, so Python need not compare each ``.pyc`` with its source (whose timestamps a
    zip does not keep exactly)."""
    return [
        python,
        "-m",
        "compileall",
        "-q",
        "-j",
        "0",
        "--invalidation-mode",
        "unchecked-hash",
        str(target),
    ]


def _remove_caches(root: Path) -> None:
    for cache in sorted(root.rglob("__pycache__"), reverse=True):
        shutil.rmtree(cache)


def build(
    build_dir: Path, python_version: str = PYTHON_VERSION, compile_with: str | None = None
) -> tuple[Path, int]:
    """Build ``build_dir/lambda`` and ``build_dir/lambda.zip``; return the zip and its size."""
    target = build_dir / "lambda"
    zip_path = build_dir / "lambda.zip"
    if target.exists():
        shutil.rmtree(target)
    zip_path.unlink(missing_ok=True)
    target.mkdir(parents=True)

    pyproject = tomllib.loads((REPO_DIR / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = runtime_requirements(pyproject)
    print(f"installing {len(requirements)} dependencies for {PLATFORM}, CPython {python_version}")
    for requirement in requirements:
        print(f"  {requirement}")
    subprocess.run(pip_command(requirements, target, python_version), check=True)

    arrived = installed_distributions(target) & {normalise(e.distribution) for e in EXCLUDED}
    if arrived:
        raise BuildError(
            f"left out on purpose, yet installed as a dependency of another package: "
            f"{', '.join(sorted(arrived))}"
        )
    shutil.rmtree(target / "bin", ignore_errors=True)  # console scripts: useless on Lambda
    _remove_caches(target)

    copy_packages(REPO_DIR, target)
    problems = forbidden_imports(target)
    if problems:
        raise BuildError("shipped code imports what is not shipped:\n  " + "\n  ".join(problems))

    compiler = find_compiler(python_version, compile_with)
    if compiler is None:
        print(
            f"warning: no Python {python_version} found (--compile-with): shipping sources "
            "without bytecode, so cold starts compile every module",
            file=sys.stderr,
        )
    else:
        print(f"compiling to bytecode with {compiler}")
        subprocess.run(compile_command(compiler, target), check=True)

    return zip_path, write_zip(target, zip_path)


class BuildError(Exception):
    """The asset cannot be built as it should be; the message says why."""


def _size_of(root: Path) -> int:
    return sum(path.stat().st_size for path in _files(root))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--build-dir", type=Path, default=REPO_DIR / "build", help="default: build/"
    )
    parser.add_argument("--python-version", default=PYTHON_VERSION, help="the Lambda runtime's")
    parser.add_argument("--max-mb", type=float, default=MAX_ZIPPED_MB, help="zipped size limit")
    parser.add_argument(
        "--compile-with",
        metavar="PYTHON",
        help="a Python of the runtime's version to compile bytecode (default: python3.13)",
    )
    args = parser.parse_args(argv)

    try:
        zip_path, size = build(args.build_dir.resolve(), args.python_version, args.compile_with)
    except (BuildError, subprocess.CalledProcessError, FileNotFoundError) as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    zipped_mb = size / 2**20
    unzipped_mb = _size_of(zip_path.parent / "lambda") / 2**20
    print(f"{zip_path}: {zipped_mb:.2f} MB zipped ({unzipped_mb:.1f} MB unzipped)")
    if zipped_mb >= args.max_mb:
        print(f"build failed: {zipped_mb:.2f} MB is not under {args.max_mb} MB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
