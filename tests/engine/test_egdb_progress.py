"""``damiera egdb build``'s progress bar names the piece count of the class being solved."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from damiera.cli import main


def test_egdb_build_progress_label_names_the_pieces_of_the_class_being_solved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bar said 'american 3 pieces' (the database's most) while it solved the 2-piece
    classes: it starts at 'american 2 pieces', the first classes' count, and the counts it
    shows are of the classes, never above them."""
    assert main(["egdb", "build", "american", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    labels = re.findall(r"american (\d) pieces", err)
    assert labels and labels[0] == "2", err
    assert labels == sorted(labels)
