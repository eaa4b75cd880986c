"""Hub protocol front end: a short session fed as lines, answers read back."""

from __future__ import annotations

import io
from typing import Any

import pytest

import damiera
from damiera.engine import Engine, Limit
from damiera.engine.front import Analysis
from damiera.engine.hub import (
    MAX_NODES,
    HubSession,
    move_string,
    parse_hub_move,
    parse_line,
    parse_position,
)
from damiera.engine.hub_protocol import position_string
from damiera.engine.search import MAX_DEPTH, Searcher
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant

START_10 = "W" + "b" * 20 + "e" * 10 + "w" * 20


def _session(*lines: str) -> list[str]:
    """Answers to ``lines``, each sent after the previous search's ``done`` (as a GUI does)."""
    out = io.StringIO()
    session = HubSession(out)
    for line in lines:
        if not session.handle(line):
            break
        session.wait()
    session.close()
    return out.getvalue().splitlines()


def test_parse_line_reads_quoted_values_and_flags() -> None:
    assert parse_line('pos pos=W moves="32-28 19-23"') == (
        "pos", {"pos": "W", "moves": "32-28 19-23"})
    assert parse_line("go think") == ("go", {"think": ""})


def test_hub_handshake_and_a_search_at_fixed_depth() -> None:
    out = _session("hub", "init", f"pos pos={START_10}", "level depth=2", "go think", "quit",
                   "ping")
    assert out[0].startswith("id name=Damiera")
    assert "wait" in out and "ready" in out
    assert any(line.startswith("info depth=2 ") for line in out)
    done = [line for line in out if line.startswith("done move=")]
    assert len(done) == 1
    assert "pong" not in out  # nothing is answered after quit
    v = variant("international")
    pos = parse_position(v, START_10)
    parse_hub_move(v, pos, done[0].split()[1].removeprefix("move="))


def test_hub_moves_list_and_capture_format() -> None:
    v = variant("international")
    pos = parse_position(v, START_10)
    for text in ("32-28", "19-23"):
        pos = apply_move(pos, parse_hub_move(v, pos, text))
    capture = parse_hub_move(v, pos, "28x19x23")
    assert move_string(v, capture) == "28x19x23"


def test_hub_8x8_variant_and_errors() -> None:
    out = _session("set-param name=variant value=russian", "pos pos=Wxx", "go think",
                   "set-param name=variant value=atlantis")
    assert len(out) == 3 and all(line.startswith("error message=") for line in out)
    v = variant("russian")
    pos = parse_fen(v, "W:Wc3:Bd4")
    (move,) = generate(v, pos)
    assert parse_hub_move(v, pos, move_string(v, move)) == move


def test_hub_bad_level_values_answer_an_error_and_the_engine_keeps_running() -> None:
    bad = ["level depth=0", "level depth=-3", "level move-time=-1", "level move-time=0",
           "level move-time=nan", "level move-time=inf", "level move-time=-inf",
           "level time=nan", "level time=inf", "level time=10 inc=nan", "level move-time=abc",
           "level inc=abc", "level inc=0.5", "level moves=40", "level move-time=1 inc=0.5",
           "level depth=3 moves=40", "level infinite inc=2"]
    out = _session(f"pos pos={START_10}", "level depth=1", *bad, "go think", "quit")
    assert len([line for line in out if line.startswith("error message=")]) == len(bad)
    # The last good setting (depth 1) is kept: one depth-1 search, then a legal move.
    assert next(line for line in out if line.startswith("info ")).startswith("info depth=1 ")
    done = [line for line in out if line.startswith("done move=")]
    assert len(done) == 1
    v = variant("international")
    parse_hub_move(v, parse_position(v, START_10), done[0].split()[1].removeprefix("move="))


def test_hub_go_on_a_finished_game_answers_an_error() -> None:
    no_black = "W" + "e" * 30 + "w" * 20
    out = _session(f"pos pos={no_black}", "level depth=1", "go think", "ping", "quit")
    assert out[0].startswith("error message=") and "game is over" in out[0]
    assert out[1:] == ["pong"]


def test_hub_variant_change_forgets_the_old_position() -> None:
    # A 10x10 position means nothing on an 8x8 board: go answers an error, no crash.
    out = _session(f"pos pos={START_10}", "set-param name=variant value=russian",
                   "level depth=2", "go think", "ping", "quit")
    assert out[0].startswith("error message=") and "send pos first" in out[0]
    assert out[1:] == ["pong"]
    # The same between two 8x8 variants (American -> Italian): no move of the old game.
    start_8 = "B" + "b" * 12 + "e" * 8 + "w" * 12
    out = _session("set-param name=variant value=american", f"pos pos={start_8}",
                   "set-param name=variant value=italian", "go think", "quit")
    assert len(out) == 1 and out[0].startswith("error message=")


def test_hub_refused_position_is_not_searched_later() -> None:
    out = _session(f"pos pos={START_10}", 'pos pos=' + START_10 + ' moves="32-28 99-1"',
                   "level depth=1", "go think", "quit")
    assert out[0].startswith("error message=") and "99-1" in out[0]
    assert len(out) == 2 and out[1].startswith("error message=")


def test_hub_pos_with_unquoted_moves_is_refused_not_cut_short() -> None:
    """``moves=32-28 19-23`` without quotes reads as one move and a flag ``19-23``: the
    position is refused (and forgotten) instead of searched after the first move only."""
    out = _session(f"pos pos={START_10}", f"pos pos={START_10} moves=32-28 19-23",
                   "level depth=1", "go think", "quit")
    assert out[0].startswith("error message=") and "19-23" in out[0] and "quoted" in out[0]
    assert len(out) == 2 and "send pos first" in out[1]
    out = _session(f'pos pos={START_10} moves="32-28 19-23"', "level depth=1", "go think",
                   "quit")
    assert out[-1].startswith("done move=") and not any(o.startswith("error") for o in out)


def test_hub_level_time_hands_the_game_clock_to_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # moves=0 (or none) is sudden death: no moves to go, the search estimates the moves left.
    for line in ("level moves=0 time=60", "level time=60"):
        session = HubSession(io.StringIO())
        session.handle(line)
        assert session.clock == (60.0, 0.0, None) and session.movetime is None
    session = HubSession(io.StringIO())
    session.handle("level moves=12 time=60 inc=0.5")
    assert session.clock == (60.0, 0.5, 12)
    session = HubSession(io.StringIO())
    session.handle("level time=0")  # a clock at 0 still gets the least think
    assert session.clock == (0.001, 0.0, None)
    session.handle("level move-time=1")  # a move time replaces the clock
    assert session.clock is None and session.movetime == 1.0
    # go think searches with the clock as a Limit: the core shares it out.
    limits: list[Limit] = []
    play = Engine.play

    def spy(self: Engine, game: damiera.Game, limit: Limit | None = None,
            **kwargs: Any) -> Analysis:
        assert limit is not None
        limits.append(limit)
        return play(self, game, Limit(depth=1), **kwargs)

    monkeypatch.setattr(Engine, "play", spy)
    out = _session(f"pos pos={START_10}", "level moves=12 time=60 inc=0.5", "go think", "quit")
    assert any(line.startswith("done move=") for line in out)
    assert limits == [Limit(remaining=60.0, increment=0.5, moves_to_go=12)]


def test_hub_ponder_hit_shares_the_clock_out_from_the_plies_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # ponder-hit times the rest of the search itself: as the search does, it estimates the
    # moves left from the plies played (here 4), not as at the start of a game.
    from damiera.engine import hub

    asked: list[tuple[Any, ...]] = []

    def recorded(*args: Any) -> tuple[float, float]:
        asked.append(args)
        return (0.01, 0.01)

    monkeypatch.setattr(hub, "allocate_time", recorded)
    out = io.StringIO()
    session = HubSession(out)
    for line in (f"pos pos={START_10} moves=\"32-28 19-23 28x19x23 14x23x19\"",
                 "level time=60 inc=0.5", "go ponder", "ponder-hit"):
        session.handle(line)
    session.wait()
    session.close()
    assert asked == [(60.0, 0.5, None, 4)]
    assert "done move=" in out.getvalue()


def test_hub_forced_move_played_at_once_sends_its_info_line() -> None:
    # White's only move is the capture 28x19 (FORCED_INTO_LOSS in test_search): played at
    # once under the clock, with an info line at depth 0 carrying the one-ply search's score
    # (in men; its sign is the evaluation's: the hand-made one scores the exchange below 0,
    # the learned one above, and a search of 18 plies with either finds White ahead).
    board = ["e"] * 50
    for sq in (17, 20, 21, 28):
        board[sq - 1] = "w"
    for sq in (22, 23, 25, 43):
        board[sq - 1] = "b"
    out = _session("hub", "init", "pos pos=W" + "".join(board), "level move-time=5",
                   "go think", "quit")
    infos = [line for line in out if line.startswith("info ")]
    v = variant("international")
    one_ply = Searcher(v).search(parse_fen(v, "W:W17,20,21,28:B22,23,25,43"), depth=1).score
    assert len(infos) == 1 and infos[0].startswith(f"info depth=0 score={one_ply / 100:.2f} ")
    assert 'pv="28x19x23"' in infos[0]  # the hub names every square it passes
    assert "done move=28x19x23" in out


def test_hub_go_without_a_legal_move_answers_the_outcome_of_the_game() -> None:
    board = ["e"] * 50
    board[46 - 1], board[41 - 1], board[37 - 1] = "w", "b", "b"   # 46 blocked by 41 and 37
    out = _session(f"pos pos=W{''.join(board)}", "level depth=1", "go think", "quit")
    assert out[0].startswith("error message=") and "game is over" in out[0]
    assert "Black wins" in out[0] and "no legal move" in out[0]


def test_hub_searches_a_record_that_played_on_past_a_threefold_repetition() -> None:
    # American, two kings shuffling: the start position is seen for the third time after
    # eight plies (damiera.Game would score it drawn); Hub searches on, as it did before.
    board = ["e"] * 32
    board[32 - 1], board[1 - 1] = "W", "B"
    shuffle = " ".join(["1-5 32-28 5-1 28-32"] * 2)
    game = damiera.Game("american", fen="B:WK32:BK1")
    for move in shuffle.split():
        game.play(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason.value == "threefold-repetition"
    out = _session("set-param name=variant value=american",
                   f'pos pos=B{"".join(board)} moves="{shuffle}"', "level depth=2",
                   "go think", "quit")
    assert out[-1].startswith("done move=")


def _infos(out: list[str]) -> list[dict[str, str]]:
    return [parse_line(line)[1] for line in out if line.startswith("info ")]


def test_hub_level_nodes_limits_the_search_by_its_node_count() -> None:
    # The depth-1 level before it is replaced, not kept: the search goes deeper than 1 and
    # stops once it has counted the nodes (checked every 256 nodes).
    out = _session(f"pos pos={START_10}", "level depth=1", "level nodes=3000", "go think",
                   "level nodes=0", "level nodes=x", "quit")
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 2 and all("nodes must be" in line for line in errors)
    infos = _infos(out)
    assert int(infos[-1]["depth"]) > 1
    assert all(int(i["nodes"]) < 3000 + 256 for i in infos)
    assert sum(line.startswith("done move=") for line in out) == 1


def test_hub_level_says_a_number_too_large_is_too_large_and_gives_the_bound() -> None:
    out = _session("level nodes=99999999999999999999999", f"level nodes={'9' * 5000}",
                   "level nodes=1000000000001", "level depth=+0000000000000000000000000000001",
                   "level depth=1000", f"level depth=-{'9' * 5000}", "level depth=-0", "quit")
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 6, out
    assert all("nodes is too large" in e and f"at most {MAX_NODES}" in e for e in errors[:3])
    assert all(len(e) < 200 for e in errors)
    assert "depth is too large" in errors[3] and f"at most {MAX_DEPTH}" in errors[3]
    assert all(f"depth must be between 1 and {MAX_DEPTH}" in e for e in errors[4:])


@pytest.mark.parametrize("value", ["+-5", "-+5", "--5", "5-", "", "٣", "1_000"])
def test_hub_level_refuses_what_is_not_a_whole_number(value: str) -> None:
    out = _session(f"level nodes={value}", "level depth=2", "quit")
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 1 and "nodes must be a whole number" in errors[0], out


@pytest.mark.parametrize("value", ["5_0", "٣", "１", "nan", "inf", "0x1p-2", "1e", ".", "",
                                   "1" * 41])
def test_hub_level_refuses_seconds_that_are_not_an_ascii_decimal_number(value: str) -> None:
    """Python's ``float`` reads ``5_0`` as 50 and other scripts' digits as numbers; the Hub
    protocol's numbers are ASCII decimals, bounded in length."""
    out = _session(f"level move-time={value}", f"level time={value}", "quit")
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 2 and "must be a number of seconds" in errors[0], out
    assert all(len(e) < 200 for e in errors)


@pytest.mark.parametrize("value", ["0.25", ".25", "25e-2", "+0.25", "0.250000"])
def test_hub_level_move_time_reads_decimal_numbers(value: str) -> None:
    out = _session(f"pos pos={START_10}", f"level move-time={value}", "go think", "quit")
    assert not any(line.startswith("error ") for line in out), out
    assert out[-1].startswith("done move=")


@pytest.mark.parametrize("value", ["0", "4", "٣", "3_0", "2.0", "9" * 5000])
def test_hub_set_param_level_refuses_all_but_1_2_3(value: str) -> None:
    out = _session(f"set-param name=level value={value}", "set-param name=level value=2",
                   "quit")
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 1 and "level" in errors[0] and len(errors[0]) < 200, out


@pytest.mark.parametrize("line", ["level time=10 inc=", "level time=10 inc",
                                  "level time=10 moves=", "level time=10 inc= 0.5",
                                  "level depth=3 move-time=nan", "level move-time=nan depth=3",
                                  "level move-time=0.5 time=nan", "level depth=2 nodes=x",
                                  "level nodes=500 time=10 inc=-1"])
def test_hub_level_checks_every_value_given_even_one_a_higher_setting_overrides(
        line: str) -> None:
    """An empty ``inc=`` is not 0, and a bad value beside a setting that takes precedence
    (depth over nodes over move-time over time) is refused, not ignored: the line changes
    nothing."""
    session = HubSession(io.StringIO())
    session.handle("level depth=1")
    session.handle(line)
    session.close()
    assert session.out.getvalue().startswith("error message="), line
    assert (session.depth, session.nodes, session.movetime, session.clock) == (1, None, None,
                                                                               None)


def test_hub_error_lines_write_control_characters_escaped_so_one_answer_is_one_line() -> None:
    out = io.StringIO()
    session = HubSession(out)
    session.handle('set-param name=book value="x\rpong\r\x1c\x0b\x00\x1b[2J"')
    session.close()
    text = out.getvalue()
    assert text.count("\n") == 1 and len(text.splitlines()) == 1, text
    assert text.startswith("error message=") and "\\x0dpong" in text
    assert all(" " <= c <= "~" for c in text[:-1])


@pytest.mark.parametrize("value, written", [
    ("\u0663", "'\\u0663'"),                      # Arabic-Indic three: one backslash, not two
    ("\U0001f600" * 41, "'" + "\\U0001f600" * 4 + "...'"),  # cut to whole escapes
    ("9" * 60, "'" + "9" * 40 + "...'"),
    ("\u00e9" * 40, "'" + "\\xe9" * 10 + "...'"),
])
def test_hub_error_quotes_a_bad_value_once_escaped_and_at_most_forty_characters(
        value: str, written: str) -> None:
    """The excerpt of a refused value is written between single quotes with each escape's
    backslash once (not repr's twice) and at most EXCERPT_CHARS characters before ``...``,
    however long the value's escapes make it."""
    out = io.StringIO()
    session = HubSession(out)
    session.handle(f'level time="{value}"')
    session.close()
    assert out.getvalue() == f'error message="time must be a number of seconds, not {written}"\n'


@pytest.mark.parametrize("line", ['set-param name=variant value="\u00e9"',
                                  'set-param name=variant value="it\u0430lian"',
                                  'set-param name=variant value="international+\U0001f600"',
                                  'pos pos="W' + "b" * 19 + "\u00e9" + "e" * 10 + "w" * 20 + '"'])
def test_hub_error_lines_are_printable_ascii_whatever_module_wrote_the_message(
        line: str) -> None:
    """The rules' own messages (a variant's name, a FEN's square) quote the input as it came;
    the Hub's error line escapes what is not printable ASCII."""
    out = io.StringIO()
    session = HubSession(out)
    session.handle(line)
    session.close()
    text = out.getvalue()
    assert text.startswith("error message=") and text.count("\n") == 1, text
    assert all(" " <= c <= "~" for c in text[:-1]), text
    assert "\\u0" in text or "\\xe9" in text or "\\U0001f600" in text, text


def test_hub_level_nodes_gives_the_same_move_whatever_the_machine() -> None:
    # A node budget, unlike a clock, is the same search on every run.
    lines = (f"pos pos={START_10}", "level nodes=2000", "go analyze", "quit")
    first, second = _session(*lines), _session(*lines)
    assert [i["pv"] for i in _infos(first)] == [i["pv"] for i in _infos(second)]


def test_hub_scores_a_won_position_with_its_distance_as_scan_does() -> None:
    # White (king 46, man 28) against men 19 and 23: won in 3 plies. Scan writes a win in
    # n plies as 100 - n/100 men (99.97), a loss as its negative.
    v = variant("international")
    won = parse_fen(v, "W:W28,K46:B19,23")
    result = Searcher(v).search(won, depth=6)
    assert result.score == 1_000_000 - 3
    out = _session(f"pos pos={position_string(v, won)}", "level depth=6", "go think", "quit")
    assert _infos(out)[-1]["score"] == "99.97"
    lost = apply_move(won, result.pv[0])
    out = _session(f"pos pos={position_string(v, lost)}", "level depth=6", "go analyze",
                   "quit")
    assert _infos(out)[-1]["score"] == "-99.98"
