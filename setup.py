"""The native rules core, damiera._core (C sources in csrc/), for setuptools; everything else
about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup

# Every C unit of csrc/ (the binding, binding*.c, is the only one that includes Python.h; the
# others are also built without Python into the C test program, csrc/tests/).
SOURCES = sorted(p.name for p in Path("csrc").glob("*.c"))
HEADERS = sorted(p.name for p in Path("csrc").glob("*.h"))

setup(
    ext_modules=[
        Extension(
            "damiera._core",
            sources=[f"csrc/{name}" for name in SOURCES],
            depends=[f"csrc/{name}" for name in HEADERS],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra",
                                "-Wno-missing-field-initializers"],
            libraries=["m", "z"],
        )
    ]
)
