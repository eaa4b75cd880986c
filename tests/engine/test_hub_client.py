"""The Hub client against real engine processes: our own ``damiera hub``, and small scripted
engines that misbehave (die, hang, refuse the variant, play an illegal move).

Waits are bounded by the client's own timeouts (a hung engine makes the test fail, never
hang); nothing is asserted on speed.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from damiera.cli import main
from damiera.engine import match_game
from damiera.engine.hub_client import HubClient, HubClientError
from damiera.engine.match import check_player, run_match
from damiera.rules.game import Game
from damiera.rules.movegen import generate
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import variant

OUR_HUB = [sys.executable, "-m", "damiera", "hub"]


def test_handshake_and_a_move_at_fixed_depth_from_our_engine() -> None:
    v = variant("international")
    with HubClient(OUR_HUB, v) as engine:
        assert engine.id["name"] == "Damiera"
        assert "variant" in engine.params and "normal" in engine.params["variant"]["values"]
        result = engine.play(start_position(v), depth=2)
        assert result.move in generate(v, start_position(v))
        assert [info["depth"] for info in result.infos] == ["1", "2"]
        assert result.score is not None
        engine.ping()


def test_a_game_against_our_engine_on_8x8_with_reversible_moves_sent_as_moves() -> None:
    # Russian kings only, so every move is reversible: pos carries a moves="..." list.
    v = variant("russian")
    game = Game(v, parse_fen(v, "W:WKa1,Kc1:BKh8,Kf8"))
    with HubClient(OUR_HUB, v) as engine:
        for _ in range(6):
            result = engine.play(game.positions[0], game.moves, movetime=0.05)
            assert result.move in generate(v, game.position)
            game.play(result.move)
    assert len(game.moves) == 6


def test_analyse_stops_an_infinite_analysis_and_returns_its_lines() -> None:
    v = variant("italian")
    with HubClient(OUR_HUB, v) as engine:
        result = engine.analyse(start_position(v), movetime=0.5)
    assert result.move in generate(v, start_position(v))
    assert result.infos and result.infos[-1]["pv"].split()[0]


def _fake_engine(tmp_path: Path, body: str) -> list[str]:
    """A scripted engine: the handshake, then ``body`` (Python) for each line after init."""
    script = tmp_path / "fake_engine.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    cmd = line.split()[0] if line.split() else ''\n"
        "    if cmd == 'hub':\n"
        "        print('id name=Fake', flush=True)\n"
        "        print('param name=variant value=normal type=enum values=\"normal killer\"',"
        " flush=True)\n"
        "        print('wait', flush=True)\n"
        "    elif cmd == 'init':\n"
        "        print('ready', flush=True)\n"
        "    elif cmd == 'quit':\n"
        "        break\n"
        "    else:\n"
        + "".join(f"        {row}\n" for row in body.splitlines())
    )
    return [sys.executable, str(script)]


def test_an_engine_that_does_not_play_the_variant_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HubClientError, match="does not play Russian draughts: it offers normal"):
        HubClient(_fake_engine(tmp_path, "pass"), variant("russian"))


def test_an_engine_that_dies_mid_search_gives_its_exit_status_and_last_words(
        tmp_path: Path) -> None:
    cmd = _fake_engine(tmp_path, "if cmd == 'go':\n"
                                 "    print('out of memory', file=sys.stderr, flush=True)\n"
                                 "    sys.exit(3)")
    v = variant("international")
    with HubClient(cmd, v) as engine, pytest.raises(
            HubClientError, match=r"has exited \(exit status 3\); it said: out of memory"):
        engine.play(start_position(v), movetime=0.1)


def test_an_engine_that_never_answers_is_stopped_then_given_up(tmp_path: Path) -> None:
    cmd = _fake_engine(tmp_path, "pass")  # ignores go and stop alike
    v = variant("international")
    with HubClient(cmd, v) as engine:
        # The start had the default time (a busy machine may take seconds to start Python);
        # the search gets half a second past its own.
        engine.timeout = 0.5
        with pytest.raises(HubClientError, match="sent no done in time"):
            engine.play(start_position(v), movetime=0.1)


def test_an_illegal_move_from_the_engine_is_an_error(tmp_path: Path) -> None:
    cmd = _fake_engine(tmp_path, "if cmd == 'go':\n    print('done move=31-22', flush=True)")
    v = variant("international")
    with HubClient(cmd, v) as engine, pytest.raises(
            HubClientError, match="played 31-22 is not a legal move"):
        engine.play(start_position(v), movetime=0.1)


def test_a_missing_engine_cannot_be_started(tmp_path: Path) -> None:
    with pytest.raises(HubClientError, match="cannot start engine"):
        HubClient(str(tmp_path / "no-such-engine"), variant("international"))


def test_match_against_our_engine_as_a_hub_player(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_game, "MAX_GAME_PLIES", 30)  # two short games, then adjudicated
    hub = "hub:" + shlex.join(OUR_HUB)
    assert check_player(hub) == hub
    result, records = run_match(variant("russian"), "random", hub, 2, movetime=0.02)
    assert result.games == 2 and len(records) == 2
    assert {records[0].black, records[1].white} == {hub}
    assert all(r.plies > 0 for r in records)


def test_match_cli_stops_with_status_1_when_a_hub_engine_cannot_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # An engine that cannot start is a failed engine (status 1, as one that dies), not bad
    # input; a hub: without a command and a bad --games still are (status 2).
    for second in (f"hub:{tmp_path / 'nothing'}", "hub:/nonexistent/engine hub"):
        code = main(["match", "russian", "--first", "1", "--second", second, "--games", "2",
                     "--quiet"])
        assert code == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "no executable engine" in err[0]
    assert main(["match", "russian", "--first", "1", "--second", "hub:", "--games", "2"]) == 2
    assert "needs an engine command" in capsys.readouterr().err
    assert main(["match", "russian", "--first", "1", "--second", "hub:/nonexistent/engine",
                 "--games", "0"]) == 2
    assert "games must be between" in capsys.readouterr().err


def test_match_cli_with_a_hub_engine_prints_the_result(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_game, "MAX_GAME_PLIES", 20)
    code = main(["match", "italian", "--first", "random", "--second",
                 "hub:" + shlex.join(OUR_HUB), "--games", "1", "--movetime", "0.02",
                 "--quiet", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["games"] == 1 and data["second"].startswith("hub:")


def test_an_engine_slow_to_quit_is_killed_when_ctrl_c_interrupts_the_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match stopped by Ctrl-C while ``close`` waits for an engine that ignores ``quit``
    must not leave the engine running (it was left behind, its parent gone)."""
    script = tmp_path / "stubborn_engine.py"
    script.write_text(
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    cmd = line.split()[0] if line.split() else ''\n"
        "    if cmd == 'hub':\n"
        "        print('id name=Stubborn', flush=True)\n"
        "        print('wait', flush=True)\n"
        "    elif cmd == 'init':\n"
        "        print('ready', flush=True)\n"
        "    elif cmd == 'quit':\n"
        "        time.sleep(60)\n"
    )
    engine = HubClient([sys.executable, str(script)], variant("international"))
    proc = engine._proc
    real_wait = proc.wait
    waits: list[float | None] = []

    def interrupted(timeout: float | None = None) -> int:
        waits.append(timeout)
        if len(waits) == 1:  # Ctrl-C arrives during the wait for the engine to quit
            raise KeyboardInterrupt
        return real_wait(timeout)

    monkeypatch.setattr(proc, "wait", interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.close()
        assert proc.poll() is not None, "the engine is still running"
    finally:
        if proc.poll() is None:
            proc.kill()
            real_wait()


@pytest.mark.parametrize("start", ["constructor", "offered_variants"])
def test_a_stop_between_the_engine_start_and_its_cleanup_kills_the_engine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    """A SIGTERM in a match worker raises SystemExit wherever it lands: one that came after
    the engine's process had started, before the client had made its cleanup sure (here:
    while the threads that read it were made), left the engine running."""
    script = tmp_path / "sleeping_engine.py"
    script.write_text("import time\ntime.sleep(120)\n")  # ignores quit: must be killed
    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        proc = real_popen(*args, **kwargs)
        started.append(proc)
        return proc

    def stopped(*args: Any, **kwargs: Any) -> threading.Thread:
        raise SystemExit(143)  # as the match worker's SIGTERM handler raises it

    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(threading, "Thread", stopped)
    command = [sys.executable, str(script)]
    try:
        with pytest.raises(SystemExit):
            if start == "constructor":
                HubClient(command, variant("international"))
            else:
                HubClient.offered_variants(command)
        monkeypatch.undo()
        (proc,) = started
        assert proc.poll() is not None, "the engine is still running"
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
