"""The shipped systemd units and their environment file (``deploy/systemd/``), rendered for a
test: the command line of a unit's ``ExecStart`` and the settings of ``damiera.env``, with the
site's name replaced and only the paths that tie them to a machine changed."""

from __future__ import annotations

import re
import shlex
import sys

from tests.services.nginx import ROOT, SHIPPED_NAME

SYSTEMD = ROOT / "deploy" / "systemd"
#: The application's socket in the shipped unit and nginx site.
SHIPPED_SOCKET = "/run/damiera/web.sock"


def exec_start(unit: str) -> tuple[str, list[str]]:
    """The program and arguments of ``ExecStart`` in ``deploy/systemd/<unit>``."""
    text = (SYSTEMD / unit).read_text()
    found = re.search(r"^ExecStart=(\S+) (.*)$", text, re.MULTILINE)
    assert found is not None, f"{unit} has no ExecStart line"
    return found.group(1), shlex.split(found.group(2))


def environment_file(name: str = SHIPPED_NAME) -> dict[str, str]:
    """The settings of ``deploy/systemd/damiera.env`` (``KEY=VALUE`` lines, ``#`` comments, as
    systemd's ``EnvironmentFile=`` reads them), with the site's name ``name``."""
    settings: dict[str, str] = {}
    for line in (SYSTEMD / "damiera.env").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        settings[key.strip()] = value.strip().replace(SHIPPED_NAME, name)
    return settings


def serve_command(socket_path: str) -> list[str]:
    """``damiera-web.service``'s command, run with this Python, on ``socket_path``."""
    program, args = exec_start("damiera-web.service")
    assert program.endswith("/bin/damiera"), program
    assert args.count(SHIPPED_SOCKET) == 1, args
    return [sys.executable, "-m", "damiera",
            *[socket_path if a == SHIPPED_SOCKET else a for a in args]]
