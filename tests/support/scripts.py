"""The project's scripts (benchmarks/, deployment/) loaded as modules, for tests of the
arithmetic and parsing inside them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO_DIR = Path(__file__).resolve().parents[2]


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (e.g. ``benchmarks/cost_per_game.py``), run as a module."""
    path = REPO_DIR / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import does: its dataclasses look it up there
    spec.loader.exec_module(module)
    return module
