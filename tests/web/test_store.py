"""The game store: a round trip of every field, errors, the default URL ("my games":
tests/web/test_my_games_query.py)."""

from __future__ import annotations

from datetime import UTC

import pytest

from damiera.web.store import GameStore, NotFoundError, StoredGame, default_database_url


def _game(game_id: str, owner: str | None = "me") -> StoredGame:
    return StoredGame(id=game_id, variant="russian", optional_capture=True, opponent="computer",
                      level=2, side="black", start_fen="W:Wc3:Bd6", owner=owner)


def test_round_trip_keeps_every_field(tmp_db: str):
    store = GameStore(tmp_db)
    made = store.create(_game("a"))
    made.moves = ["c3-d4"]
    made.result_winner, made.result_reason = "white", "resignation"
    store.save(made)
    back = store.load("a")
    assert (back.variant, back.optional_capture, back.opponent, back.level, back.side,
            back.start_fen, back.moves, back.result_winner, back.result_reason, back.owner) == (
        "russian", True, "computer", 2, "black", "W:Wc3:Bd6", ["c3-d4"], "white",
        "resignation", "me")
    assert back.created_at.tzinfo is UTC and back.updated_at >= back.created_at
    assert back.version == made.version + 1


def test_unknown_game_raises_not_found(tmp_db: str):
    store = GameStore(tmp_db)
    with pytest.raises(NotFoundError):
        store.load("missing")
    with pytest.raises(NotFoundError):
        store.save(_game("missing"))


def test_default_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DAMIERA_DATABASE_URL", "postgresql://db/damiera")
    assert default_database_url() == "postgresql://db/damiera"
    monkeypatch.delenv("DAMIERA_DATABASE_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path}/damiera/damiera.sqlite3"


def test_sqlite_file_folder_is_created(tmp_path):  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path}/deep/er/games.sqlite3"
    GameStore(url).create(_game("x"))
    assert (tmp_path / "deep" / "er" / "games.sqlite3").exists()


def test_a_periodic_task_is_claimed_by_one_of_several_processes_per_round(tmp_db: str):
    """Two stores on one database (two web processes): each round of a periodic task goes to
    exactly one of them, the first caller; the next round only once it is due."""
    from datetime import datetime, timedelta

    from sqlalchemy import update

    from damiera.web.store_tables import TaskRow

    one, two = GameStore(tmp_db), GameStore(tmp_db)
    try:
        assert one.claim_task("clean-up", 3600) is True
        assert two.claim_task("clean-up", 3600) is False
        assert one.claim_task("clean-up", 3600) is False
        assert two.claim_task("other", 3600) is True       # tasks are claimed apart
        with one.engine.begin() as conn:                  # the round is due again
            conn.execute(update(TaskRow).values(
                due_at=datetime.now(UTC) - timedelta(seconds=1)))
        assert [two.claim_task("clean-up", 3600), one.claim_task("clean-up", 3600)] == [
            True, False]
    finally:
        one.close()
        two.close()


def test_the_pending_computer_move_round_trips(tmp_db: str):
    from datetime import datetime

    store = GameStore(tmp_db)
    try:
        saved = store.create(_game("p1"))
        assert saved.computer_job is None and saved.computer_asked_at is None
        saved.computer_job, saved.computer_asked_at = "job-1", datetime.now(UTC)
        again = store.save(saved)
        loaded = store.load("p1")
        assert loaded.computer_job == "job-1" and loaded.version == again.version
        assert loaded.computer_asked_at == saved.computer_asked_at
    finally:
        store.close()
