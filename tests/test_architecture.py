"""The architecture of ``pyproject.toml``'s ``[tool.importlinter]``: layers (bot, renderer,
engine), a core that never imports the Discord layer, a storage interface that does not import
its implementations, and no import circle among the modules of a package (function-level imports
count). A new circle or a wrong-way import fails here with import-linter's explanation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_the_import_contracts_hold() -> None:
    linter = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout
