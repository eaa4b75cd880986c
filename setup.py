"""The native rules core, damiera._core (C sources in csrc/), for setuptools; everything else
about the package is in pyproject.toml."""

from setuptools import Extension, setup

SOURCES = ["module.c", "movegen.c", "search.c", "evaluate.c", "engine.c", "egdb.c", "egdb_py.c"]
HEADERS = ["movegen.h", "search.h", "evaluate.h", "egdb.h", "egdb_py.h"]

setup(
    ext_modules=[
        Extension(
            "damiera._core",
            sources=[f"csrc/{name}" for name in SOURCES],
            depends=[f"csrc/{name}" for name in HEADERS],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra",
                                "-Wno-missing-field-initializers"],
        )
    ]
)
