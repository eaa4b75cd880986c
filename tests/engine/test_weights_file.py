"""The weights file's version 3: the rules key the weights were trained for and a CRC-32 of the
weight bytes, both checked when read (a file of other rules or a damaged one is refused with
the one-line error of other malformed files); versions 1 and 2 are still read."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import zlib
from array import array
from pathlib import Path

import pytest

from damiera.engine import patterns as pat
from damiera.engine.evaluate import Evaluator
from damiera.rules.geometry import geometry
from damiera.rules.position import start_position
from damiera.rules.variant import VARIANTS, Variant, variant
from tests.engine.weights_files import write_unchecked

RUSSIAN = variant("russian")
BRAZILIAN = variant("brazilian")  # the same board and windows as Russian, other rules

#: SHA-256 of every window's table (all phases, 16-bit little-endian) as read from each
#: shipped file before it was rewritten in version 3 (versions 1 and 2 then): the rewrite
#: kept the weights, so the evaluation did not change. Russian's file was replaced since, by
#: g2r4 (benchmarks/eval_results.md, "Russian at scale"), then by g2t4 with learned terms
#: ("Russian: learned terms"), and American's by g3t4 ("American: a second generation, with
#: learned terms"), then by g5s ("American: a fourth generation, and deeper labels for the
#: endings"), and International's by g8w ("International: king windows, and a generation three
#: times the size"): their tables as written.
TABLES_BEFORE_VERSION_3 = {
    "10x10-4rows-back-flying-menkings-majority-pass_through-mandatory":
        "13466606584e521a79063476490983bcebb889025c1bac901008802c66300be7",
    "8x8-3rows-back-flying-menkings-free-promote_and_continue-mandatory":
        "94280457e29d59d1729240a8f1ce0f3a19659da4675463137440fa37ad73b6f7",
    "8x8-3rows-back-flying-menkings-majority-pass_through-mandatory":
        "28ee1b4348f368641831b6997a00a6e01a72ef39f487cb0cf823944fec623a68",
    "8x8-3rows-forward-flying-menkings-king_precedence-promote_and_stop-mandatory":
        "7bb8f313ed41b64af503592e62431e45059e8a97252379843cd898736f0ac962",
    "8x8-3rows-forward-flying-menkings-most_pieces_then_kings-promote_and_stop-mandatory":
        "3e9d4c13a1da16b12c3ced28bfc8e4958fe7e771c7ee8fc94088bb1c8f28c9a7",
    "8x8-3rows-forward-short-menkings-free-promote_and_stop-mandatory":
        "df8189d4164e6b166c183773cfdaa0a965f13584832b343e3685649875edf23a",
    "8x8-3rows-forward-short-nomenkings-italian_priorities-promote_and_stop-mandatory":
        "bc0b5df64dea5f446bb695340b5b8ba23bdd80dd9ac5d0bada851dfd352b9847",
}


#: The king windows of the shipped files of version 5 (the others have none): their rows and
#: the SHA-256 of every king window's table as read. American's: g5w, the king windows fitted
#: on top of g5s's tables and terms (benchmarks/eval_results.md, "American: king windows in
#: the engine"); International's: g8w, fitted the same way on g8t4 ("International: king
#: windows, and a generation three times the size").
SHIPPED_KING_WINDOWS = {
    "10x10-4rows-back-flying-menkings-majority-pass_through-mandatory":
        (3, "fc773c2d28262214fb726d5cc28b675ee5ea73b7132f4a43a32329c5308a98ae"),
    "8x8-3rows-forward-short-menkings-free-promote_and_stop-mandatory":
        (3, "196922fa64e2fc488380fc8162915990a7f6d563e9087d676bfa20bb4ab18c19"),
}

#: The learned terms' weights of the shipped files of version 4 or 5 (the others weigh none).
SHIPPED_TERMS = {
    "10x10-4rows-back-flying-menkings-majority-pass_through-mandatory":
        (-4, -92, -31, -117, 14, 15, 6, 32),
    "8x8-3rows-back-flying-menkings-free-promote_and_continue-mandatory":
        (8, 155, -61, -16, 16, -33, 13, 258),
    "8x8-3rows-forward-short-menkings-free-promote_and_stop-mandatory":
        (0, 46, -10, 21, -3, -5, 1, 88),
}


def _shipped() -> dict[str, Variant]:
    """One variant for each shipped weights file, by the file's name without ``.bin``."""
    return {pat.rules_key(v): v for v in VARIANTS.values() if pat.weights_path(v).exists()}


def _digest(tables: list[list[int]]) -> str:
    flat = array("h", [w for table in tables for w in table])
    return hashlib.sha256(flat.tobytes()).hexdigest()  # little-endian machines (x86, arm)


def _russian_file(path: Path) -> list[list[int]]:
    """Write Russian weights (3-row windows, one phase) to ``path``; their every table."""
    pset = pat.PatternSet(geometry(RUSSIAN), 3)
    mirror = pset.mirror()
    tables = [[0] * pset.size for _ in pset.windows]
    for w in pset.canonical():
        for p in range(pset.size):
            tables[w][p] = (w * 7 + p * 13) % 41 - 20
        if pset.partner[w] == w:  # its own mirror image: an antisymmetric table
            tables[w] = [tables[w][p] - tables[w][mirror[p]] for p in range(pset.size)]
    for w, other in enumerate(pset.partner):
        if w > other:
            tables[w] = [-tables[other][mirror[p]] for p in range(pset.size)]
    pat.save_weights(path, pset, {w: tables[w] for w in pset.canonical()},
                     key=pat.rules_key(RUSSIAN))
    return tables


def test_the_shipped_files_carry_their_rules_key_and_checksum() -> None:
    shipped = _shipped()
    assert set(shipped) == set(TABLES_BEFORE_VERSION_3)
    for key, v in shipped.items():
        head, body = pat.weights_path(v).read_bytes().split(b"\n", 1)
        words = head.decode("ascii").split()
        version = "5" if key in SHIPPED_KING_WINDOWS else "4" if key in SHIPPED_TERMS else "3"
        assert words[:2] == ["damiera-patterns", version] and words[-2] == key, head
        assert words[-1] == f"{zlib.crc32(body):08x}"


def test_the_shipped_tables_are_those_of_before_version_3() -> None:
    for key, v in _shipped().items():
        _rows, tables = pat.read_weights_file(v, pat.weights_path(v))
        assert _digest(tables) == TABLES_BEFORE_VERSION_3[key], key


def test_the_shipped_learned_terms_are_the_pinned_ones() -> None:
    for key, v in _shipped().items():
        assert Evaluator(v, patterns=True).terms == SHIPPED_TERMS.get(key, ()), key


def test_the_shipped_king_windows_are_the_pinned_ones() -> None:
    for key, v in _shipped().items():
        kings = pat.read_king_windows(v, pat.weights_path(v))
        got = (kings[0], _digest(kings[1])) if kings else None
        assert got == SHIPPED_KING_WINDOWS.get(key), key
        assert Evaluator(v, patterns=True).king_rows == (got[0] if got else 0), key


def test_a_file_of_other_rules_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "w.bin"
    _russian_file(path)
    assert pat.read_weights_file(RUSSIAN, path)[0] == 3
    with pytest.raises(ValueError) as info:
        pat.read_weights_file(BRAZILIAN, path)  # the same board: only the key tells
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    assert (f"trained for the rules {pat.rules_key(RUSSIAN)}, not for "
            f"{pat.rules_key(BRAZILIAN)}") in message
    # At a rule set's own path the engine plays without it and says why, as for a bad file.
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    path.rename(pat.weights_path(BRAZILIAN))
    with pytest.warns(UserWarning, match="not for .*playing without the trained patterns"):
        ev = Evaluator(BRAZILIAN, patterns=True)
    pos = start_position(BRAZILIAN)
    assert ev.weights_file is None
    assert ev.evaluate(pos) == Evaluator(BRAZILIAN, patterns=False).evaluate(pos)


@pytest.mark.parametrize("where", ["first weight", "last weight", "checksum"])
def test_a_flipped_byte_is_refused(tmp_path: Path, where: str) -> None:
    path = tmp_path / "w.bin"
    _russian_file(path)
    data = bytearray(path.read_bytes())
    head = data.index(b"\n")
    at = {"first weight": head + 1, "last weight": len(data) - 1, "checksum": head - 1}[where]
    data[at] ^= 0x01 if where != "checksum" else 0x03  # a hex digit stays a hex digit
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC-32 is [0-9a-f]{8}, the header says "
                                         "[0-9a-f]{8}: the file is damaged") as info:
        pat.read_weights_file(RUSSIAN, path)
    assert "\n" not in str(info.value) and str(info.value).startswith(str(path))


@pytest.mark.parametrize(("header", "why"), [
    (b"damiera-patterns 3 3 18 3 KEY 12345678\n", ("phases word of a version 3 header must "
                                                 "be 1 or 2")),
    (b"damiera-patterns 3 3 18 1 12345678\n", ("a version 3 header of 6 words, expected 7 "
                                              "('damiera-patterns 3 ROWS WINDOWS PHASES")),
    (b"damiera-patterns 4 3 18 1 KEY 12345678\n", "a version 4 header of 7 words, expected 8"),
    (b"damiera-patterns 2 3 18 1\n", "phases word of a version 2 header must be 2"),
    (b"damiera-patterns 1 3 18 2\n", "a version 1 header of 5 words, expected 4"),
])
def test_a_header_out_of_shape_is_not_a_patterns_file_and_says_which_word(
        tmp_path: Path, header: bytes, why: str) -> None:
    path = tmp_path / "w.bin"
    path.write_bytes(header.replace(b"KEY", pat.rules_key(RUSSIAN).encode()))
    with pytest.raises(ValueError, match="not a patterns file") as info:
        pat.read_weights_file(RUSSIAN, path)
    assert why in str(info.value)


@pytest.mark.parametrize("word", [b"1234ABCD", b"1234567", b"123456789", b"1234567G",
                                  b"12\x1b[2J5678"])
def test_a_malformed_checksum_word_is_named_as_such(tmp_path: Path, word: bytes) -> None:
    """A version 3 header whose checksum is not 8 lowercase hex digits (uppercase, a digit
    too few or too many, not hex) is refused, and the message says what is wrong with it
    rather than only that the file is not a patterns file."""
    path = tmp_path / "w.bin"
    _russian_file(path)
    head, body = path.read_bytes().split(b"\n", 1)
    path.write_bytes(head.rsplit(b" ", 1)[0] + b" " + word + b"\n" + body)
    with pytest.raises(ValueError, match="bad checksum word in the header") as info:
        pat.read_weights_file(RUSSIAN, path)
    message = str(info.value)
    assert message.startswith(str(path)) and "8 lowercase hex digits" in message
    assert message.isprintable()  # an escape byte is shown escaped, never raw


def test_a_long_or_odd_header_word_is_shown_cut_and_says_so(tmp_path: Path) -> None:
    """A rules key, a window count or a file start shown in a message is cut at 40 bytes
    with a mark that says so, and a control byte in it is shown escaped, never raw."""
    path = tmp_path / "w.bin"
    _russian_file(path)
    head, body = path.read_bytes().split(b"\n", 1)
    words = head.split(b" ")
    words[5] = b"8x8\x1b[2J" + b"k" * 60  # not a plain key, 69 bytes
    path.write_bytes(b" ".join(words) + b"\n" + body)
    with pytest.raises(ValueError, match="trained for the rules") as info:
        pat.read_weights_file(RUSSIAN, path)
    message = str(info.value)
    assert message.isprintable() and "\\x1b" in message
    assert "k" * 31 + "'... (first 40 bytes), not for" in message
    path.write_bytes(b"damiera-patterns 1 3 1\x078\n" + body)
    with pytest.raises(ValueError, match="windows do not fit") as info:
        pat.read_weights_file(RUSSIAN, path)
    assert str(info.value).isprintable() and "\\x07" in str(info.value)
    path.write_bytes(b"\x01" + b"x" * 100)  # no header line: the start is shown, cut
    with pytest.raises(ValueError, match="not a patterns file") as info:
        pat.read_weights_file(RUSSIAN, path)
    assert str(info.value).isprintable() and "'... (first 40 bytes)" in str(info.value)


@pytest.mark.parametrize("cut", [len(b"damiera-patterns "), 25, -1])
def test_a_file_cut_inside_its_header_line_is_named_cut_short(tmp_path: Path, cut: int) -> None:
    """A weights file cut before the end of its first line (its header starts as a patterns
    file's does, but no newline follows) says so, rather than quoting its start, which looks
    like a valid header, as the reason."""
    path = tmp_path / "w.bin"
    _russian_file(path)
    head = path.read_bytes().split(b"\n", 1)[0]
    path.write_bytes(head[:cut])
    with pytest.raises(ValueError, match="the header line has no end") as info:
        pat.read_weights_file(RUSSIAN, path)
    message = str(info.value)
    assert "cut short inside its header" in message and "starts" not in message
    path.write_bytes(b"damiera-patternsX 3 3 18 1")  # another word, no newline: not ours
    with pytest.raises(ValueError, match="not a patterns file"):
        pat.read_weights_file(RUSSIAN, path)


@pytest.mark.parametrize("extra", [1, 2, 3, 1000])
def test_bytes_after_the_weights_are_named_as_trailing_not_as_cut_short(tmp_path: Path,
                                                                        extra: int) -> None:
    path = tmp_path / "w.bin"
    _russian_file(path)
    whole = path.read_bytes()
    path.write_bytes(whole + b"\0" * extra)
    with pytest.raises(ValueError) as info:
        pat.read_weights_file(RUSSIAN, path)
    message = str(info.value)
    s = "" if extra == 1 else "s"
    assert f": {extra} byte{s} after the weights" in message and "cut short" not in message
    for cut in (1, 2):  # and a file that is short says so
        path.write_bytes(whole[:-cut])
        with pytest.raises(ValueError, match="cut short"):
            pat.read_weights_file(RUSSIAN, path)


@pytest.mark.parametrize("version", [1, 2])
def test_the_older_versions_are_still_read(tmp_path: Path, version: int) -> None:
    """A user's own file trained before version 3 keeps working (and, having no key, is not
    checked against the rules)."""
    path = tmp_path / "w.bin"
    tables = _russian_file(path)
    body = path.read_bytes().split(b"\n", 1)[1]
    header = b"damiera-patterns 1 3 18\n" if version == 1 else b"damiera-patterns 2 3 18 2\n"
    path.write_bytes(header + body * version)
    assert pat.read_weights_file(RUSSIAN, path) == (3, tables * version)
    assert pat.read_weights_file(BRAZILIAN, path) == (3, tables * version)


def test_save_weights_needs_a_rules_key(tmp_path: Path) -> None:
    pset = pat.PatternSet(geometry(RUSSIAN), 1)
    tables = {w: [0] * pset.size for w in pset.canonical()}
    for bad in ("", "8x8 russian", "8x8\nrussian", "é"):
        with pytest.raises(ValueError, match="not a rules key"):
            pat.save_weights(tmp_path / "w.bin", pset, tables, key=bad)
    assert not (tmp_path / "w.bin").exists()


def test_save_weights_refuses_a_key_that_is_not_a_str(tmp_path: Path) -> None:
    pset = pat.PatternSet(geometry(RUSSIAN), 1)
    tables = {w: [0] * pset.size for w in pset.canonical()}
    for bad in (pat.rules_key(RUSSIAN).encode(), 8, None):
        with pytest.raises(TypeError, match="rules key .* a str"):
            pat.save_weights(tmp_path / "w.bin", pset, tables, key=bad)  # type: ignore[arg-type]
    assert not (tmp_path / "w.bin").exists()


def _mutated_tables(pset: pat.PatternSet, rng: random.Random) -> list[list[int]]:
    """The canonical windows' tables of a valid set (a self-mirrored window's antisymmetric),
    then up to three weights changed to an edge value (16-bit extremes, beyond them, or a
    small number that may break a self-mirrored window's antisymmetry)."""
    mirror = pset.mirror()
    tables = []
    for w in pset.canonical():
        t = [rng.randint(-40, 40) for _ in range(pset.size)]
        if pset.partner[w] == w:
            t = [t[p] - t[mirror[p]] for p in range(pset.size)]
        tables.append(t)
    for _ in range(rng.randint(0, 3)):
        t = rng.choice(tables)
        p = rng.randrange(pset.size)
        t[p] = rng.choice([-32768, 32767, -32767, 32768, -32769, 0, 1, -t[mirror[p]]])
    return tables


def test_every_table_save_weights_accepts_the_reader_reads(tmp_path: Path) -> None:
    """save_weights checks what the reader checks (16-bit weights, no -32768, whose
    opposite does not fit; a self-mirrored window's table its own negated mirror; windows of
    1-4 rows): it refuses, with ValueError, exactly the tables whose file the reader refuses,
    so a file it writes always reads back."""
    rng = random.Random(31)
    key = pat.rules_key(RUSSIAN)
    geo = geometry(RUSSIAN)
    outcomes = {"saved": 0, "refused": 0}
    for rows, count in ((0, 3), (1, 60), (2, 150), (3, 20), (4, 6), (5, 3)):
        pset = pat.PatternSet(geo, rows)
        canonical = pset.canonical()
        for _ in range(count):
            phases = [_mutated_tables(pset, rng) for _ in range(rng.randint(1, 2))]
            unchecked = tmp_path / "unchecked.bin"
            saved = tmp_path / "saved.bin"
            saved.unlink(missing_ok=True)
            fits = all(-32768 <= x <= 32767 for t in phases[0] + phases[-1] for x in t)
            reads = False
            if fits:
                write_unchecked(unchecked, rows, len(pset.windows), phases, key)
                try:
                    expected = pat.read_weights_file(RUSSIAN, unchecked)
                    reads = True
                except ValueError:
                    pass
            tables = [dict(zip(canonical, t)) for t in phases]
            try:
                pat.save_weights(saved, pset, *tables, key=key)
            except ValueError:
                assert not reads and not saved.exists(), (rows, phases)
                outcomes["refused"] += 1
                continue
            assert reads, (rows, phases)
            assert pat.read_weights_file(RUSSIAN, saved) == expected
            outcomes["saved"] += 1
    assert min(outcomes.values()) > 40, outcomes  # both sides of the line were tried


def test_save_weights_has_the_reader_s_size_limit() -> None:
    header = (Path(__file__).resolve().parents[2] / "csrc" / "weights.h").read_text()
    assert f"#define WEIGHTS_MAX_BYTES ({pat.MAX_FILE_BYTES >> 20} << 20)" in header


#: Reads a weights path given as argv[1] for Russian, then builds Russian's evaluator with
#: that path as its weights file; prints the error and the warning.
_READ_AND_PLAY = """
import sys, warnings
from pathlib import Path
from damiera.engine import patterns as pat
from damiera.engine.evaluate import Evaluator
from damiera.rules.variant import variant
v = variant("russian")
path = Path(sys.argv[1])
try:
    pat.read_weights_file(v, path)
except ValueError as exc:
    print("error:", exc)
pat._DIR = path.parent
path.rename(pat.weights_path(v))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    Evaluator(v, patterns=True)
print("warning:", caught[0].message)
"""


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_path_that_is_not_a_regular_file_is_refused_without_blocking(tmp_path: Path,
                                                                        kind: str) -> None:
    """A FIFO at a weights path once blocked the reader (an open for reading waits for a
    writer): a path that is not a regular file is refused at once, by name. Run in a child
    process with a timeout, so that a regression fails instead of hanging the suite."""
    path = tmp_path / "w.bin"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    done = subprocess.run([sys.executable, "-c", _READ_AND_PLAY, str(path)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    error, warning = done.stdout.splitlines()
    what = {"fifo": "a FIFO", "directory": "a directory"}[kind]
    assert error == f"error: {path}: {what}, not a regular file: not a weights file"
    assert warning.startswith(f"warning: {tmp_path}") and f"{what}, not a regular file" in warning
    assert warning.endswith("playing without the trained patterns")
