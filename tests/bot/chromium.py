"""Debian's Chromium for the pages' browser tests (the live board): missing, the tests skip,
except in CI (``CI=true``), where they fail. Chromium itself starts in ``benchmarks.chromium``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from benchmarks import chromium as browser


def needs(missing: list[str], what: str) -> None:
    """Skip (fail in CI) when anything the test needs is ``missing``."""
    if not missing:
        return
    message = f"{', '.join(missing)} missing: {what}"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def chromium(name: str, width: int = 1280, height: int = 800) -> Iterator[Any]:
    """A headless Chromium with a fresh profile (skipped, or failed in CI, without one)."""
    needs(
        browser.missing(),
        "the browser tests need Debian's chromium and chromium-driver (bash scripts/test "
        "installs them as root: apt-get install chromium chromium-driver)",
    )
    with browser.chromium(name, width, height) as driver:
        yield driver
