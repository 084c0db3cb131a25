"""Test-wide setup: make the project's packages importable when it is not installed, and check
that no test leaves a database thread running."""

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _database_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


@pytest.fixture(autouse=True)
def no_database_thread_outlives_its_test() -> Iterator[None]:
    """Tests close what they open: a database thread left running would answer after its event
    loop closed (and a real bot would leave its database unclosed)."""
    before = _database_threads()
    yield
    left = []
    for thread in _database_threads() - before:
        thread.join(5.0)
        if thread.is_alive():
            left.append(thread.name)
    assert not left, f"database threads left running: {left}"
