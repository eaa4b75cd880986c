"""The rules trainer's API: sessions of ten exercises, answers judged by the server with the
rules core's reason in the request's language, bad input refused with 400."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.rules.geometry import geometry
from damiera.rules.variant import variant
from damiera.trainer.pool import find

pytestmark = pytest.mark.usefixtures("no_cookie_left")


def _session(client: TestClient, vid: str, **extra: str) -> list[dict[str, Any]]:
    r = client.get("/api/train/session", params={"variant": vid, **extra})
    assert r.status_code == 200, r.text
    exercises: list[dict[str, Any]] = r.json()["exercises"]
    return exercises


def right_answer(vid: str, ex: dict[str, Any], optional: bool = False) -> dict[str, Any]:
    """The right answer to an exercise, from the rules core (as a test knows it)."""
    v = variant(vid, optional_capture=optional)
    e = find(v, ex["id"])
    geo = geometry(v)
    truth = e.answer()
    if ex["kind"] in ("capture", "promotion"):
        move = next(m for m in ex["moves"]
                    if (geo.square(m["from"]), geo.square(m["to"]),
                        sum(1 << geo.square(c) for c in m["captures"])) in truth)  # type: ignore[operator]
        return {"path": move["path"]}
    if ex["kind"] == "destinations":
        return {"squares": [geo.label(s) for s in truth]}  # type: ignore[attr-defined]
    if ex["kind"] == "legal":
        return {"legal": truth}
    return {"winner": truth}


def wrong_answer(vid: str, ex: dict[str, Any]) -> dict[str, Any] | None:
    right = right_answer(vid, ex)
    if "legal" in right:
        return {"legal": not right["legal"]}
    if "winner" in right:
        return {"winner": "none" if right["winner"] != "none" else "white"}
    if "squares" in right:
        if right["squares"]:
            return {"squares": right["squares"][1:]}
        labels = [geometry(variant(vid)).label(q) for q in geometry(variant(vid)).squares]
        other = next(label for label in labels if label != ex["focus"])
        return {"squares": [other]}
    v = variant(vid)
    e = find(v, ex["id"])
    geo = geometry(v)
    keys = e.answer()
    for m in ex["moves"]:
        key = (geo.square(m["from"]), geo.square(m["to"]),
               sum(1 << geo.square(c) for c in m["captures"]))
        if key not in keys:  # type: ignore[operator]
            return {"path": m["path"]}
    return None


def test_a_session_has_ten_exercises_with_questions_in_the_page_language(
        client: TestClient) -> None:
    exercises = _session(client, "italian", lang="it")
    assert len(exercises) == 10
    for ex in exercises:
        assert set(ex) >= {"id", "kind", "rule", "rule_name", "question", "fen", "turn",
                           "pieces", "moves", "focus"}
        if ex["kind"] in ("capture", "promotion"):
            assert ex["moves"] and all(m["paths"] for m in ex["moves"])
    assert any("Gioca" in ex["question"] or "?" in ex["question"] for ex in exercises)


def test_right_and_wrong_answers_are_judged_with_the_rule_and_the_reason(
        client: TestClient) -> None:
    exercises = _session(client, "czech")
    wrong_seen = False
    for ex in exercises:
        body = {"variant": "czech", "exercise": ex["id"], **right_answer("czech", ex)}
        r = client.post("/api/train/answer", json=body, params={"lang": "cs"})
        assert r.status_code == 200, r.text
        assert r.json()["correct"] is True and r.json()["rule"]
        wrong = wrong_answer("czech", ex)
        if wrong is None:
            continue
        r = client.post("/api/train/answer", json={"variant": "czech", "exercise": ex["id"],
                                                    **wrong}, params={"lang": "cs"})
        answer = r.json()
        assert answer["correct"] is False, (ex["kind"], ex["id"], wrong, answer)
        if "path" in wrong:
            assert answer["reason"] and answer["code"]     # the rules core's refusal
            wrong_seen = True
    assert wrong_seen or not any(e["kind"] in ("capture", "promotion") for e in exercises)


def test_an_italian_man_taking_a_king_is_refused_with_its_reason(client: TestClient) -> None:
    from damiera.trainer.pool import catalogue

    italian = variant("italian")
    e = next(x for x in catalogue(italian)
             if x.param == "men_capture_kings" and x.kind == "capture")
    geo = geometry(italian)
    contrast_only = [m for m in e.candidates() if m.captured_kings and not m.by_king
                     and (m.start, m.end, m.captured) not in e.answer()]  # type: ignore[operator]
    assert contrast_only
    path = [geo.label(s) for s in contrast_only[0].path]
    r = client.post("/api/train/answer", params={"lang": "it"},
                    json={"variant": "italian", "exercise": e.id, "path": path})
    assert r.json()["correct"] is False
    assert r.json()["code"] == "man_takes_king"
    assert r.json()["reason"] == "Una pedina non può prendere una dama"


def test_bad_requests_are_refused_with_an_error(client: TestClient) -> None:
    r = client.get("/api/train/session", params={"variant": "nope"})
    assert r.status_code == 400 and "unknown variant" in r.json()["error"]
    r = client.get("/api/train/session",
                   params={"variant": "international", "optional_capture": "true"})
    assert r.status_code == 400
    ex = _session(client, "russian")[0]
    for body in ({"variant": "russian", "exercise": "capture:99999:flying_kings:"},
                 {"variant": "russian", "exercise": "nonsense"},
                 {"variant": "russian", "exercise": ex["id"], "path": ["z9", "a1"]},
                 {"variant": "russian", "exercise": ex["id"]}):
        r = client.post("/api/train/answer", json=body)
        assert r.status_code == 400 and r.json()["error"], body
    r = client.post("/api/train/answer", json={"variant": "russian", "exercise": "x" * 500})
    assert r.status_code == 422


def test_the_house_rule_has_its_own_exercises(client: TestClient) -> None:
    exercises = _session(client, "spanish", optional_capture="true")
    assert len(exercises) == 10
    assert "mandatory_capture" in {e["rule"] for e in exercises} or exercises
    ex = exercises[0]
    body = {"variant": "spanish", "optional_capture": True, "exercise": ex["id"],
            **right_answer("spanish", ex, optional=True)}
    assert client.post("/api/train/answer", json=body).json()["correct"] is True


def test_the_trainer_page_is_translated_and_in_the_menu(client: TestClient) -> None:
    r = client.get("/train", params={"lang": "ar", "variant": "czech"})
    assert r.status_code == 200
    assert 'dir="rtl"' in r.text and "مدرّب القواعد" in r.text
    assert 'href="/train"' in r.text and 'href="/puzzles"' in r.text
    assert client.get("/static/train/train.js").status_code == 200



def test_trainer_and_puzzles_take_a_variant_id_as_long_as_games_do(client: TestClient) -> None:
    # A custom rule set's id grows with its name: 43 characters here; games, challenges and
    # the analysis board take ids up to MAX_VARIANT_ID, and so must the trainer and puzzles.
    from damiera.web.store_tables import MAX_VARIANT_ID

    vid = "custom:1110100012:Our village club rules 24"
    assert variant(vid).id == vid and len(vid) == 43
    for path in ("/train", "/api/train/session", "/puzzles", "/puzzles/daily",
                 "/api/puzzles/next", "/api/puzzles/daily"):
        r = client.get(path, params={"variant": vid})
        assert r.status_code == 200, (path, r.text[:200])
        r = client.get(path, params={"variant": "x" * (MAX_VARIANT_ID + 1)})
        assert r.status_code == 422, path
    assert client.get("/api/train/session", params={"variant": vid}).json()["variant"] == vid
    r = client.post("/api/train/answer", json={"variant": vid, "exercise": "nonsense"})
    assert r.status_code == 400
