"""Debian's Chromium driven by its chromedriver (Selenium), headless: the pages' benchmarks and
browser tests start it here (``tests/bot/chromium.py`` adds the tests' skip rules)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: Headless, and nothing that reaches for the network (this machine's is closed).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def missing() -> list[str]:
    """What is missing to drive Chromium (empty: nothing)."""
    return [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]


@contextmanager
def chromium(name: str, width: int = 1280, height: int = 800) -> Iterator[Any]:
    """A headless Chromium with a fresh profile, its window ``width`` by ``height``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    profile = Path(os.environ.get("TMPDIR", "/tmp")) / f"{name}-chromium-{os.getpid()}"
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
