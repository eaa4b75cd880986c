"""Levels, the match runner and the engine CLI commands."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from damiera.cli import main
from damiera.engine.front import Engine, Limit
from damiera.engine.levels import LEVELS, level, weaker_move
from damiera.engine.match import elo_stats, play_game, random_openings, run_match
from damiera.pdn.reader import read_games
from damiera.rules.movegen import Move, generate
from damiera.rules.notation import parse_move
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import VARIANTS, Variant, variant


# -- levels ------------------------------------------------------------------------------------
def test_levels_are_ordered_by_budget_and_noise() -> None:
    one, two, three = LEVELS[1], LEVELS[2], LEVELS[3]
    assert one.depth is not None and two.depth is not None and three.depth is None
    assert one.depth < two.depth
    assert one.weaker_chance > two.weaker_chance > three.weaker_chance == 0
    assert three.movetime == 2.0 and three.uses_given_time


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="level must be 1, 2 or 3"):
        level(4)


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_weak_levels_always_play_a_legal_move(vid: str) -> None:
    v = variant(vid)
    player = Engine(v, 1, rng=random.Random(3))
    pos = start_position(v)
    history = [pos]
    for _ in range(10):
        moves = generate(v, pos)
        if not moves:
            break
        chosen = player.choose(history, Limit(time=5.0)).move
        assert chosen is not None and chosen.raw in moves
        move = chosen.raw
        from damiera.rules.movegen import apply_move

        pos = apply_move(pos, move)
        history.append(pos)


def test_weaker_move_stays_within_the_margin() -> None:
    # Level 1 always asked for a weaker move (chance forced to 1) never drops a man at once.
    v = variant("american")
    from dataclasses import replace

    lv = replace(LEVELS[1], weaker_chance=1.0)
    player = Engine(v, lv, rng=random.Random(5))
    pos = parse_fen(v, "W:W26,30,31:B4,17,18")
    result = player.choose([pos], Limit(time=5.0))
    assert result.move is not None and result.move.raw in generate(v, pos)
    assert result.score >= -lv.weaker_margin + 90


# -- evaluation from rule parameters -----------------------------------------------------------
def test_weaker_move_is_a_near_equal_one_far_more_often_than_a_dropped_man() -> None:
    # Level 1's weaker move is weighted like a player's, not drawn uniformly: the second best
    # scores 0.16 men below the best, five others 1.15-1.35 men below (a man given away, inside
    # level 1's 1.5-man margin), one 1.6 men below (outside it). Uniformly the second best
    # would come one time in six; weighted exp(-d / 50) it comes 64% of the time.
    scores = [0, -16, -115, -125, -125, -129, -135, -160]
    moves = [(object(), s) for s in scores]
    rng = random.Random(11)
    picks = [weaker_move(moves, LEVELS[1].weaker_margin, rng) for _ in range(3000)]  # type: ignore[arg-type]
    counts = [sum(p is not None and p[0] is m for p in picks) for m, _s in moves]
    assert counts[0] == 0 and counts[-1] == 0  # never the best, never beyond the margin
    assert 1800 < counts[1] < 2050  # 64% of 3000 (binomial sd 26)
    assert all(0 < 5 * c < counts[1] for c in counts[2:7])  # each about 7 times rarer
    assert weaker_move(moves[:1], 150, rng) is None  # type: ignore[arg-type]
    assert weaker_move([moves[0], moves[-1]], 150, rng) is None  # type: ignore[list-item]


def test_weaker_move_never_spoils_a_forced_win() -> None:
    # A won ending (American, two kings against one: the endgame database's win in so many
    # plies): the next-shortest win scores 2 centi-men lower, well inside level 2's margin, and
    # a few such moves in a row would let the 40-move rule take the win. Levels play a forced
    # win out whatever their chance of a weaker move.
    from dataclasses import replace

    from damiera.engine.search import MATE

    v = variant("american")
    lv = replace(LEVELS[2], weaker_chance=1.0)
    wins = [(object(), MATE - 33), (object(), MATE - 35), (object(), MATE - 37)]
    assert weaker_move(wins, lv.weaker_margin, random.Random(1)) is None  # type: ignore[arg-type]
    player = Engine(v, lv, rng=random.Random(3))
    pos = parse_fen(v, "W:WK1,K2:BK32")
    best = player.searcher.search(pos, depth=4, root_scores=True)
    assert best.score > MATE - 100
    for _ in range(20):
        assert player.choose([pos]).score == best.score



# -- match runner ------------------------------------------------------------------------------
def test_elo_stats() -> None:
    score, elo, lo, hi = elo_stats(5, 10, 5)
    assert score == 0.5 and elo == 0 and lo < 0 < hi
    score, elo, lo, hi = elo_stats(20, 0, 0)
    assert score == 1 and elo > 400
    with pytest.raises(ValueError):
        elo_stats(0, 0, 0)


@pytest.mark.parametrize("record", [(1, 0, 0), (2, 0, 0), (40, 0, 0), (0, 0, 1), (0, 0, 40)])
def test_elo_interval_stays_open_and_wide_at_the_edges(record: tuple[int, int, int]) -> None:
    score, elo, lo, hi = elo_stats(*record)
    assert math.isfinite(elo) and lo < elo < hi
    if score == 1:
        assert hi == math.inf and math.isfinite(lo)
    else:
        assert lo == -math.inf and math.isfinite(hi)


def test_elo_interval_shrinks_with_more_games_and_is_finite_inside() -> None:
    _, _, lo1, _ = elo_stats(1, 0, 0)
    _, elo40, lo40, _ = elo_stats(40, 0, 0)
    assert lo1 < 0 < lo40 < elo40  # one win proves nothing; forty prove a lot
    _, elo, lo, hi = elo_stats(39, 1, 0)
    assert lo < elo < hi < math.inf
    _, elo, lo, hi = elo_stats(0, 1, 0)
    assert elo == 0 and lo < -100 and hi > 100


def test_match_json_reports_an_open_side_as_null() -> None:
    from damiera.engine.match import MatchResult

    result = MatchResult("american", "3", "random", 2, 2, 0, 0, 1.0, 279.6, -113.4,
                         math.inf, math.inf, None)
    data = json.loads(json.dumps(result.as_dict(), allow_nan=False))
    assert data["elo_high"] is None and data["elo_error"] is None and data["elo_low"] == -113.4
    assert "+inf" in result.summary()


def test_random_openings_are_level_and_distinct() -> None:
    v = variant("russian")
    openings = random_openings(v, 6, plies=4)
    assert len(set(openings)) == 6
    for pos in openings:
        assert pos.piece_counts()[0] == pos.piece_counts()[1]


def test_random_openings_stop_searching_once_a_variant_has_no_new_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """American has a few hundred level 4-ply openings: a long match repeats them after a
    bounded search instead of 200 random tries for every game it asks for."""
    from damiera.engine import match_openings

    v = variant("american")
    calls = 0
    real = match_openings.legal_moves  # type: ignore[attr-defined]

    def counted(variant: Variant, pos: Position) -> list[Move]:
        nonlocal calls
        calls += 1
        return real(variant, pos)

    monkeypatch.setattr(match_openings, "legal_moves", counted)
    openings = random_openings(v, 50_000, plies=4)
    assert len(openings) == 50_000
    distinct = list(dict.fromkeys(openings))
    assert 300 < len(distinct) < 500
    assert openings[:len(distinct)] == distinct  # found first, then repeated in order
    assert calls < 50 * 50_000 // 10  # (without the stop: 4 calls a try, 10 M tries)
    assert random_openings(v, 100, plies=4) == distinct[:100]  # the same stream of openings


def test_game_is_refereed_to_a_result() -> None:
    v = variant("american")
    record = play_game(v, start_position(v), "1", "random", None, seed=2)
    assert record.result in (-1, 0, 1)
    assert record.plies > 0


def test_match_alternates_colours_and_counts() -> None:
    v = variant("american")
    result, records = run_match(v, "1", "random", 4, seed=3)
    assert [r.white for r in records] == ["1", "random", "1", "random"]
    assert records[0].opening == records[1].opening
    assert result.wins + result.draws + result.losses == 4


def test_match_in_worker_processes_gives_the_same_games_in_order() -> None:
    # --jobs 2: the games come back in the order they end, are kept in the order they were
    # set, and each reports itself once to on_game, with its index.
    v = variant("american")
    seen: list[int] = []
    one, alone = run_match(v, "random", "random", 4, seed=3)
    two, pooled = run_match(v, "random", "random", 4, seed=3, jobs=2,
                            on_game=lambda i, _r: seen.append(i))
    assert sorted(seen) == [0, 1, 2, 3]
    assert [r.pdn for r in pooled] == [r.pdn for r in alone]
    assert (two.wins, two.draws, two.losses) == (one.wins, one.draws, one.losses)


# -- CLI ---------------------------------------------------------------------------------------
def test_cli_bestmove_prints_info_lines_and_a_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bestmove", "russian", "--depth", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [ln.split()[:2] for ln in lines[:3]] == [["depth", "1"], ["depth", "2"], ["depth", "3"]]
    for ln in lines[:3]:
        words = ln.split()
        assert words[2] == "score" and words[4] == "nodes" and words[6] == "nps"
        assert words[8] == "pv"
    assert lines[-1].startswith("bestmove ")
    v = variant("russian")
    parse_move(v, start_position(v), lines[-1].split()[1])


def test_cli_bestmove_level_and_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "W:W22,31:B18,11,4"
    assert main(["bestmove", "american", "--fen", fen, "--level", "1",
                 "--optional-capture"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    v = variant("american", optional_capture=True)
    parse_move(v, parse_fen(v, fen), last.split()[1])


@pytest.mark.parametrize("command", ["bestmove", "analyse"])
def test_cli_bestmove_no_legal_move_exits_1(command: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "american", "--fen", "W:W5:B1", "--depth", "2"]) == 1
    assert capsys.readouterr().err == "no legal move: white to move has lost\n"


@pytest.mark.parametrize(("fen", "loser"), [("B:W18:B", "black"), ("W:W21-32:B", "black"),
                                             ("W:W:B1-12", "white")])
@pytest.mark.parametrize("command", ["bestmove", "analyse"])
def test_cli_bestmove_side_without_pieces_says_the_game_is_over(
    fen: str, loser: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "american", "--fen", fen, "--depth", "2"]) == 1
    captured = capsys.readouterr()
    assert "bestmove" not in captured.out
    assert captured.err.strip() == f"game over: {loser} has no pieces and has lost"


def test_cli_bestmove_largest_accepted_limits(capsys: pytest.CaptureFixture[str]) -> None:
    # The caps themselves are accepted (a forced win ends the search long before them).
    assert main(["bestmove", "american", "--fen", "W:WK1:B", "--depth", "30"]) == 1
    assert main(["bestmove", "american", "--fen", "W:W5:B1", "--movetime", "3600"]) == 1
    assert "damiera: error" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["bestmove", "american", "--depth", "x"],
        ["bestmove", "american", "--level", "4"],
        ["bestmove", "american", "--movetime", "-1"],
        ["bestmove", "american", "--movetime", "1e300"],
        ["bestmove", "american", "--movetime", "3600.5"],
        ["bestmove", "american", "--movetime", "nan"],
        ["bestmove", "american", "--depth", "31"],
        ["bestmove", "american", "--depth", "0"],
        ["match", "american", "--first", "1", "--second", "1", "--games", "2",
         "--movetime", "1e300"],
        ["bestmove", "nowhere"],
        ["bestmove", "international", "--optional-capture"],
        ["match", "american", "--first", "5", "--second", "1", "--games", "2"],
        ["match", "american", "--first", "1", "--second", "1", "--games", "0"],
        ["match", "american", "--first", "1", "--second", "1", "--games", "2",
         "--openings", "/nonexistent/openings.txt"],
    ],
)
def test_cli_bad_input_exits_2_with_one_line(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("damiera: error:") and "\n" not in err


def test_cli_match_refuses_an_openings_fifo_without_blocking(tmp_path: Path) -> None:
    """A FIFO named by ``match --openings`` blocked the reader (an open for reading waits for
    a writer): it is refused at once, by name, in one line. Run in a child process with a
    timeout, so that a regression fails instead of hanging the suite."""
    fifo = tmp_path / "openings.txt"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "damiera", "match", "american", "--first", "1",
                           "--second", "1", "--games", "2", "--openings", str(fifo)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"damiera: error: cannot read {fifo}: a FIFO, not a regular file\n"


def test_cli_match_json_last_line(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    assert main(["match", "american", "--first", "1", "--second", "random", "--games", "2",
                 "--json", "--quiet"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert data["games"] == 2
    assert data["wins"] + data["draws"] + data["losses"] == 2
    assert {"elo", "elo_low", "elo_high", "score"} <= set(data)


def test_cli_match_summary_of_one_won_game(capsys: pytest.CaptureFixture[str]) -> None:
    # Level 2 beats random in one game: "1 game", and the interval's open side shows as +inf
    # with no half-width (an infinite one would read "+-inf").
    assert main(["match", "american", "--first", "2", "--second", "random", "--games", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "1 game" in out and "1 games" not in out
    assert "+inf)" in out and "+-inf" not in out


def test_cli_match_reads_openings_file(capsys: pytest.CaptureFixture[str],
                                       tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "openings.txt"  # type: ignore[operator]
    path.write_text("# two openings\nW:W21-32:B1-12\n\nB:W21-32:B1-12\n")
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "2", "--openings", str(path), "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["games"] == 2


def test_cli_match_pdn_holds_every_game_and_replays(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: pytest.TempPathFactory) -> None:
    # --pdn: each game as it ends, with its Round, players and result; our reader replays
    # every move of it under the variant's rules (GameType), and the results add up to the
    # match's own count.
    path = tmp_path / "games.pdn"  # type: ignore[operator]
    assert main(["match", "russian", "--first", "1", "--second", "random", "--games", "3",
                 "--pdn", str(path), "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    games = list(read_games(path.read_text(encoding="utf-8")))
    assert sorted(g.tags["Round"] for g in games) == ["1", "2", "3"]
    wins = 0
    for g in games:
        assert g.variant.id == "russian" and g.error is None
        first_is_white = g.tags["White"] == "1"
        assert g.tags["Black"] == ("random" if first_is_white else "1")
        outcome = g.game.outcome()
        winner = outcome.winner if outcome is not None else None
        wins += winner is not None and (winner.word == "white") == first_is_white
    assert wins == data["wins"]


def test_cli_match_unwritable_pdn_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: pytest.TempPathFactory) -> None:
    missing = tmp_path / "no-such-dir" / "games.pdn"  # type: ignore[operator]
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "1", "--pdn", str(missing), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "cannot write" in err


def test_cli_match_pdn_refuses_to_overwrite_its_openings_file(
        capsys: pytest.CaptureFixture[str], tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "openings.txt"  # type: ignore[operator]
    text = "# openings\nW:W21-32:B1-12\n"
    path.write_text(text)
    link = tmp_path / "link.txt"  # type: ignore[operator]
    link.symlink_to(path)
    for pdn in (path, link):  # the same file under another name too
        assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                     "2", "--openings", str(path), "--pdn", str(pdn), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "openings file" in err
    assert path.read_text() == text


def test_cli_match_pdn_to_a_pipe(capsys: pytest.CaptureFixture[str],
                                 tmp_path: pytest.TempPathFactory) -> None:
    # A FIFO cannot tell its position: the games are still written, one after the other.
    import os
    import threading

    fifo = tmp_path / "games.fifo"  # type: ignore[operator]
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "2", "--pdn", str(fifo), "--quiet"]) == 0
    reader.join(timeout=30)
    assert [g.tags["Round"] for g in read_games(got[0])] == ["1", "2"]


def test_cli_match_pdn_write_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # A full disk (Linux's /dev/full): one error line and status 1, no traceback.
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "1", "--pdn", "/dev/full", "--quiet"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "damiera: error: cannot write /dev/full: No space left on device"


@pytest.mark.parametrize(
    ("bad", "why"),
    [("W:W5:B1", "White to move has no legal move"), ("W:W21-32:B", "Black has no pieces"),
     ("B:W:B1-12", "White has no pieces")],
)
def test_cli_match_refuses_a_finished_opening(bad: str, why: str,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "openings.txt"  # type: ignore[operator]
    path.write_text(f"# openings\nW:W21-32:B1-12\n{bad}\n")
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "2", "--openings", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{path}, line 3" in err and why in err


def test_cli_match_names_an_undecodable_openings_file(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "openings.bin"  # type: ignore[operator]
    path.write_bytes(b"W:W21-32:B1-12\n\xff\xfe\x00junk\n")
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "2", "--openings", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err and "UTF-8" in err


@pytest.mark.parametrize("lv", [1, 2, 3])
def test_every_level_plays_a_forced_capture_at_once(lv: int) -> None:
    # The levels' docstring promises it; levels 1 and 2 once searched their whole depth cap
    # (newcomer finding).
    v = variant("international")
    pos = parse_fen(v, "W:W17,20,21,28:B22,23,25,43")
    infos: list[int] = []
    result = Engine(v, lv, rng=random.Random(1)).choose(
        [pos], on_info=lambda i: infos.append(i.depth))
    assert result.move is not None and result.depth == 0 and infos == [0]


def test_hub_refuses_a_mistyped_engine_switch_before_answering(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'damiera hub' once answered 'ready' and then died at the first go over a bad
    DAMIERA_EVAL, with no Hub error line for the GUI: it now stops before reading a line."""
    import io
    import sys

    class Stdin:
        buffer = io.BytesIO(b"hub\ninit\n")

    monkeypatch.setattr(sys, "stdin", Stdin)
    monkeypatch.setenv("DAMIERA_EVAL", "hnad")
    assert main(["hub"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("damiera: error: DAMIERA_EVAL") and err.count("\n") == 1


def test_cli_match_refuses_an_openings_file_without_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: pytest.TempPathFactory
) -> None:
    """Input is bounded: '--openings /dev/zero' once read until memory ran out (now a device
    is refused before a byte is read, and a regular file is read up to the bound)."""
    from damiera.engine import match_openings

    monkeypatch.setattr(match_openings, "MAX_OPENINGS_BYTES", 1000)
    path = tmp_path / "openings.txt"  # type: ignore[operator]
    path.write_text("W:W21-32:B1-12\n" * 100)  # 1,500 bytes
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "2", "--openings", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err and "larger than 1000 bytes" in err
    assert main(["match", "american", "--first", "random", "--second", "random", "--games",
                 "2", "--openings", "/dev/zero", "--quiet"]) == 2
    assert capsys.readouterr().err == ("damiera: error: cannot read /dev/zero: a character "
                                       "device, not a regular file\n")


def test_openings_file_lines_end_in_any_newline(tmp_path: pytest.TempPathFactory) -> None:
    from damiera.engine.match import read_openings

    path = tmp_path / "openings.txt"  # type: ignore[operator]
    path.write_bytes(b"# crlf\r\nW:W21-32:B1-12\r\nB:W21-32:B1-12\rW:W22-32:B1-12\n")
    assert len(read_openings(variant("american"), str(path))) == 3
