"""Running the client's JS tests under node (`node --test`), for the tests that check the
page's pure modules against the engine and the service."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
"""node on the PATH, or None (the tests that need it are skipped)."""


def node_test(
    tests: Path, env: Mapping[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run the node test file ``tests`` from the repository's root, with ``env`` added to
    this process's environment; its output as text (the caller checks the outcome)."""
    assert NODE is not None, "node is not installed"
    return subprocess.run(
        [NODE, "--test", str(tests)],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
