"""``damiera egdb info`` (damiera.engine.egdb_files.info): what is on disk per piece count,
and every file there that a load would refuse named with the reason, a header read per file
(csrc/egdb_file.c's ``egdb_class_check``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from damiera.cli import main
from damiera.engine import egdb_files
from damiera.rules.variant import variant


def test_egdb_info_names_unusable_files_and_counts_usable_pieces_below_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file cut short or holding another class was counted as present, so ``egdb info``
    said a database was usable that the engine would refuse: now each such file is named
    with load's reason, and "usable" stops below its piece count."""
    v = variant("american")
    for _ in egdb_files.build(v, 3, tmp_path):
        pass
    folder = egdb_files.rules_dir(v, tmp_path)
    whole = (folder / "1011.egdb").read_bytes()
    (folder / "1011.egdb").write_bytes(whole[:-10])
    (folder / "1001.egdb").write_bytes((folder / "0101.egdb").read_bytes())
    capsys.readouterr()
    assert main(["egdb", "info", "american", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"2 pieces: 4 of 4 classes, [\d,]+ bytes, 1 unusable", lines[1])
    assert lines[2] == f"  unusable: {folder / '1001.egdb'}: holds class 0101, not 1001"
    assert re.fullmatch(r"3 pieces: 12 of 12 classes, [\d,]+ bytes, 1 unusable", lines[3])
    assert re.fullmatch(rf"  unusable: {re.escape(str(folder / '1011.egdb'))}: cut short: "
                        r"\d+ bytes of data, the header says \d+", lines[4])
    assert lines[-2:] == ["usable: none", ("delete the unusable files and build again: "
                                           "damiera egdb build american --pieces 3")]

    (folder / "1001.egdb").unlink()
    (folder / "1001.egdb").mkdir()                      # a directory, or a dangling link,
    (folder / "0110.egdb").unlink()                     # at a class's name is named too
    (folder / "0110.egdb").symlink_to("nothing.egdb")   # (they were counted as missing)
    assert main(["egdb", "info", "american", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"2 pieces: 4 of 4 classes, [\d,]+ bytes, 2 unusable", lines[1])
    assert lines[2:4] == [
        f"  unusable: {folder / '0110.egdb'}: cannot read: No such file or directory",
        (f"  unusable: {folder / '1001.egdb'}: a directory, not a regular file: not an "
         "endgame database file")]
    (folder / "1001.egdb").rmdir()
    (folder / "0110.egdb").unlink()
    assert main(["egdb", "build", "american", "--pieces", "2", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["egdb", "info", "american", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"2 pieces: 4 of 4 classes, [\d,]+ bytes", lines[1])
    assert lines[-2] == "usable: up to 2 pieces"
