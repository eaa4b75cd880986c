"""The evaluation's learned terms (csrc/eval.h, "Learned terms"): their features, the version 4
weights file that weighs them, and what the evaluation adds for them."""

from __future__ import annotations

import random
import zlib

import pytest

from damiera import _core
from damiera.engine import patterns as pat
from damiera.engine.evaluate import TERM_NAMES, Evaluator
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import Color, variant
from tests.engine.test_patterns import _rotate

RUSSIAN = variant("russian")
KEY = pat.rules_key(RUSSIAN)
START = 2 * RUSSIAN.men_per_side  # 24 pieces


def _positions(v, count: int, seed: int) -> list[Position]:
    """Positions of random games, kings and endings among them (every 2nd ply from ply 20:
    test_patterns' positions, from shorter games, hold few kings on 10x10)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = start_position(v)
        for ply in range(rng.randint(30, 160)):
            moves = generate(v, pos)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves))
            if ply >= 20 and ply % 2 == 0:
                out.append(pos)
    return out[:count]


def _features(v, pos: Position) -> tuple[int, ...]:
    """The features as eval.h defines them, counted here square by square."""
    geo = geometry(v)
    start = 2 * v.men_per_side
    wm, bm = pos.white & ~pos.kings, pos.black & ~pos.kings
    wk, bk = pos.white & pos.kings, pos.black & pos.kings
    nwm, nbm, nwk, nbk = (b.bit_count() for b in (wm, bm, wk, bk))
    p = min(nwm + nbm + nwk + nbk, start)
    men, kings = nwm - nbm, nwk - nbk
    white_alone, black_alone = int(nwk > 0 and nbk == 0), int(nbk > 0 and nwk == 0)
    tempo = 0
    if not pos.kings:
        # White crowns on internal row 0, Black on the last row.
        tempo = (sum(geo.size - 1 - geo.row(s) for s in geo.squares if wm >> s & 1)
                 - sum(geo.row(s) for s in geo.squares if bm >> s & 1))
    return (kings * start, kings * p, men * start if pos.kings else 0,
            (white_alone - black_alone) * start, (white_alone * nbm - black_alone * nwm) * start,
            (men + kings) * start if (nwk and nbk) else 0, tempo * (start - p),
            men * (start - p))


def _zero_tables(rows: int = 2) -> tuple[pat.PatternSet, dict[int, list[int]]]:
    pset = pat.PatternSet(geometry(RUSSIAN), rows)
    return pset, {w: [0] * pset.size for w in pset.canonical()}


def test_term_names_are_the_core_s_terms():
    assert len(TERM_NAMES) == _core.TERMS == 8


def test_learned_term_features_of_a_king_against_men():
    """White: men c3, e3 and a king on d4; Black: men a7, b6, h8 (6 pieces of 24). White alone
    has a king: kings +1 (x24), early kings +1 x 6, men beside kings -1 (x24), lone kings +1,
    Black's 3 men against them, no tempo while a king stands, men in the ending -1 x 18."""
    pos = parse_fen(RUSSIAN, "W:Wc3,e3,Kd4:Ba7,b6,h8")
    assert Evaluator(RUSSIAN).term_features(pos) == (24, 6, -24, 24, 72, 0, 0, -18)


def test_learned_term_tempo_counts_the_rows_men_have_advanced_in_a_men_ending():
    """White men c3 (2 rows up) and g5 (4); Black man f6 (2 rows down from its home row):
    tempo 2 + 4 - 2 = 4, times the 21 pieces gone; men +1 x 21."""
    pos = parse_fen(RUSSIAN, "W:Wc3,g5:Bf6")
    features = dict(zip(TERM_NAMES, Evaluator(RUSSIAN).term_features(pos)))
    assert features["tempo_ending"] == 4 * 21
    assert features["men_ending"] == 1 * 21
    assert features["kings"] == features["men_with_kings"] == features["lone_kings"] == 0


@pytest.mark.parametrize("name", ["russian", "international", "american"])
def test_learned_term_features_follow_their_definition_and_change_sign_with_colours(name):
    v = variant(name)
    ev = Evaluator(v, patterns=False)
    positions = _positions(v, 300, seed=3)
    assert sum(1 for p in positions if p.kings) > 50
    for pos in positions:
        got = ev.term_features(pos)
        assert got == _features(v, pos)
        assert ev.term_features(_rotate(v, pos)) == tuple(-f for f in got)


def test_a_version_4_file_round_trips_and_adds_weight_times_feature_over_start(tmp_path):
    pset, tables = _zero_tables()
    terms = [120, -40, -60, 30, 15, -25, 9, 250]
    plain, weighed = tmp_path / "plain.bin", tmp_path / "terms.bin"
    pat.save_weights(plain, pset, tables, key=KEY)
    pat.save_weights(weighed, pset, tables, key=KEY, terms=terms)
    assert weighed.read_bytes().startswith(f"damiera-patterns 4 2 21 1 8 {KEY} ".encode())
    base = Evaluator(RUSSIAN, weights=plain)
    ev = Evaluator(RUSSIAN, weights=weighed)
    assert base.terms == () and ev.terms == tuple(terms)
    checked = 0
    for pos in _positions(RUSSIAN, 300, seed=7):
        score = base.evaluate(pos)
        if score == _core.NO_MOVES:
            continue
        total = sum(w * f for w, f in zip(terms, _features(RUSSIAN, pos)))
        expected = abs(total) // START * (1 if total >= 0 else -1)  # toward zero
        sign = 1 if pos.turn is Color.WHITE else -1
        # On 8x8 the drawn-ending scaling of flying kings (a lone king against kings only)
        # divides the whole score: leave kings-only positions out.
        if not (pos.white | pos.black) & ~pos.kings:
            continue
        assert ev.evaluate(pos) - score == sign * expected
        assert ev.evaluate(pos) == ev.evaluate(_rotate(RUSSIAN, pos))
        checked += 1
    assert checked > 200


def test_a_file_weighing_fewer_terms_weighs_the_rest_zero(tmp_path):
    pset, tables = _zero_tables()
    path = tmp_path / "two.bin"
    pat.save_weights(path, pset, tables, key=KEY, terms=[100, 50])
    ev = Evaluator(RUSSIAN, weights=path)
    assert ev.terms == (100, 50)
    pos = parse_fen(RUSSIAN, "W:Wc3,e3,Kd4:Ba7,b6,h8")
    base = Evaluator(RUSSIAN, weights=_plain(tmp_path, pset, tables))
    assert ev.evaluate(pos) - base.evaluate(pos) == (100 * 24 + 50 * 6) // 24


def _plain(tmp_path, pset, tables):
    path = tmp_path / "plain.bin"
    pat.save_weights(path, pset, tables, key=KEY)
    return path


def test_the_writer_refuses_a_wrong_count_or_a_weight_outside_16_bits(tmp_path):
    pset, tables = _zero_tables()
    path = tmp_path / "w.bin"
    for terms in ([], [0] * 9):
        with pytest.raises(ValueError, match="a weights file weighs 1 to 8"):
            pat.save_weights(path, pset, tables, key=KEY, terms=terms)
    with pytest.raises(ValueError, match="outside -32768..32767"):
        pat.save_weights(path, pset, tables, key=KEY, terms=[40000])
    assert not path.exists()


def _version_4(path, pset, tables, count_word: str, terms: list[int]) -> None:
    body = b"".join(int(w).to_bytes(2, "little", signed=True)
                    for w in [x for w in pset.canonical() for x in tables[w]] + terms)
    header = f"damiera-patterns 4 2 21 1 {count_word} {KEY} {zlib.crc32(body):08x}\n"
    path.write_bytes(header.encode() + body)


@pytest.mark.parametrize("count_word,why", [("9", "a file of a newer engine"),
                                            ("100", "a file of a newer engine"),
                                            ("0", "not a count"), ("x", "not a count"),
                                            ("08", "not a count")])
def test_a_file_weighing_terms_this_engine_does_not_know_is_refused_by_name(tmp_path,
                                                                           count_word, why):
    pset, tables = _zero_tables()
    path = tmp_path / "w.bin"
    _version_4(path, pset, tables, count_word, [1] * 9)
    with pytest.raises(ValueError, match=f"weights of {count_word} learned terms, this engine "
                                         f"knows 1 to 8 \\({why}"):
        Evaluator(RUSSIAN, weights=path)


def test_a_damaged_or_cut_term_weight_is_caught(tmp_path):
    pset, tables = _zero_tables()
    path = tmp_path / "w.bin"
    pat.save_weights(path, pset, tables, key=KEY, terms=[5, 6, 7])
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="the file is damaged"):
        Evaluator(RUSSIAN, weights=path)
    path.write_bytes(bytes(data[:-2]))
    with pytest.raises(ValueError, match="cut short"):
        Evaluator(RUSSIAN, weights=path)
    _version_4(path, pset, tables, "3", [5, 6, 7, 8])
    with pytest.raises(ValueError, match="trailing data"):
        Evaluator(RUSSIAN, weights=path)


def test_a_version_4_file_of_other_rules_is_refused(tmp_path):
    pset, tables = _zero_tables()
    path = tmp_path / "w.bin"
    pat.save_weights(path, pset, tables, key="other-rules", terms=[1])
    with pytest.raises(ValueError, match="weights trained for the rules other-rules"):
        Evaluator(RUSSIAN, weights=path)


def test_extreme_weights_keep_the_static_score_below_the_mate_scores(tmp_path):
    """Every term at +32767 (or -32768) on a board of twenty kings: the static score is held
    at EVAL_LIMIT (1,000 men), so the search still searches and scores a static score, not a
    mate or a draw."""
    v = variant("international")
    pset = pat.PatternSet(geometry(v), 2)
    tables = {w: [0] * pset.size for w in pset.canonical()}
    pos = parse_fen(v, "B:W" + ",".join(f"K{s}" for s in range(21, 41)) + ":B1,2,3,4,5,6")
    for weight in (32767, -32768):
        path = tmp_path / f"w{weight}.bin"
        pat.save_weights(path, pset, tables, key=pat.rules_key(v), terms=[weight] * 8)
        ev = Evaluator(v, weights=path)
        for p in (pos, _rotate(v, pos)):
            assert abs(ev.evaluate(p)) <= 100_000 + _core.TEMPO
        from damiera.engine.search import Searcher

        result = Searcher(v, 1 << 16, ev).search(pos, depth=4)
        assert result.depth >= 4 and abs(result.score) < _core.MATE_BOUND
        assert result.score != 0


@pytest.mark.parametrize("terms", [b"\x01\x02", bytearray(4), [True, False], {1: 2}, {1, 2},
                                   memoryview(b"ab"), [1.0], [1, None], "12"])
def test_the_writer_refuses_terms_that_are_not_a_list_of_ints(tmp_path, terms):
    pset, tables = _zero_tables()
    path = tmp_path / "w.bin"
    pat.save_weights(path, pset, tables, key=KEY, terms=[3])
    before = path.read_bytes()
    with pytest.raises(TypeError, match="a list or tuple of ints"):
        pat.save_weights(path, pset, tables, key=KEY, terms=terms)
    assert path.read_bytes() == before


def test_a_weights_path_may_be_bytes_and_not_given_with_tables(tmp_path):
    pset, tables = _zero_tables()
    path = tmp_path / "w.bin"
    pat.save_weights(path, pset, tables, key=KEY, terms=[7])
    assert Evaluator(RUSSIAN, weights=bytes(path)).terms == (7,)
    with pytest.raises(TypeError, match="not both"):
        Evaluator(RUSSIAN, weights=path, tables=(2, [[0] * pset.size] * 21))
    with pytest.raises(TypeError):
        Evaluator(RUSSIAN, weights=3)
