"""benchmarks/results_loss.py: the phase-calibrated results loss that screens weights files
(each band of pieces its own logistic scale K, fitted on the even games, the loss measured on
the odd ones), and its command line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from damiera.rules.movegen import apply_move, generate, has_capture
from damiera.rules.position import start_position
from damiera.rules.variant import Color, variant

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "results_loss.py"
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

from pattern_positions import save_positions
from results_loss import SCALES, band_losses


def _games(scale_by_band: tuple[float, float], flip: bool = False) -> tuple[np.ndarray, ...]:
    """200 games of 20 positions, 10 in band 0 and the same 10 again in band 1: the
    evaluation's sign tells the game's result 80% of the time, its size is
    ``scale_by_band[band]`` times 1 to 2."""
    rng = np.random.default_rng(7)
    games = np.repeat(np.arange(200), 20)
    band = np.tile(np.repeat([0, 1], 10), 200)
    result = np.repeat(rng.integers(0, 2, 200).astype(np.float64), 20)
    agree = np.repeat(rng.random((200, 10)) < 0.8, 2, axis=0).ravel()
    size = np.repeat(1 + rng.random((200, 10)), 2, axis=0).ravel()
    sign = np.where((result == 1) == agree, 1.0, -1.0)
    base = sign * np.where(band == 0, scale_by_band[0], scale_by_band[1]) * size
    if flip:
        base = -base
    return base, np.ones(len(games), dtype=bool), result, band, games


def test_results_loss_fits_the_scale_of_each_phase_apart() -> None:
    # The same knowledge at a tenth of the scale in band 0: each band's K follows its scale
    # and the two bands' losses come out equal, so only the ranking counts.
    base, keep, result, band, games = _games((60.0, 600.0))
    loss, report = band_losses(base, keep, result, band, games)
    (loss0, k0, n0), (loss1, k1, n1) = report[0], report[1]
    assert k1 >= 5 * k0
    assert abs(loss0 - loss1) < 0.01
    assert n0 == n1 == 1000  # the odd games' positions: 100 games x 10 a band
    assert np.isnan(loss[games % 2 == 0]).all() and not np.isnan(loss[games % 2 == 1]).any()


def test_results_loss_of_an_evaluation_that_ranks_wrong_is_higher() -> None:
    right = band_losses(*_games((100.0, 100.0)))[1]
    wrong = band_losses(*_games((100.0, 100.0), flip=True))[1]
    # The reversed evaluation gets the largest K tried (what it says only misleads) and a
    # loss above a coin's, log 2.
    assert all(right[b][0] < 0.6 and wrong[b][0] > np.log(2) for b in (0, 1))
    assert all(wrong[b][1] == max(SCALES) for b in (0, 1))


def _positions_file(path: Path, games: int = 12) -> None:
    v = variant("american")
    rng = random.Random(3)
    rows = []
    for game in range(games):
        pos = start_position(v)
        result = rng.choice((-1, 0, 1))
        for _ in range(40):
            moves = generate(v, pos)
            if not moves:
                break
            if not has_capture(v, pos):
                rows.append((pos.white, pos.black, pos.kings,
                             1 if pos.turn is Color.WHITE else 0, 0, game, result))
            pos = apply_move(pos, rng.choice(moves))
    save_positions(str(path), rows, v)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_results_loss_command_reports_each_file_against_the_first(tmp_path: Path) -> None:
    data = tmp_path / "games.npz"
    _positions_file(data)
    done = _run("american", str(data), "--weights", "shipped", "hand", "--band", "8")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("american: ") and "12 games" in lines[0]
    assert lines[1].startswith("shipped: 0.")
    assert lines[3].startswith("hand: 0.") and "(difference " in lines[3]
    assert "24-17: " in lines[2]


def test_results_loss_refuses_bad_input_with_one_line(tmp_path: Path) -> None:
    data = tmp_path / "games.npz"
    _positions_file(data)
    one = tmp_path / "one.npz"
    _positions_file(one, games=1)
    columns = dict(np.load(data))
    broken = {}
    for name, change in (
            ("short", {"result": columns["result"][:-5]}),
            ("result2", {"result": columns["result"] * 2}),
            ("overlap", {"black": columns["white"]}),
            ("float", {"white": columns["white"].astype(np.float64)}),
            ("negative", {"game": columns["game"] - 5})):
        broken[name] = tmp_path / f"{name}.npz"
        np.savez(broken[name], **{**columns, **change})
    flipped = bytearray(data.read_bytes())
    flipped[len(flipped) // 3:len(flipped) // 3 + 40] = bytes(40)
    (tmp_path / "flipped.npz").write_bytes(bytes(flipped))
    for args, message in (
            (("american", str(one), "--weights", "hand"), "too few games"),
            (("american", str(broken["short"]), "--weights", "hand"), "columns of different"),
            (("american", str(broken["result2"]), "--weights", "hand"), "result -2"),
            (("american", str(broken["overlap"]), "--weights", "hand"),
             "is not a position of the american board"),
            (("american", str(broken["float"]), "--weights", "hand"), "whole numbers"),
            (("american", str(broken["negative"]), "--weights", "hand"), "game -5"),
            (("american", str(tmp_path / "flipped.npz"), "--weights", "hand"),
             "not a file written by `selfplay`"),
            (("american", str(data), "--weights", "shipped", "--band", "0"),
             "--band must be 1-20 pieces"),
            (("american", str(data), "--weights", str(tmp_path / "none.bin")), "none.bin"),
            (("international", str(data), "--weights", "hand"), "positions of american"),
            (("bogus", str(data), "--weights", "hand"), "bogus")):
        done = _run(*args)
        assert done.returncode == 2
        assert message in done.stderr
        assert "Traceback" not in done.stderr


# -- games against an anchor (match records) ------------------------------------------------


def test_anchor_side_offset_takes_the_stronger_players_edge_out_of_the_loss() -> None:
    # The anchor wins 80% of the games whatever the position; an evaluation that knows
    # nothing gets a coin's loss without the offset and the anchor's edge with it.
    rng = np.random.default_rng(11)
    games = np.repeat(np.arange(400), 10)
    side = np.repeat(np.where(np.arange(400) % 2 == 0, 1.0, -1.0), 10)
    anchor_won = np.repeat(rng.random(400) < 0.8, 10)
    result = np.where(anchor_won == (side > 0), 1.0, 0.0)
    base = rng.normal(0.0, 50.0, len(games))
    keep, band = np.ones(len(games), dtype=bool), np.zeros(len(games), dtype=int)
    without = band_losses(base, keep, result, band, games)[1][0][0]
    with_side = band_losses(base, keep, result, band, games, side)[1][0][0]
    # The best a fit can do: the anchor's share of the even games' wins, judged on the odd.
    fit, held = anchor_won[games % 2 == 0].mean(), anchor_won[games % 2 == 1].mean()
    edge = -(held * np.log(fit) + (1 - held) * np.log(1 - fit))
    assert without > 0.69 and abs(with_side - edge) < 0.005


def _match_records(path: Path, games: int = 12, anchor: str = "hub:/opt/anchor") -> None:
    from damiera.pdn import write_game
    from damiera.rules.game import Game

    rng = random.Random(5)
    texts = []
    for n in range(games):
        game = Game("american")
        for _ in range(30):
            moves = list(game.legal_moves)
            if not moves:
                break
            game.push(rng.choice(moves))
        players = ("3", anchor) if n % 2 else (anchor, "3")
        result = rng.choice(("1-0", "0-1", "1/2-1/2")) if n != 3 else "*"
        texts.append(write_game(game, {"White": players[0], "Black": players[1]}, result))
    path.write_text("\n".join(texts), encoding="utf-8")


def test_results_loss_reads_match_records_with_the_anchor_side(tmp_path: Path) -> None:
    records = tmp_path / "match.pdn"
    _match_records(records)
    done = _run("american", str(records), "--anchor", "hub:", "--weights", "shipped", "hand",
                "--band", "8")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("american: ") and "11 games" in lines[0]
    assert "K and the anchor side fitted" in lines[0]
    assert lines[3].startswith("hand: 0.") and "(difference " in lines[3]
    assert "left out: 1 game(s) without a result" in done.stderr


def test_results_loss_refuses_bad_match_records_with_one_line(tmp_path: Path) -> None:
    records = tmp_path / "match.pdn"
    _match_records(records)
    data = tmp_path / "games.npz"
    _positions_file(data)
    broken = tmp_path / "broken.pdn"
    broken.write_text('[GameType "20"]\n\n1. 32-28 99-98 *\n', encoding="utf-8")
    for args, message in (
            (("american", str(records), "--anchor", "nobody", "--weights", "hand"),
             "names neither player"),
            (("american", str(records), "--anchor", "", "--weights", "hand"), "--anchor is empty"),
            (("american", str(data), "--anchor", "hub:", "--weights", "hand"),
             "--anchor goes with match records"),
            (("american", str(records), str(data), "--weights", "hand"), "not both"),
            (("american", str(broken), "--weights", "hand"), "broken.pdn: game 1"),
            (("international", str(records), "--weights", "hand"), "not international")):
        done = _run(*args)
        assert done.returncode == 2, (args, done.stdout)
        assert message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_anchor_side_offset_stays_finite_when_the_anchor_won_every_training_game() -> None:
    games = np.repeat(np.arange(40), 5)
    side = np.ones(len(games))
    result = np.where(games % 2 == 0, 1.0, 0.5)  # won every even game, drew every odd one
    loss = band_losses(np.zeros(len(games)), np.ones(len(games), dtype=bool), result,
                       np.zeros(len(games), dtype=int), games, side)[1][0][0]
    assert np.isfinite(loss) and loss < 3.0


def test_a_game_without_a_position_to_score_is_left_out_and_said(tmp_path: Path) -> None:
    from damiera.pdn import write_game
    from damiera.rules.game import Game

    records = tmp_path / "match.pdn"
    _match_records(records)
    forced = Game("american", "W:W18:B14")  # one capture ends it: no quiet position
    forced.push(next(iter(forced.legal_moves)))
    text = write_game(forced, {"White": "3", "Black": "hub:/opt/anchor"}, "1-0")
    records.write_text(text + "\n" + records.read_text(encoding="utf-8"), encoding="utf-8")
    done = _run("american", str(records), "--anchor", "hub:", "--weights", "hand")
    assert done.returncode == 0, done.stderr
    assert "11 games" in done.stdout.splitlines()[0]
    assert "left out: 2 game(s) without a result or a position to score" in done.stderr
