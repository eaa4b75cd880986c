"""tools/train_patterns.py end to end on a tiny run: self-play, fit, a weights file that loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from damiera.engine import patterns as pat
from damiera.engine.evaluate import Evaluator
from damiera.rules.position import start_position
from damiera.rules.variant import variant

pytest.importorskip("numpy")

TOOL = Path(__file__).resolve().parents[2] / "tools" / "train_patterns.py"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          check=False,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _load_as_russian_weights(out: Path, tmp_path: Path, monkeypatch) -> tuple[int, list]:
    """Put the weights file ``out`` where the evaluator looks for Russian's (in tmp_path),
    load it, and check that the evaluator plays with it."""
    russian = variant("russian")
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    out.rename(pat.weights_path(russian))
    loaded = pat.load_weights(russian)
    assert loaded is not None
    Evaluator(russian).evaluate(start_position(russian))
    return loaded


def test_selfplay_then_fit_writes_weights_the_evaluator_loads(tmp_path, monkeypatch):
    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "12", "--depth", "1", "--out", str(data))
    out = tmp_path / "w.bin"
    report = _run("fit", "russian", str(data), "--prior", "10,30", "--iterations", "20",
                  "--out", str(out))
    assert "prior 10 centi-men: held out" in report and "prior 30 centi-men" in report
    if "nothing written" in report:  # no fit beat the hand-made evaluation held out
        assert not out.exists()
        return
    assert "wrote" in report
    rows, tables = _load_as_russian_weights(out, tmp_path, monkeypatch)
    assert rows == 3 and len(tables) == 18 and any(any(t) for t in tables)


def test_a_two_phase_fit_writes_an_opening_and_an_endgame_set(tmp_path, monkeypatch):
    """--phases 2: the fit's parameters are an opening's tables and an endgame's; the file
    holds both (two phases, for Russian's rules) and the evaluator loads them, twice the
    tables of one phase."""
    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "12", "--depth", "2", "--out", str(data))
    out = tmp_path / "w.bin"
    report = _run("fit", "russian", str(data), "--mix", "0", "--prior", "30",
                  "--iterations", "30", "--phases", "2", "--out", str(out))
    assert "prior 30 centi-men: held out" in report
    if "nothing written" in report:
        return
    key = pat.rules_key(variant("russian"))
    assert out.read_bytes().startswith(f"damiera-patterns 3 3 18 2 {key} ".encode())
    rows, tables = _load_as_russian_weights(out, tmp_path, monkeypatch)
    assert rows == 3 and len(tables) == 36 and any(any(t) for t in tables)
    report = _run("fit-scores", "russian", str(data), "--damp", "10", "--phases", "2",
                  "--out", str(out))
    assert f"wrote {out}" in report
    assert out.read_bytes().startswith(f"damiera-patterns 3 3 18 2 {key} ".encode())


def test_a_node_budget_search_is_the_same_whatever_the_clock_and_spends_the_budget():
    from damiera.engine.search import Searcher

    tool = _tool("pattern_games")

    v = variant("international")
    pos = start_position(v)
    results = [tool.budget_search(Searcher(v, 1 << 16), pos, [pos], 1, 3000) for _ in range(2)]
    assert results[0].move == results[1].move and results[0].nodes == results[1].nodes
    assert 3000 <= results[0].nodes < 3000 + 300 and results[0].depth >= 2


def _tool(name: str):
    """The trainer's module ``tools/<name>.py``, imported with tools/ on the path as when the
    trainer runs (its modules import each other by name)."""
    import importlib

    if str(TOOL.parent) not in sys.path:
        sys.path.insert(0, str(TOOL.parent))
    return importlib.import_module(name)


@pytest.mark.parametrize("share", ["none", "edges", "band"])
@pytest.mark.parametrize("name,rows", [("international", 3), ("international", 4),
                                       ("russian", 4)])
def test_shared_tables_keep_the_evaluation_colour_symmetric(tmp_path, share, name, rows):
    """Whatever windows share a table (--share), random parameters written as a weights
    file give an evaluation that scores a position and its rotated, colour-swapped image
    alike; fewer parameters with more sharing."""
    import numpy as np

    from damiera.engine.patterns import PatternSet, read_weights_file
    from damiera.rules.geometry import geometry
    from tests.engine.test_patterns import _random_positions, _rotate

    tool = _tool("pattern_fit")
    v = variant(name)
    pset = PatternSet(geometry(v), rows)
    _, _, n_params = tool._param_map(pset, share)
    # (8x8 has three windows a band: "edges" is "none" there.)
    assert n_params <= tool._param_map(pset, "none")[2]
    if share == "band":
        assert n_params < tool._param_map(pset, "edges")[2]
    theta = np.random.default_rng(1).integers(-40, 41, n_params).astype(np.float64)
    path = tool._write(v, pset, theta, str(tmp_path / "w.bin"), share)
    ev = Evaluator(v, patterns=False, tables=read_weights_file(v, path))
    for pos in _random_positions(v, 60, seed=2):
        assert ev.evaluate(pos) == ev.evaluate(_rotate(v, pos))


def test_selfplay_with_a_node_budget_records_quiet_positions(tmp_path):
    import numpy as np

    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "2", "--nodes", "300", "--opening", "4-8",
         "--out", str(data))
    got = np.load(data)
    assert len(got["white"]) > 20 and set(got["game"].tolist()) == {0, 1}


def test_a_position_file_interrupted_while_written_keeps_its_last_whole_version(
        tmp_path, monkeypatch):
    """``save_positions`` writes beside the file and renames: a write that fails half way
    (here numpy raising after some bytes) leaves the previous file whole and no ``.part``."""
    import numpy as np

    sys.path.insert(0, str(TOOL.parent))
    import pattern_positions as pp

    russian = variant("russian")
    out = tmp_path / "games.npz"
    row = (0b111, 0b111 << 20, 0, 1, 15, 0, 1)
    pp.save_positions(str(out), [row], russian)
    before = out.read_bytes()

    def broken(f, **columns):
        f.write(b"PK half a file")
        raise OSError("disk full")

    monkeypatch.setattr(pp.np, "savez_compressed", broken)
    with pytest.raises(OSError, match="disk full"):
        pp.save_positions(str(out), [row, row], russian)
    assert out.read_bytes() == before and list(tmp_path.iterdir()) == [out]
    monkeypatch.undo()
    assert pp.load_positions([str(out)], russian)["score"].tolist() == [15]
    assert np.load(out)["white"].tolist() == [0b111]


def test_a_league_plays_each_opening_twice_with_the_colours_swapped(tmp_path):
    """``selfplay --opponent``: games 2k and 2k+1 start from the same opening, the first
    evaluation (``--weights``) has White in the even games; each recorded score is the
    search of the side to move, so a depth-1 search by that side's evaluation gives it again."""
    import numpy as np

    from damiera.engine.search import Searcher
    from damiera.rules.variant import Color

    sys.path.insert(0, str(TOOL.parent))
    from pattern_games import evaluator_for
    from pattern_positions import position_at

    data = tmp_path / "league.npz"
    out = _run("selfplay", "russian", "--games", "4", "--depth", "1", "--opening", "4-4",
               "--weights", "hand", "--opponent", "shipped", "--out", str(data))
    last = out.strip().splitlines()[-1]
    assert last.startswith("4 games, ") and ", first " in last and last.endswith(str(data))
    score = float(last.split(", first ")[1].split("/")[0])
    assert 0 <= score <= 4 and score * 2 == int(score * 2)
    got = np.load(data)
    assert set(got["game"].tolist()) == {0, 1, 2, 3}
    russian = variant("russian")
    searchers = {name: Searcher(russian, tt_entries=1 << 12,
                                evaluator=evaluator_for(russian, name))
                 for name in ("hand", "shipped")}
    for g in range(4):
        white_side, black_side = ("hand", "shipped") if g % 2 == 0 else ("shipped", "hand")
        for i in np.flatnonzero(got["game"] == g)[:3]:  # a game's first moves: no transposition
            pos = position_at(got, int(i))
            mover = searchers[white_side if pos.turn is Color.WHITE else black_side]
            mover.clear()
            res = mover.search(pos, depth=1)
            assert (res.score if pos.turn is Color.WHITE else -res.score) == got["score"][i]


def test_a_league_of_one_evaluation_against_itself_replays_each_opening(tmp_path):
    """With the same evaluation on both sides the two games of an opening are one game
    played twice (depth-limited searches from a cleared table are deterministic): the
    same positions, so the opening was the same."""
    import numpy as np

    data = tmp_path / "twins.npz"
    _run("selfplay", "russian", "--games", "4", "--depth", "2", "--opening", "6-10",
         "--weights", "hand", "--opponent", "hand", "--seed", "5", "--out", str(data))
    got = np.load(data)
    for a, b in ((0, 1), (2, 3)):
        for key in ("white", "black", "kings", "turn", "score", "result"):
            assert got[key][got["game"] == a].tolist() == got[key][got["game"] == b].tolist()
    assert got["white"][got["game"] == 0].tolist() != got["white"][got["game"] == 2].tolist()


def test_label_then_fit_scores_writes_weights_the_evaluator_loads(tmp_path, monkeypatch):
    import numpy as np

    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "12", "--depth", "1", "--out", str(data))
    labelled = tmp_path / "deeper.npz"
    report = _run("label", "russian", str(data), "--depth", "2", "--every", "2",
                  "--out", str(labelled))
    before, after = np.load(data), np.load(labelled)
    # Every second position, searched again: same positions and results, new scores.
    assert 0 < len(after["white"]) <= (len(before["white"]) + 1) // 2
    assert set(after["white"].tolist()) <= set(before["white"].tolist())
    out = tmp_path / "w.bin"
    report = _run("fit-scores", "russian", str(labelled), "--damp", "1,10", "--out", str(out))
    assert "held-out rms" in report and "wrote" in report
    rows, tables = _load_as_russian_weights(out, tmp_path, monkeypatch)
    assert rows == 3 and len(tables) == 18


def test_label_with_pieces_searches_the_endings_again_and_keeps_whole_games(tmp_path):
    import numpy as np

    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "6", "--depth", "1", "--out", str(data))
    parts = [tmp_path / f"endings{i}.npz" for i in range(2)]
    for i, part in enumerate(parts):
        report = _run("label", "russian", str(data), "--nodes", "3000", "--pieces", "2-16",
                      "--part", f"{i}/2", "--out", str(part))
        assert "positions searched again at 3000 nodes" in report
    before = np.load(data)

    def rows(d, keep):
        pieces = np.bitwise_count(d["white"]) + np.bitwise_count(d["black"])
        return [(tuple(int(d[k][j]) for k in ("white", "black", "kings", "turn", "game",
                                               "result")), int(d["score"][j]), int(pieces[j]))
                for j in np.flatnonzero(keep)]

    changed = 0
    for i, part in enumerate(parts):
        got = np.load(part)
        mine = rows(before, before["game"] % 2 == i)
        theirs = rows(got, np.ones(len(got["white"]), dtype=bool))
        # Each part is the games of its number modulo 2, in order: every position with more
        # than 16 pieces with the self-play's score; the others searched again (those the
        # deeper search finds decided are left out, as self-play leaves them out).
        assert {key[4] for key, _, _ in theirs} == {key[4] for key, _, _ in mine}
        assert [r for r in theirs if r[2] > 16] == [r for r in mine if r[2] > 16]
        assert [key for key, _, _ in theirs] == [key for key, _, n in mine
                                                 if key in {k for k, _, _ in theirs} or n > 16]
        old = {key: score for key, score, _ in mine}
        changed += sum(score != old[key] for key, score, n in theirs if n <= 16)
    # Searched again at 3,000 nodes instead of 1 ply, some endings score differently.
    assert changed > 0


def test_bad_input_gets_a_one_line_error(tmp_path):
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not numpy")
    out = ("--out", str(tmp_path / "w.bin"))  # never the package's own file
    cases = [
        (("fit", "russian", str(tmp_path / "missing.npz"), *out), "missing.npz: no such file"),
        (("fit", "russian", str(garbage), *out),
         "not a file written by `selfplay` (not a NumPy .npz archive)"),
        (("fit", "klingon", str(garbage), *out), "unknown variant"),
        (("fit", "russian", str(garbage), "--rows", "5", *out), "--rows must be 1-4"),
        (("fit", "russian", str(garbage), "--prior", "0,10", *out),
         "--prior must be comma-separated numbers of centi-men from 0.1 to 10000"),
        (("fit", "russian", str(garbage), "--prior", "1e-170", *out), "from 0.1 to 10000"),
        (("fit", "russian", str(garbage), "--mix", "2", *out), "--mix must be between 0 and 1"),
        (("fit", "russian", str(garbage), "--out", str(tmp_path)), "a folder, not a weights"),
        (("fit", "russian", str(garbage), str(garbage), *out), "is given twice"),
        (("fit", "russian", str(tmp_path), *out), "not a file"),
        (("selfplay", "russian", "--games", "0", "--out", str(tmp_path / "x.npz")),
         "--games, --depth and --nodes must be at least 1"),
        (("selfplay", "russian", "--nodes", "0", "--out", str(tmp_path / "x.npz")),
         "--games, --depth and --nodes must be at least 1"),
        (("selfplay", "russian", "--opening", "8-4", "--out", str(tmp_path / "x.npz")),
         "--opening must be LOW-HIGH plies"),
        (("selfplay", "russian", "--weights", str(tmp_path / "missing.bin"), "--out",
          str(tmp_path / "x.npz")), "missing.bin"),
        (("selfplay", "russian", "--opponent", str(garbage), "--out",
          str(tmp_path / "x.npz")), "garbage.npz"),
        (("selfplay", "frisian", "--weights", "shipped", "--out", str(tmp_path / "x.npz")),
         "frisian: no weights file ships for these rules"),
        (("selfplay", "russian", "--opponent", "", "--out", str(tmp_path / "x.npz")),
         "an evaluation's name is empty"),
        (("label", "russian", str(garbage), "--part", "2/2", "--out", str(tmp_path / "x.npz")),
         "--part must be I/N"),
        (("label", "russian", str(garbage), "--out", str(tmp_path / "x.npz")),
         "not a file written by `selfplay`"),
        (("label", "russian", str(tmp_path / "missing.npz"), "--out", str(tmp_path / "x.npz")),
         "missing.npz: no such file"),
        (("label", "russian", str(garbage), "--pieces", "12-8", "--out",
          str(tmp_path / "x.npz")), "--pieces must be LOW-HIGH pieces"),
        (("label", "russian", str(garbage), "--pieces", "8-12", "--every", "2", "--out",
          str(tmp_path / "x.npz")), "it takes no --every"),
        (("label", "russian", str(garbage), "--nodes", "0", "--out", str(tmp_path / "x.npz")),
         "--depth, --nodes and --every must be at least 1"),
        (("fit-scores", "russian", str(garbage), "--damp", "a", *out),
         "--damp must be comma-separated"),
        (("fit-scores", "russian", str(garbage), "--damp=inf", *out),
         "--damp must be comma-separated finite numbers"),
        (("label", "russian", str(garbage), "--out", str(tmp_path / "no-suffix")),
         "--out must name a .npz file"),
        (("fit-scores", "russian", str(garbage), *out), "not a file written by `selfplay`"),
        (("fit", "russian+losing", str(garbage), *out),
         "under the losing rule the evaluation uses neither patterns nor learned terms"),
        (("fit-scores", "american+losing", str(garbage), *out), "nothing to fit"),
        (("selfplay", "canadian", "--games", "1", "--depth", "1", "--out",
          str(tmp_path / "c.npz")), "canadian: its board's bitboards take 77 bits"),
    ]
    for args, message in cases:
        done = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True,
                              text=True, check=False, timeout=120)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)


def test_a_file_of_another_variant_is_refused(tmp_path):
    """Russian positions searched as International once ran for ever: the variant is stored
    in the file and checked by every step that reads one."""
    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "2", "--depth", "1", "--out", str(data))
    for args in (("label", "international", str(data), "--out", str(tmp_path / "l.npz")),
                 ("fit-scores", "international", str(data), "--out", str(tmp_path / "w.bin")),
                 ("fit", "international", str(data), "--out", str(tmp_path / "w.bin"))):
        done = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True,
                              text=True, check=False, timeout=120)
        assert done.returncode == 2, (args, done.stderr)
        assert "positions of russian, not international" in done.stderr, (args, done.stderr)
    assert not (tmp_path / "w.bin").exists() and not (tmp_path / "l.npz").exists()


def test_too_few_games_are_refused(tmp_path):
    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "1", "--depth", "1", "--out", str(data))
    # --out always: a fit that went wrong must never write into the package.
    done = subprocess.run([sys.executable, str(TOOL), "fit", "russian", str(data),
                           "--out", str(tmp_path / "w.bin")],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2 and "too few games" in done.stderr


def test_a_weight_clipped_at_the_bottom_still_fits_when_written_negated(tmp_path):
    """A fitted weight far below -32767 is clipped; the self-mirrored window of 8x8's
    4-row windows stores it negated too, so the clip must be symmetric (-(-32768) does not
    fit 16 bits), for one phase and for two."""
    import numpy as np

    from damiera.engine.patterns import PatternSet, read_weights_file
    from damiera.rules.geometry import geometry

    tool = _tool("pattern_fit")
    v = variant("russian")
    pset = PatternSet(geometry(v), 4)
    _, _, n_params = tool._param_map(pset, "none")
    for phases in (1, 2):
        theta = np.full(phases * n_params, -40000.0)
        path = tool._write(v, pset, theta, str(tmp_path / "w.bin"), "none", phases)
        _, tables = read_weights_file(v, path)
        assert len(tables) == phases * len(pset.windows)
        assert min(min(t) for t in tables) == -32767


def test_a_file_of_another_goal_or_a_damaged_file_is_refused(tmp_path):
    """A file stores the rule set's full id (its goal and capture options too): losing-rule
    games are refused as plain Russian. A truncated archive and a single NumPy array get the
    one-line error, not a traceback."""
    losing = tmp_path / "losing.npz"
    _run("selfplay", "russian+losing", "--games", "1", "--depth", "1", "--out", str(losing))
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(losing.read_bytes()[:200])
    single = tmp_path / "single.npy"
    np = pytest.importorskip("numpy")
    np.save(single, np.zeros(3, dtype=np.int64))
    cases = [(losing, "positions of russian+losing, not russian"),
             (truncated, "not a file written by `selfplay`"),
             (single, "not a file written by `selfplay`")]
    for path, message in cases:
        done = subprocess.run([sys.executable, str(TOOL), "fit", "russian", str(path),
                               "--out", str(tmp_path / "w.bin")],
                              capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 2, (path, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, (path, done.stderr)
    assert not (tmp_path / "w.bin").exists()


def test_a_fit_with_learned_terms_writes_a_version_4_file_that_weighs_them(tmp_path):
    """--terms: the learned terms' weights are fitted with the patterns, reported by name,
    and written after the tables (a version 4 file), where the evaluator reads them."""
    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "16", "--depth", "2", "--seed", "3",
         "--out", str(data))
    out = tmp_path / "w.bin"
    report = _run("fit", "russian", str(data), "--mix", "0", "--prior", "30", "--rows", "2",
                  "--iterations", "40", "--phases", "2", "--terms", "--out", str(out))
    assert "learned terms: kings " in report and f"wrote {out}" in report
    russian = variant("russian")
    key = pat.rules_key(russian)
    assert out.read_bytes().startswith(f"damiera-patterns 4 2 21 2 8 {key} ".encode())
    ev = Evaluator(russian, weights=out)
    assert len(ev.terms) == 8 and any(ev.terms)
    shown = report.split("learned terms: ")[1].splitlines()[0]
    assert shown == ", ".join(f"{name} {w}" for name, w in
                              zip(("kings", "kings_opening", "men_with_kings", "lone_kings",
                                   "lone_kings_men", "pieces_both_kings", "tempo_ending",
                                   "men_ending"), ev.terms))


def test_a_terms_fit_on_kept_tables_writes_those_tables_and_the_fitted_terms(tmp_path):
    """--terms --tables FILE: FILE's tables are kept as they are and only the eight learned
    terms are fitted on top; the file written holds the same tables and the terms the
    report names. Without --terms, --tables is refused."""
    from damiera.engine.patterns import read_weights_file

    russian = variant("russian")
    data, out = tmp_path / "games.npz", tmp_path / "w.bin"
    _run("selfplay", "russian", "--games", "16", "--depth", "2", "--seed", "3",
         "--out", str(data))
    kept = pat.weights_path(russian)
    report = _run("fit", "russian", str(data), "--mix", "0", "--terms", "--tables", str(kept),
                  "--out", str(out))
    assert f"the tables of {kept}: held out" in report and "learned terms: kings " in report
    if "nothing written" in report:
        assert not out.exists()
        return
    assert read_weights_file(russian, out) == read_weights_file(russian, kept)
    shown = report.split("learned terms: ")[1].splitlines()[0]
    assert [int(w.rsplit(" ", 1)[1]) for w in shown.split(", ")] == list(
        Evaluator(russian, weights=out).terms)
    done = subprocess.run([sys.executable, str(TOOL), "fit", "russian", str(data), "--tables",
                           str(kept)], capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 2 and "--tables keeps a file's tables" in done.stderr
