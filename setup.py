"""The build: the engine's modules compiled to C by mypyc, about twice as fast as pure Python.

Everything else is in ``pyproject.toml``. mypyc turns the engine's typed modules (``mypy
--strict`` passes on them) into C extensions that sit beside their sources; the package's
``__init__`` modules stay Python. :class:`BuildEngine` (the ``build_ext`` command) runs mypyc
and the C compiler, then writes the manifest of what it built (``engine/_compiled.json``, see
``engine/_manifest.py``): :mod:`engine._compiled` runs the compiled modules only while they
match their sources. The build deletes nothing: a build left over is never run (its source
changed since, or its module is no longer compiled).

It prints one line, ``engine: ...``, and compiles nothing when the build beside the sources is
of exactly these sources (``pip install -e .`` again), with ``ENGINE_PURE=1``, or when no C
compiler builds a test extension (the engine then runs as pure Python).
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def load_manifest() -> ModuleType:
    """``engine/_manifest.py``, by its path: the engine cannot be imported before its build."""
    spec = importlib.util.spec_from_file_location("engine_manifest", ROOT / "engine/_manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


manifest = load_manifest()

#: A test extension: the C compiler must compile (with Python's headers) and link it.
PROBE = "#include <Python.h>\nint engine_probe(void) { return 0; }\n"


def mypyc_extensions(sources: list[str]) -> list[Extension]:
    """mypyc's C extensions of ``sources`` (it writes their C code under ``build/``)."""
    from mypyc.build import mypycify

    # Type-check the whole engine (its __init__ modules included), compile only the modules.
    everything = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py"))
    return mypycify(
        [*everything, "--strict"],
        only_compile_paths=sources,
        group_name=manifest.GROUP,
        opt_level="3",
        debug_level="0",
    )


def stand_ins() -> list[Extension]:
    """The extensions mypyc makes, by name, without their C code (mypyc writes it when
    :class:`BuildEngine` runs, not when pip only asks for the metadata): its shared library
    and each compiled module. setuptools plans their files, and runs ``build_ext``, from these.
    """
    names = [manifest.LIBRARY, *(s.removesuffix(".py") for s in manifest.compiled_sources(ROOT))]
    return [Extension(name.replace("/", "."), sources=[]) for name in names]


class BuildEngine(build_ext):
    """``build_ext``: the engine compiled by mypyc, then the manifest of what was built."""

    def run(self) -> None:
        self.target = ROOT if self.inplace else Path(self.build_lib)  # where the builds go
        self.made = None  # the manifest to write once built (a manifest.Manifest)
        self.built: set[str] = set()
        super().run()
        if self.made is not None:
            manifest.write(self.target, self.made)

    def build_extensions(self) -> None:
        """Called by ``run`` once the C compiler is set up."""
        planned, self.extensions = self.extensions, []
        if os.environ.get("ENGINE_PURE", "") not in ("", "0"):
            return self.stay_pure("pure Python, ENGINE_PURE=1 at install")
        if self.target == ROOT and manifest.current(ROOT):
            print("engine: compiled by mypyc, no engine source changed since: not rebuilt")
            return None
        compiler = self.compiler_fails()
        if compiler is not None:
            return self.stay_pure(
                f"pure Python, no working C compiler at install ({compiler} could not build "
                "a test extension)"
            )
        sources = manifest.compiled_sources(ROOT)
        hashes = manifest.digests(ROOT, sources)  # as mypyc reads them
        try:
            made = {extension.name: extension for extension in mypyc_extensions(sources)}
        except (SystemExit, Exception) as error:  # mypyc exits on code it cannot compile
            return self.stay_pure(f"pure Python, mypyc failed at install ({error})")
        if set(made) != {extension.name for extension in planned}:
            return self.stay_pure("pure Python, mypyc made other extensions than planned")
        for extension in planned:
            for key, value in vars(made[extension.name]).items():
                if not key.startswith("_"):  # setuptools' plan of its files stays
                    setattr(extension, key, value)
            extension.optional = True  # one failing fails the engine's build, not the install
        self.extensions = planned
        super().build_extensions()
        failed = sorted(e.name for e in planned if e.name not in self.built)
        if failed:
            self.extensions = []
            return self.stay_pure(
                f"pure Python, the C build of {failed[0]} failed at install (pip -v shows why)"
            )
        self.made = manifest.Manifest(hashes)
        print(f"engine: compiled by mypyc ({len(sources)} modules)")
        return None

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)
        self.built.add(ext.name)

    def stay_pure(self, why: str) -> None:
        """Build nothing; the manifest says why (the builds beside the sources are not run)."""
        print(f"engine: {why}")
        self.made = manifest.Manifest({}, why)

    def compiler_fails(self) -> str | None:
        """The C compiler's name if it cannot build a test extension, else None."""
        name = Path(str((getattr(self.compiler, "compiler_so", None) or ["cc"])[0])).name
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder, "probe.c")
            source.write_text(PROBE)
            try:
                objects = self.compiler.compile([str(source)], output_dir=folder)
                self.compiler.link_shared_object(objects, str(Path(folder, "probe.so")))
            except Exception:  # CompileError, LinkError: what it said, pip -v shows
                return name
        return None


setup(cmdclass={"build_ext": BuildEngine}, ext_modules=stand_ins())
