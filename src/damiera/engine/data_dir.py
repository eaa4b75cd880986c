"""Where files the engine builds on this machine live (endgame databases, opening books)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir(env: str, name: str) -> Path:
    """The folder named by the environment variable ``env`` when it is set and not empty
    (``~`` expanded), else ``name`` in the user's data folder (platformdirs:
    ``~/.local/share/damiera/<name>`` on Linux)."""
    named = os.environ.get(env, "").strip()
    if named:
        return expand_user(named)
    return platformdirs.user_data_path("damiera", appauthor=False) / name


def expand_user(text: str) -> Path:
    """``text`` as a path with a leading ``~`` or ``~user`` expanded; kept as written when
    that user (or the home folder) is unknown, as a shell leaves it."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        return Path(text)
