"""Live events send what changed: after the whole game once, each version is a ``change``
that rebuilds the game exactly (moves, takebacks, offers, result), far smaller than the game,
serialized once per process and language however many watch."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damiera.web.live import events as live_events
from damiera.web.live.events import apply_change, change_between
from tests.web.live.conftest import ok, online_game
from tests.web.live.sse import Events, game_event

#: What a stream's game has that is the caller's own, not the game's.
OWN = ("seats", "invite_url")


def _game_of(web: httpx2.Client, gid: str, watcher: bool = False) -> dict[str, Any]:
    """The game as ``GET /api/games/{id}`` gives it, less the caller's own fields (and for
    a watcher's stream, its legal moves)."""
    data = ok(web.get(f"/api/games/{gid}"))
    return {k: [] if watcher and k == "legal_moves" else v for k, v in data.items()
            if k not in OWN}


def test_a_watcher_gets_the_game_once_then_changes_that_rebuild_it_exactly(
    browsers: Callable[[], httpx2.Client],
) -> None:
    white, black, watcher = browsers(), browsers(), browsers()
    game = online_game(white)                # International, no clock: no time in the JSON
    black.get(game["invite_url"])
    gid = game["id"]
    stream = Events(watcher, f"/api/games/{gid}/events")
    player = Events(black, f"/api/games/{gid}/events")
    for s in (stream, player):
        s.wait_for(lambda i, d: d["type"] == "game", "the whole game")
    steps: list[tuple[httpx2.Client, str, dict[str, Any] | None]] = [
        (white, "moves", {"move": "32-28"}), (black, "moves", {"move": "19-23"}),
        (white, "moves", {"move": "28x19"}), (black, "moves", {"move": "14x23"}),
        (white, "draw/offer", None), (black, "draw/decline", None),
        (black, "takeback/request", None), (white, "takeback/accept", None),
        (black, "moves", {"move": "14x23"}), (white, "moves", {"move": "37-32"}),
        (black, "name", {"name": "Zoë"}), (black, "resign", None),
    ]
    for web, action, body in steps:
        after = ok(web.post(f"/api/games/{gid}/{action}", json=body))
        _, data = stream.wait_for(game_event(after["version"]), action)
        assert data["type"] == "change", (action, data)
        assert data["game"] == _game_of(watcher, gid, watcher=True), action
        _, data = player.wait_for(game_event(after["version"]), action)
        assert data["type"] == "change" and data["game"] == _game_of(black, gid), action
    assert stream.gaps == [] and player.gaps == []
    assert [t for t, _n in stream.sizes].count("game") == 1
    whole = len(json.dumps(_game_of(watcher, gid), separators=(",", ":")).encode())
    changes = [n for t, n in stream.sizes if t == "change"]
    assert max(changes) < whole / 3, (changes, whole)     # what changed, not the game
    for s in (stream, player):
        s.close()


def test_each_change_is_serialized_once_per_language_however_many_watch(
    browsers: Callable[[], httpx2.Client], monkeypatch: pytest.MonkeyPatch,
) -> None:
    white, black = browsers(), browsers()
    game = online_game(white)
    black.get(game["invite_url"])
    gid = game["id"]
    watchers = [browsers() for _ in range(5)]
    streams = [Events(w, f"/api/games/{gid}/events" + ("?lang=it" if n % 2 else ""))
               for n, w in enumerate(watchers)]
    for s in streams:
        s.wait_for(lambda i, d: d["type"] == "game")
        s.wait_for(lambda i, d: d["live"]["watchers"] == len(streams), "every watcher")
    sizes: list[int] = []
    dumps = live_events._dumps

    def counted(data: Any) -> bytes:
        out = dumps(data)
        if isinstance(data, dict) and data.get("type") == "change":
            sizes.append(len(out))
        return out

    monkeypatch.setattr(live_events, "_dumps", counted)
    moved = ok(white.post(f"/api/games/{gid}/moves", json={"move": "32-28"}))
    seen = [s.wait_for(game_event(moved["version"]), "the move")[1] for s in streams]
    monkeypatch.undo()
    assert {d["game"]["result_sentence"] is None for d in seen} == {True}
    assert len(sizes) == 2, sizes              # one change in English, one in Italian
    for s in streams:
        assert s.gaps == []
        s.close()


#: JSON values (booleans apart: Python's ``1 == True`` would hide a change between them).
_json = st.recursive(st.none() | st.integers() | st.text(max_size=4),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8)
_games = st.dictionaries(st.sampled_from(["history", "pieces", "clock", "online", "result",
                                          "version", "legal_moves", "positions"]),
                         _json | st.dictionaries(st.text(max_size=2), _json, max_size=4),
                         max_size=8)


@settings(max_examples=300, deadline=None)
@given(_games, _games)
def test_a_change_turns_any_game_into_any_other(before: dict[str, Any],
                                               after: dict[str, Any]) -> None:
    change = change_between(before, after)
    assert apply_change(before, change) == after
    wire = json.loads(json.dumps(change))
    assert apply_change(before, wire) == after
    assert change_between(after, after) == {"set": {}, "lists": {}, "maps": {}}


def test_a_value_that_changes_type_is_sent() -> None:
    assert change_between({"a": 1, "b": [0]}, {"a": True, "b": [False]}) == {
        "set": {"a": True}, "lists": {"b": [0, [False]]}, "maps": {}}


def test_a_move_keeps_the_moves_before_it_and_sends_only_the_new_ply() -> None:
    before = {"history": ["32-28"], "version": 3, "turn": "black", "clock": None}
    after = {"history": ["32-28", "19-23"], "version": 4, "turn": "white", "clock": None}
    assert change_between(before, after) == {
        "set": {"version": 4, "turn": "white"}, "lists": {"history": [1, ["19-23"]]},
        "maps": {}}
    pieces = {"pieces": {"32": "white-man", "19": "black-man"}}
    moved = {"pieces": {"28": "white-man", "19": "black-man"}}
    assert change_between(pieces, moved)["maps"] == {
        "pieces": {"set": {"28": "white-man"}, "drop": ["32"]}}
    back = change_between(after, {**before, "version": 5})     # a takeback
    assert back["lists"] == {"history": [1, []]} and back["set"]["turn"] == "black"
