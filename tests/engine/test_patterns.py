"""Patterns of men in the evaluation: windows, symmetry, the packed computation, the file."""

from __future__ import annotations

import dataclasses
import enum
import random

import pytest

from damiera.engine import patterns as pat
from damiera.engine.evaluate import Evaluator
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import Color, variant
from tests.engine.weights_files import write_unchecked

INTERNATIONAL = variant("international")
RUSSIAN = variant("russian")
AMERICAN = variant("american")
RUSSIAN_KEY = pat.rules_key(RUSSIAN)
ITALIAN = variant("italian")
#: One variant of each board and king kind: 10x10 flying, 8x8 flying (men capture backward),
#: 8x8 short kings (men move and capture forward only), and Italian's mirrored board.
BOARDS = [INTERNATIONAL, RUSSIAN, AMERICAN, ITALIAN]
#: Every named variant (each has its own weights key, and may have its own file).
ALL = [variant(name) for name in
       ("american", "italian", "czech", "russian", "brazilian", "spanish", "international")]


def _random_positions(v, count: int, seed: int) -> list[Position]:
    """Positions from random games (every 3rd ply kept)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = start_position(v)
        for ply in range(rng.randint(10, 80)):
            moves = generate(v, pos)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves))
            if ply % 3 == 0:
                out.append(pos)
    return out[:count]


def _random_tables(pset: pat.PatternSet, seed: int, symmetric: bool = False) -> list[list[int]]:
    """Random window tables; ``symmetric``: each partner's table the negated mirror of its
    window's (as trained tables are)."""
    rng = random.Random(seed)
    tables = [[rng.randint(-50, 50) for _ in range(pset.size)] for _ in pset.windows]
    if symmetric:
        mirror = pset.mirror()
        for w in pset.canonical():
            t = tables[w]
            if pset.partner[w] == w:
                for q in range(pset.size):
                    t[q] = 0 if mirror[q] == q else (t[q] if q < mirror[q] else -t[mirror[q]])
            else:
                tables[pset.partner[w]] = [-t[mirror[q]] for q in range(pset.size)]
    return tables


def _rotate(v, pos: Position) -> Position:
    """The board turned half a turn with the colours swapped (and the side to move)."""
    geo = geometry(v)
    n = geo.size

    def turn(bits: int) -> int:
        out = 0
        for s, (r, c) in geo.coords.items():
            if bits >> s & 1:
                out |= 1 << geo.by_coords[(n - 1 - r, n - 1 - c)]
        return out

    return Position(turn(pos.black), turn(pos.white), turn(pos.kings), pos.turn.opponent)


def test_windows_cover_four_rows_by_four_files_on_both_boards():
    for v, count in ((INTERNATIONAL, 28), (RUSSIAN, 15)):
        pset = pat.PatternSet(geometry(v))
        assert len(pset.windows) == count
        geo = geometry(v)
        for squares in pset.squares:
            rows = {geo.row(s) for s in squares}
            cols = {geo.coords[s][1] for s in squares}
            assert len(squares) == 8 and len(rows) == 4 and max(cols) - min(cols) <= 3


@pytest.mark.parametrize(("v", "rows", "count"), [
    (INTERNATIONAL, 3, 32), (AMERICAN, 3, 18), (AMERICAN, 2, 21), (RUSSIAN, 1, 24)])
def test_windows_of_fewer_rows_tile_the_board_the_same_way(v, rows, count):
    """``rows`` x 4 files: on 8x8, 3 files pairs a band and 9 - rows bands (18 windows of
    3 rows, the shipped shape); every playing square is in some window."""
    geo = geometry(v)
    pset = pat.PatternSet(geo, rows)
    assert len(pset.windows) == count and pset.size == 3 ** (2 * rows)
    for squares in pset.squares:
        assert len(squares) == 2 * rows == len(set(squares))
        assert len({geo.row(s) for s in squares}) == rows
        cols = [geo.coords[s][1] for s in squares]
        assert max(cols) - min(cols) <= 3
    assert set().union(*map(set, pset.squares)) == set(geo.squares)


@pytest.mark.parametrize(("v", "rows"), [(INTERNATIONAL, 4), (INTERNATIONAL, 3),
                                         (AMERICAN, 3), (AMERICAN, 4), (RUSSIAN, 2),
                                         (ITALIAN, 3)])
def test_partner_windows_are_the_rotated_ones_and_mirror_is_an_involution(v, rows):
    """A window's partner holds the squares of its half-turn image; on 8x8 a band of an even
    number of rows has a middle band, whose middle window is its own partner (4 rows: one);
    3-row windows have none."""
    geo = geometry(v)
    pset = pat.PatternSet(geo, rows)
    mirror = pset.mirror()
    n = geo.size
    assert all(mirror[mirror[p]] == p for p in range(pset.size))
    assert all(pset.partner[pset.partner[w]] == w for w in range(len(pset.windows)))
    selves = [w for w in range(len(pset.windows)) if pset.partner[w] == w]
    assert len(selves) == (1 if n == 8 and rows % 2 == 0 else 0)
    for w, squares in enumerate(pset.squares):
        turned = {geo.by_coords[(n - 1 - r, n - 1 - c)]
                  for r, c in (geo.coords[s] for s in squares)}
        assert turned == set(pset.squares[pset.partner[w]])
    for pos in _random_positions(v, 20, seed=3):
        rot = _rotate(v, pos)
        for w in range(len(pset.windows)):
            p = pset.pattern(w, pos.white & ~pos.kings, pos.black & ~pos.kings)
            q = pset.pattern(pset.partner[w], rot.white & ~rot.kings, rot.black & ~rot.kings)
            assert q == mirror[p]


@pytest.mark.parametrize("rows", [1, 2, 3, 4])
@pytest.mark.parametrize("v", BOARDS, ids=lambda v: v.id)
def test_packed_pattern_sum_equals_the_square_by_square_sum(v, rows):
    pset = pat.PatternSet(geometry(v), rows)
    tables = _random_tables(pset, seed=7)
    with_patterns = Evaluator(v, tables=(pset.rows, tables))
    without = Evaluator(v, patterns=False)
    for pos in _random_positions(v, 150, seed=11):
        wm, bm = pos.white & ~pos.kings, pos.black & ~pos.kings
        expected = sum(tables[w][pset.pattern(w, wm, bm)] for w in range(len(pset.windows)))
        a, b = with_patterns.evaluate(pos), without.evaluate(pos)
        if b == -(1 << 30):  # no move: no score either way
            assert a == b
            continue
        sign = 1 if pos.turn is Color.WHITE else -1
        # The lone-king damping of flying-king endgames never applies with men on the board.
        if wm or bm:
            assert a - b == sign * expected


@pytest.mark.parametrize("rows", [3, 4])
@pytest.mark.parametrize("v", ALL, ids=lambda v: v.id)
def test_evaluation_of_the_mirrored_position_is_the_same_for_the_other_side(v, rows):
    """Turning the board half a turn and swapping colours (and the side to move) changes
    nothing: with the stored weights (if any), with random window tables, and with random
    opening and endgame tables (two phases)."""
    pset = pat.PatternSet(geometry(v), rows)
    random_tables = Evaluator(v, tables=(rows, _random_tables(pset, 2, symmetric=True)))
    two_phases = Evaluator(v, tables=(rows, _random_tables(pset, 2, symmetric=True)
                                      + _random_tables(pset, 4, symmetric=True)))
    hand = Evaluator(v, patterns=False)
    positions = _random_positions(v, 100, seed=5)
    assert any(random_tables.evaluate(p) != hand.evaluate(p) for p in positions)
    assert any(two_phases.evaluate(p) != random_tables.evaluate(p) for p in positions)
    for ev in (Evaluator(v), random_tables, two_phases):
        for pos in positions:
            assert ev.evaluate(pos) == ev.evaluate(_rotate(v, pos))


def test_weights_are_keyed_by_rule_parameters_not_by_name():
    assert pat.rules_key(INTERNATIONAL) != pat.rules_key(variant("brazilian"))
    house_rule = dataclasses.replace(INTERNATIONAL, mandatory_capture=False)
    assert pat.rules_key(INTERNATIONAL) != pat.rules_key(house_rule)
    assert pat.load_weights(house_rule) is None
    renamed = dataclasses.replace(INTERNATIONAL, id="mine", name="Mine")
    assert pat.rules_key(renamed) == pat.rules_key(INTERNATIONAL)


#: Each named variant's weights key, written from its rules in RULES.md: board, rows of men,
#: whether men capture backward, flying or short kings, whether men may capture kings, how a
#: capture is chosen, promotion in the middle of a capture, and mandatory capture.
EXPECTED_KEYS = {
    "american": "8x8-3rows-forward-short-menkings-free-promote_and_stop-mandatory",
    "italian": "8x8-3rows-forward-short-nomenkings-italian_priorities-promote_and_stop-mandatory",
    "czech": "8x8-3rows-forward-flying-menkings-king_precedence-promote_and_stop-mandatory",
    "russian": "8x8-3rows-back-flying-menkings-free-promote_and_continue-mandatory",
    "brazilian": "8x8-3rows-back-flying-menkings-majority-pass_through-mandatory",
    "spanish": "8x8-3rows-forward-flying-menkings-most_pieces_then_kings-promote_and_stop-"
               "mandatory",
    "international": "10x10-4rows-back-flying-menkings-majority-pass_through-mandatory",
}


@pytest.mark.parametrize("v", ALL, ids=lambda v: v.id)
def test_each_variant_s_key_is_the_one_its_rules_give(v):
    """Italian's key says that its men may not take kings and that it chooses captures by its
    priorities (its mirrored board, a1_dark False, is not part of it); Czech's and Spanish's
    that men capture forward only; Brazilian's that it takes the majority and men pass
    through the king row, unlike Russian's. The file the engine loads has that name."""
    assert pat.rules_key(v) == EXPECTED_KEYS[v.id]
    assert pat.weights_path(v).name == EXPECTED_KEYS[v.id] + ".bin"


def _changed(value: object) -> object:
    """Another value of a Variant field's type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return {8: 10, 10: 8}.get(value, value + 1)
    if isinstance(value, Color):
        return value.opponent
    if isinstance(value, enum.Enum):
        return next(m for m in type(value) if m is not value)
    return f"{value}-other"


@pytest.mark.parametrize("v", BOARDS, ids=lambda v: v.id)
def test_every_rule_field_but_the_unkeyed_ones_changes_the_weights_key(v):
    """The key of a weights file changes with every field of Variant that is a rule of play,
    and with none of UNKEYED_FIELDS (labels, who moves first, the draw rule): a rule added to
    Variant later is keyed unless it is listed there on purpose."""
    assert pat.UNKEYED_FIELDS <= {f.name for f in dataclasses.fields(v)}
    for f in dataclasses.fields(v):
        other = dataclasses.replace(v, **{f.name: _changed(getattr(v, f.name))})
        assert (pat.rules_key(other) == pat.rules_key(v)) == (f.name in pat.UNKEYED_FIELDS), f.name


def test_a_weights_file_serves_only_variants_of_identical_rules():
    """Named variants all have different rule keys, so each file serves one of them (and its
    relabelled copies); the optional-capture house rule of a variant has a key of its own
    and no file, so it plays the hand-made evaluation."""
    from damiera.rules.variant import VARIANTS

    keys = [pat.rules_key(v) for v in VARIANTS.values()]
    assert len(set(keys)) == len(keys)
    files = {p.stem for p in pat._DIR.glob("*.bin")}
    for v in VARIANTS.values():
        assert (pat.load_weights(v) is not None) == (pat.rules_key(v) in files), v.id
        house = dataclasses.replace(v, mandatory_capture=False)  # the house rule (8x8)
        assert pat.rules_key(house) not in files and pat.load_weights(house) is None
    assert pat.rules_key(AMERICAN) != pat.rules_key(variant("italian"))
    # No orphan: every shipped file is the key of exactly one named variant.
    assert all(keys.count(stem) == 1 for stem in files)
    relabelled = dataclasses.replace(AMERICAN, id="mine", name="Mine", a1_dark=False,
                                     first_to_move=Color.WHITE)
    assert pat.weights_path(relabelled) == pat.weights_path(AMERICAN)


def test_weights_file_round_trip_and_clear_errors(tmp_path, monkeypatch):
    pset = pat.PatternSet(geometry(RUSSIAN))
    tables = _random_tables(pset, seed=1, symmetric=True)
    canon = {w: tables[w] for w in pset.canonical()}
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    path = pat.weights_path(RUSSIAN)
    pat.save_weights(path, pset, canon, key=RUSSIAN_KEY)
    assert pat.load_weights(RUSSIAN) == (4, tables)
    assert any(pset.partner[w] == w for w in pset.canonical())  # the middle window of 8x8
    broken = dict(canon)
    middle = next(w for w in pset.canonical() if pset.partner[w] == w)
    broken[middle] = [1] * pset.size
    with pytest.raises(ValueError, match="its own mirror image"):  # the writer refuses it
        pat.save_weights(path, pset, broken, key=RUSSIAN_KEY)
    write_unchecked(path, pset.rows, len(pset.windows),
                    [[broken[w] for w in pset.canonical()]], RUSSIAN_KEY)
    with pytest.raises(ValueError, match="its own mirror image"):  # and so does the reader
        pat.load_weights(RUSSIAN)
    pat.save_weights(path, pset, canon, key=RUSSIAN_KEY)
    with pytest.raises(ValueError, match="window"):
        pat.save_weights(path, pset, {}, key=RUSSIAN_KEY)
    path.write_bytes(path.read_bytes()[:-2])
    with pytest.raises(ValueError, match="weights, expected"):
        pat.load_weights(RUSSIAN)
    path.write_bytes(b"damiera-patterns 1 3 15\n")
    with pytest.raises(ValueError, match="do not fit this board"):
        pat.load_weights(RUSSIAN)
    path.write_bytes(b"damiera-patterns 3 4 15\n")
    with pytest.raises(ValueError, match="not a patterns file"):
        pat.load_weights(RUSSIAN)
    path.write_bytes(b"damiera-patterns 2 4 15\n")  # version 2 says its phases
    with pytest.raises(ValueError, match="not a patterns file"):
        pat.load_weights(RUSSIAN)
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ValueError, match="not a patterns file"):
        pat.load_weights(RUSSIAN)
    # The engine still plays, without the patterns, and says why.
    with pytest.warns(UserWarning, match="playing without the trained patterns"):
        ev = Evaluator(RUSSIAN, patterns=True)
    pos = start_position(RUSSIAN)
    assert ev.evaluate(pos) == Evaluator(RUSSIAN, patterns=False).evaluate(pos)
    with pytest.raises(ValueError, match="do not fit 4-row windows"):
        Evaluator(RUSSIAN, tables=(4, tables[:-1]))


def test_a_two_phase_file_round_trips_and_blends_by_the_pieces_left(tmp_path, monkeypatch):
    """Version 2 holds an opening's tables, then an endgame's; the evaluation adds the
    opening's sum on the full board, the endgame's on a bare one, and in between the two
    weighted by the pieces left (rounded toward zero)."""
    pset = pat.PatternSet(geometry(RUSSIAN), 3)
    opening = _random_tables(pset, seed=1, symmetric=True)
    endgame = _random_tables(pset, seed=2, symmetric=True)
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    path = pat.weights_path(RUSSIAN)
    pat.save_weights(path, pset, {w: opening[w] for w in pset.canonical()},
                     {w: endgame[w] for w in pset.canonical()}, key=RUSSIAN_KEY)
    assert path.read_bytes().startswith(f"damiera-patterns 3 3 18 2 {RUSSIAN_KEY} ".encode())
    assert pat.load_weights(RUSSIAN) == (3, opening + endgame)
    ev = Evaluator(RUSSIAN, patterns=True)
    hand = Evaluator(RUSSIAN, patterns=False)
    start = 2 * RUSSIAN.men_per_side
    checked = 0
    for pos in _random_positions(RUSSIAN, 200, seed=9):
        base = hand.evaluate(pos)
        wm, bm = pos.white & ~pos.kings, pos.black & ~pos.kings
        if base == -(1 << 30) or pos.kings:
            continue
        o = sum(opening[w][pset.pattern(w, wm, bm)] for w in range(len(pset.windows)))
        e = sum(endgame[w][pset.pattern(w, wm, bm)] for w in range(len(pset.windows)))
        pieces = (pos.white | pos.black).bit_count()
        blend = o * pieces + e * (start - pieces)
        expected = abs(blend) // start * (1 if blend >= 0 else -1)
        sign = 1 if pos.turn is Color.WHITE else -1
        assert ev.evaluate(pos) - base == sign * expected
        checked += 1
    assert checked > 50
    path.write_bytes(path.read_bytes()[:-2])
    with pytest.raises(ValueError, match="weights, expected"):
        pat.load_weights(RUSSIAN)


def test_a_weights_file_cut_at_an_odd_byte_or_unreadable_is_reported_by_name(tmp_path,
                                                                               monkeypatch):
    """A file cut mid-weight once warned 'bytes length not a multiple of item size' without
    naming it, and a file that cannot be read (a folder in its place) stopped the engine with
    a traceback instead of playing without the patterns."""
    pset = pat.PatternSet(geometry(RUSSIAN))
    tables = _random_tables(pset, seed=1, symmetric=True)
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    path = pat.weights_path(RUSSIAN)
    pat.save_weights(path, pset, {w: tables[w] for w in pset.canonical()}, key=RUSSIAN_KEY)
    path.write_bytes(path.read_bytes()[:-1])
    with pytest.raises(ValueError, match=f"{path.name}: .*odd number of bytes"):
        pat.load_weights(RUSSIAN)
    path.unlink()
    path.mkdir()
    with pytest.warns(UserWarning, match=f"{path.name}.*playing without the trained patterns"):
        ev = Evaluator(RUSSIAN, patterns=True)
    pos = start_position(RUSSIAN)
    assert ev.evaluate(pos) == Evaluator(RUSSIAN, patterns=False).evaluate(pos)

def _shipped() -> list:
    from damiera.rules.variant import VARIANTS

    return [v for v in VARIANTS.values() if pat.weights_path(v).exists()]


def test_the_shipped_weights_load_and_keep_the_evaluation_colour_symmetric():
    """Every weights file in the package loads for the variants whose rules it was trained
    under, changes the evaluation, and keeps it colour-symmetric (International's,
    and every 8x8 variant's are shipped)."""
    shipped = _shipped()
    assert set(ALL) == set(shipped)
    for v in shipped:
        loaded = pat.load_weights(v)
        assert loaded is not None
        learned, hand = Evaluator(v, patterns=True), Evaluator(v, patterns=False)
        positions = _random_positions(v, 100, seed=9)
        assert any(learned.evaluate(p) != hand.evaluate(p) for p in positions)
        for pos in positions:
            assert learned.evaluate(pos) == learned.evaluate(_rotate(v, pos))


def test_the_weights_files_are_package_data():
    """The wheel carries the weights: pyproject's package data names their folder."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["damiera.engine"]
    package = root / "src" / "damiera" / "engine"
    for v in _shipped():
        path = pat.weights_path(v)
        assert any(path in package.glob(g) for g in globs), path


def test_the_switch_chooses_between_learned_and_hand_made(tmp_path, monkeypatch):
    """DAMIERA_EVAL=learned adds the stored patterns, =hand leaves them out; unset, the
    default (LEARNED_BY_DEFAULT) decides."""
    from damiera.engine import evaluate

    pset = pat.PatternSet(geometry(RUSSIAN))
    tables = _random_tables(pset, seed=3, symmetric=True)
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    pat.save_weights(pat.weights_path(RUSSIAN), pset, {w: tables[w] for w in pset.canonical()},
                     key=RUSSIAN_KEY)
    positions = _random_positions(RUSSIAN, 30, seed=4)
    with_tables = Evaluator(RUSSIAN, tables=(4, tables))
    hand = Evaluator(RUSSIAN, patterns=False)

    def scores(ev: Evaluator) -> list[int]:
        return [ev.evaluate(p) for p in positions]

    assert scores(with_tables) != scores(hand)
    monkeypatch.setenv(evaluate.EVAL_SWITCH, "learned")
    assert evaluate.learned_enabled() and scores(Evaluator(RUSSIAN)) == scores(with_tables)
    monkeypatch.setenv(evaluate.EVAL_SWITCH, "hand")
    assert not evaluate.learned_enabled() and scores(Evaluator(RUSSIAN)) == scores(hand)
    monkeypatch.delenv(evaluate.EVAL_SWITCH)
    default = with_tables if evaluate.LEARNED_BY_DEFAULT else hand
    assert scores(Evaluator(RUSSIAN)) == scores(default)
    monkeypatch.setenv(evaluate.EVAL_SWITCH, " Hand ")  # case and spaces do not matter
    assert not evaluate.learned_enabled()
    for mistyped in ("hnad", "1", "off"):  # never silently the default
        monkeypatch.setenv(evaluate.EVAL_SWITCH, mistyped)
        with pytest.raises(ValueError, match=evaluate.EVAL_SWITCH):
            Evaluator(RUSSIAN)


def test_evaluation_without_weights_is_the_hand_made_one():
    house = variant("brazilian", optional_capture=True)  # no weights trained for its rules
    assert pat.load_weights(house) is None
    pos = parse_fen(house, "W:Wc3,e3:Bd6,f6")
    assert Evaluator(house).evaluate(pos) == Evaluator(house, patterns=False).evaluate(pos)


def test_a_header_without_a_newline_or_with_a_long_field_is_reported_in_one_short_line(
        tmp_path):
    """A file with no newline has no header line: it is not read as the file less its last
    byte ("1 windows do not fit" for '... 1 3 18') nor with the weights as part of the
    header (a message thousands of characters long)."""
    path = tmp_path / "w.bin"
    for data in (b"damiera-patterns 1 3 18", b"damiera-patterns 1 3 18" + b"\0" * 13122,
                 b"damiera-patterns 2 3 18 2" + b"\0" * 26244):
        path.write_bytes(data)
        with pytest.raises(ValueError, match="not a patterns file") as info:
            pat.read_weights_file(RUSSIAN, path)
        assert len(str(info.value).replace(str(path), "")) < 300
    path.write_bytes(b"damiera-patterns 2 3 18" + b"7" * 5000 + b" 2\n")
    with pytest.raises(ValueError, match="windows do not fit") as info:
        pat.read_weights_file(RUSSIAN, path)
    assert len(str(info.value).replace(str(path), "")) < 300


def test_a_self_mirrored_window_broken_in_the_endgame_tables_only_is_reported_as_such(
        tmp_path):
    """8x8's 4-row windows include one that is its own mirror image: its table must be
    antisymmetric in each phase, and the message says which phase's is not."""
    pset = pat.PatternSet(geometry(RUSSIAN), 4)
    (middle,) = [w for w in pset.canonical() if pset.partner[w] == w]
    opening = _random_tables(pset, 1, symmetric=True)
    endgame = _random_tables(pset, 2, symmetric=True)
    mirror = pset.mirror()
    q = next(q for q in range(pset.size) if mirror[q] != q)
    endgame[middle][q] += 1
    path = tmp_path / "w.bin"
    with pytest.raises(ValueError, match=f"window {middle} .* its endgame table is not"):
        pat.save_weights(path, pset, {w: opening[w] for w in pset.canonical()},
                         {w: endgame[w] for w in pset.canonical()}, key=RUSSIAN_KEY)
    write_unchecked(path, pset.rows, len(pset.windows),
                    [[t[w] for w in pset.canonical()] for t in (opening, endgame)], RUSSIAN_KEY)
    with pytest.raises(ValueError, match=f"window {middle} .* its endgame table is not"):
        pat.read_weights_file(RUSSIAN, path)


def test_tables_of_the_wrong_count_are_reported_with_what_was_expected():
    """1.5 or 3 times the windows' tables is neither one phase nor two: the message says
    how many tables came and how many fit."""
    pset = pat.PatternSet(geometry(RUSSIAN), 3)
    for count in (27, 54, 37):
        with pytest.raises(ValueError, match=f"do not fit 3-row windows: {count} tables of "
                                             r"\[729\] weights, expected 18 \(one phase\) "
                                             r"or 36 \(two\) of 729"):
            Evaluator(RUSSIAN, tables=(3, [[0] * pset.size] * count))
