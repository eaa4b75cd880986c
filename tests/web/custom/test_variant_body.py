"""A variant's JSON posted as a custom rule set's ``rules``: every named rule set's JSON from
``GET /api/variants`` makes the custom rule set that plays it (the same rules, the same
board and start), one field changed makes another, and what disagrees is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damiera.cli import main
from damiera.rules.variant import VARIANTS

pytestmark = pytest.mark.usefixtures("no_cookie_left")

#: Keys of a variant's JSON that name or write it, not its rules.
_NAMING = {"id", "name", "full_id", "pdn_gametype", "capture_separator"}


def _post(client: TestClient, rules: dict[str, Any], name: str = "Mine") -> Any:
    return client.post("/api/custom", json={"rules": rules, "name": name})


def _variants(client: TestClient) -> dict[str, dict[str, Any]]:
    return {v["id"]: v for v in client.get("/api/variants").json()}


@pytest.mark.parametrize("named", list(VARIANTS))
def test_every_named_rule_sets_json_posts_back_as_the_rules_it_describes(
        client: TestClient, named: str) -> None:
    described = _variants(client)[named]
    r = _post(client, described)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["same_as"]["full_id"] == named
    made = data["variant"]
    assert {k: v for k, v in made.items() if k not in _NAMING} == {
        k: v for k, v in described.items() if k not in _NAMING}
    # and the custom rule set's own JSON posts back as itself
    again = _post(client, made).json()
    assert again["id"] == data["id"] and again["variant"] == made


def test_a_named_rule_set_with_one_field_changed(client: TestClient) -> None:
    russian = _variants(client)["russian"]
    data = _post(client, {**russian, "flying_kings": False}).json()
    assert data["variant"]["flying_kings"] is False and data["same_as"] is None
    data = _post(client, {**russian, "optional_capture": True,
                          "mandatory_capture": False}).json()
    assert data["same_as"]["full_id"] == "russian+optional-capture"


@pytest.mark.parametrize(("change", "words"), [
    ({"optional_capture": True}, "the opposite of mandatory_capture"),
    ({"optional_capture": 1}, "the opposite of mandatory_capture"),
    ({"board_size": 10}, "the board's size is not board_size"),
    ({"numbering": "from-bottom-right"}, "no notation of a custom rule set"),
    ({"a1_dark": 1}, "no notation of a custom rule set"),
    ({"board": "numeric"}, "no notation of a custom rule set"),
    ({"first_to_move": "red"}, "“Who moves first” cannot be \"red\""),
    ({"start_fn": "W:Wa1:Bh8"}, "unknown rule field 'start_fn'"),
])
def test_a_variants_json_that_disagrees_with_itself_is_refused_with_the_reason(
        client: TestClient, change: dict[str, Any], words: str) -> None:
    russian = _variants(client)["russian"]
    del russian["start_fen"]  # so that a misspelt key fits the bound on keys
    r = _post(client, {**russian, **change})
    assert r.status_code == 400 and words in r.json()["error"], r.text


def test_every_entry_of_the_clis_variants_json_posts_as_the_rules_it_describes(
        client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    """`damiera variants --json` adds ``options_available`` (a list of option names): read
    and left aside, so a rule set copied from the CLI posts like one from the API."""
    assert main(["variants", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert all("options_available" in e for e in entries)
    for entry in entries:
        r = _post(client, entry)
        assert r.status_code == 200, r.text
        assert r.json()["same_as"]["full_id"] == entry["id"]
