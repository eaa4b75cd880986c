"""The native rules core, damiera._core (C sources in csrc/), for setuptools; everything else
about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup

# Every C unit of csrc/ (the binding, binding*.c, is the only one that includes Python.h; the
# others are also built without Python into the C test program, csrc/tests/).
SOURCES = sorted(p.name for p in Path("csrc").glob("*.c"))
HEADERS = sorted(p.name for p in Path("csrc").glob("*.h"))



def core(name: str, macros: list[tuple[str, str | None]]) -> Extension:
    """One build of the rules core: the same sources, the board word chosen by the macros."""
    return Extension(
        name,
        sources=[f"csrc/{source}" for source in SOURCES],
        depends=[f"csrc/{header}" for header in HEADERS],
        define_macros=macros,
        extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra",
                            "-Wno-missing-field-initializers"],
        libraries=["m", "z"],
    )


# damiera._core: 64-bit board words (8x8, 10x10). damiera._core_wide: the same sources with
# 128-bit words (-DDAMIERA_WIDE, csrc/position.h) for the boards of more than 64 bits (12x12).
setup(ext_modules=[core("damiera._core", []), core("damiera._core_wide", [("DAMIERA_WIDE", None)])])
