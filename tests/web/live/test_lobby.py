"""The lobby: open challenges listed, accepted by the first client only (three clients
racing), cancelled, bounded per client; its event stream."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx2

from tests.web.live.conftest import TEST_LIVE, ok
from tests.web.live.sse import Events


def _lobby(web: httpx2.Client) -> Events:
    """``web``'s lobby page open (its challenges last while it is)."""
    stream = Events(web, "/api/challenges/events")
    stream.wait_for(lambda i, d: d["type"] == "list", "the lobby's list")
    return stream


def _challenge(web: httpx2.Client, **options: object) -> dict[str, Any]:
    body = {"variant": "italian", "clock": "5+3", "side": "white", **options}
    return ok(web.post("/api/challenges", json=body))


def test_three_clients_race_to_accept_one_challenge_and_exactly_one_gets_the_seat(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker = browsers()
    racers = [browsers() for _ in range(3)]
    lobby = _lobby(maker)           # the maker waits in the lobby: its challenge stays open
    challenge = _challenge(maker, name="Maker")
    assert challenge["mine"] is True and challenge["expires_in_s"] == TEST_LIVE.challenge_ttl
    start = threading.Barrier(len(racers))
    answers: list[httpx2.Response] = []
    lock = threading.Lock()

    def accept(web: httpx2.Client) -> None:
        start.wait()
        r = web.post(f"/api/challenges/{challenge['id']}/accept", json={"name": "Racer"})
        with lock:
            answers.append(r)

    threads = [threading.Thread(target=accept, args=(w,)) for w in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409, 409], [r.text for r in answers]
    won = next(r for r in answers if r.status_code == 200).json()
    assert won["seats"] == ["black"] and won["online"]["ready"]
    assert won["online"]["names"] == {"white": "Maker", "black": "Racer"}
    assert won["clock"]["label"] == "5+3" and won["clock"]["running"] is None  # first moves
    lost = next(r for r in answers if r.status_code == 409).json()["error"]
    assert "no longer open" in lost
    assert ok(maker.get(f"/api/games/{won['id']}"))["seats"] == ["white"]
    seated = [ok(w.get(f"/api/games/{won['id']}"))["seats"] for w in racers]
    assert sorted(map(tuple, seated)) == [(), (), ("black",)]
    assert challenge["id"] not in [c["id"] for c in maker.get("/api/challenges").json()]
    lobby.close()


def test_a_challenge_is_listed_cancelled_by_its_maker_only_and_bounded_per_client(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, other = browsers(), browsers()
    lobby = _lobby(maker)
    made = [_challenge(maker, side="random") for _ in range(TEST_LIVE.challenges_per_client)]
    answer = other.get("/api/challenges")
    assert answer.status_code == 200
    listed = {c["id"]: c for c in answer.json()}
    assert all(c["id"] in listed and not listed[c["id"]]["mine"] for c in made)
    assert listed[made[0]["id"]]["side"] == "random"
    # the per-client limit counts the address (every test client is 127.0.0.1)
    refused = other.post("/api/challenges", json={"variant": "italian"})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert other.delete(f"/api/challenges/{made[0]['id']}").status_code == 403
    for c in made:
        assert maker.delete(f"/api/challenges/{c['id']}").status_code == 204
    assert maker.delete(f"/api/challenges/{made[0]['id']}").status_code == 409
    assert other.post(f"/api/challenges/{made[1]['id']}/accept").status_code == 409
    assert other.post("/api/challenges/nope/accept").status_code == 404
    lobby.close()


def test_bad_challenges_are_refused_with_a_reason(browsers: Callable[[], httpx2.Client]) -> None:
    web = browsers()
    for body, word in (({"variant": "chess"}, "variant"), ({"variant": "italian",
                       "clock": "0+0"}, "clock"), ({"variant": "italian", "name": "\x00"},
                       "name"), ({"variant": "international", "optional_capture": True},
                       "optional")):
        r = web.post("/api/challenges", json=body)
        assert r.status_code in (400, 422) and word in r.json()["error"].lower(), r.text


def test_the_lobby_stream_tells_of_new_and_taken_challenges(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, taker = browsers(), browsers()
    stream = Events(maker, "/api/challenges/events")
    stream.wait_for(lambda i, d: d["type"] == "list", "the list")
    made = _challenge(maker, variant="russian", clock=None)
    stream.wait_for(lambda i, d: d["type"] == "created" and d["challenge"]["id"] == made["id"]
                    and d["challenge"]["clock"] is None, "the new challenge")
    game = ok(taker.post(f"/api/challenges/{made['id']}/accept"))
    stream.wait_for(lambda i, d: d["type"] == "removed" and d["id"] == made["id"]
                    and d["game_id"] == game["id"], "the taken challenge and its game")
    stream.close()
    page = maker.get("/lobby")
    assert page.status_code == 200 and 'id="lobby"' in page.text


def test_the_creator_away_from_the_lobby_finds_the_game_its_challenge_became(
    browsers: Callable[[], httpx2.Client],
) -> None:
    """The creator left the lobby (within the grace period) and missed the one-off
    ``removed`` event: its games list the game (before any move), its clock waits for the
    players' first moves, and the lobby's list, opened again, names the game its challenge became."""
    maker, taker = browsers(), browsers()
    lobby = _lobby(maker)
    made = _challenge(maker, side="black", name="Maker")
    lobby.close()                                   # off to read the rules, say
    game = ok(taker.post(f"/api/challenges/{made['id']}/accept", json={"name": "Taker"}))
    mine = {g["id"] for g in maker.get("/api/games").json()}
    assert game["id"] in mine and game["id"] in maker.get("/games").text
    seen = ok(maker.get(f"/api/games/{game['id']}"))
    assert seen["seats"] == ["black"] and seen["clock"]["running"] is None
    back = _lobby(maker)
    _, listed = back.wait_for(lambda i, d: d["type"] == "list")
    assert listed["accepted"] == [{"id": made["id"], "game_id": game["id"]}]
    _, theirs = _lobby(taker).wait_for(lambda i, d: d["type"] == "list")
    assert theirs["accepted"] == []                 # the acceptor went there itself
    back.close()


def test_a_challenge_carries_its_goal_option_into_the_game_it_becomes(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, taker = browsers(), browsers()
    lobby = _lobby(maker)
    made = _challenge(maker, variant="russian", losing=True)
    assert (made["variant"], made["full_id"], made["losing"]) == ("russian", "russian+losing",
                                                                   True)
    listed = {c["id"]: c for c in taker.get("/api/challenges").json()}
    assert listed[made["id"]]["full_id"] == "russian+losing"
    game = ok(taker.post(f"/api/challenges/{made['id']}/accept", json={}))
    assert (game["full_id"], game["losing"]) == ("russian+losing", True)
    assert maker.post("/api/challenges", json={"variant": "russian", "losing": True,
                                               "breakthrough": True}).status_code == 400
    lobby.close()


def test_a_challenge_of_a_custom_rule_set_carries_its_name_and_rules(
    browsers: Callable[[], httpx2.Client],
) -> None:
    maker, taker = browsers(), browsers()
    lobby = _lobby(maker)
    custom = "custom:1000110001000001:Klub"
    made = _challenge(maker, variant=custom)
    assert (made["variant"], made["full_id"], made["variant_name"]) == (custom, custom, "Klub")
    assert "variant_name" not in _challenge(maker, variant="russian")
    game = ok(taker.post(f"/api/challenges/{made['id']}/accept", json={}))
    assert game["full_id"] == custom
    lobby.close()
