"""The PDN library readers given a path: a path that is not a regular file (a FIFO, a
directory) is refused at once with :class:`damiera.files.NotRegularFileError`, an OSError,
never waited on; a regular file is read and closed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from damiera import pdn
from damiera.files import NotRegularFileError

# Run in a child process with a timeout, so that a reader that waits for a FIFO's writer
# fails the test instead of hanging the suite.
_CHILD = """
import sys
from pathlib import Path
from damiera import pdn
path, reader = Path(sys.argv[1]), sys.argv[2]
try:
    list(pdn.read_games(path)) if reader == "read_games" else pdn.read_game(path)
except OSError as exc:
    print(type(exc).__name__, exc.strerror, sep=": ")
"""


@pytest.mark.parametrize("reader", ["read_games", "read_game"])
def test_a_fifo_path_is_refused_at_once_not_waited_on(tmp_path: Path, reader: str) -> None:
    fifo = tmp_path / "games.pdn"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-c", _CHILD, str(fifo), reader],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.stdout == "NotRegularFileError: a FIFO, not a regular file\n", done.stderr


def test_a_directory_path_is_refused_with_the_same_error(tmp_path: Path) -> None:
    with pytest.raises(NotRegularFileError, match="a directory, not a regular file"):
        pdn.read_game(tmp_path)


def test_a_regular_file_path_is_read(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text('[Event "Club"]\n1. 32-28 19-23 *\n', encoding="utf-8")
    (game,) = pdn.read_games(path)
    assert [str(m) for m in game.moves] == ["32-28", "19-23"]
