"""Shared test helpers: where the specification's reference data lives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "reference"


def load_reference(name: str) -> dict[str, Any]:
    """Load ``shared/reference/<name>``; skips the calling test cleanly if shared/ is missing."""
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"{path} not found: the specification's shared/ folder is not beside the repo")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def reference_cases(name: str) -> list[dict[str, Any]]:
    """The cases of a reference file for parametrisation (empty if shared/ is missing)."""
    path = REFERENCE / name
    if not path.exists():
        return []
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases
