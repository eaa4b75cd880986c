"""Display names that cannot pass for nothing or for the page's own words: invisible
fillers, names of combining marks alone or stacked past a few on one letter, and names that
are the page's labels ("White · You", "You", in any of the site's languages) are refused;
names in every script, with their accents, pass."""

from __future__ import annotations

from collections.abc import Callable

import httpx2
import pytest

from damiera.web.live.names import MAX_MARKS, check_name
from tests.web.live.conftest import ok, online_game


@pytest.mark.parametrize("name", [
    "Anna", "Zoë", "José María", "Đặng Thị Hương", "Мария", "Jiří", "محمد", "مُحَمَّد",
    "हिन्दी", "ไทย", "김민준", "李小龙", "R2D2", "7", "Ann-Marie O'Neil", "Anna 😀",
    "Whitey", "You2", "Your friend",
])
def test_names_in_every_script_with_their_accents_pass(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(("name", "why"), [
    ("\u3164", "letter or digit"),                  # Hangul filler: a blank "letter"
    ("\u3164\u3164\u3164", "letter or digit"),
    ("a\u3164b", "invisible"),
    ("\uffa0", "letter or digit"),
    ("\u115f\u1160", "letter or digit"),
    ("\u2800", "letter or digit"),                  # Braille blank
    ("\u0336\u0337\u0338", "letter or digit"),      # combining marks alone
    ("Z" + "\u0336\u0337\u0338" * 7, "marks"),      # a zalgo stack
    ("a" + "\u0336" * (MAX_MARKS + 1), "marks"),
    ("!!!", "letter or digit"),
    ("White · You", "·"),
    ("Black\u2022You", "between a side and its player"),
    ("You", "page's own"),
    ("white", "page's own"),
    ("  YOU  ", "page's own"),
    ("Player", "page's own"),
    ("You are watching", "page's own"),
    ("Bianco", "page's own"),                        # Italian "White"
    ("Чёрные", "page's own"),                        # Russian "Black"
    ("أنت", "page's own"),                           # Arabic "You"
    ("Ｗｈｉｔｅ", "page's own"),                      # full-width letters
])
def test_invisible_stacked_or_label_names_are_refused(name: str, why: str) -> None:
    with pytest.raises(ValueError) as refused:
        check_name(name)
    assert why in str(refused.value)


def test_the_api_refuses_them_with_the_reason(browsers: Callable[[], httpx2.Client]) -> None:
    alice, bob = browsers(), browsers()
    game = online_game(alice, name="Anna")
    bob.get(game["invite_url"])
    for bad in ("\u3164", "White · You", "Z" + "\u0336" * 20):
        r = bob.post(f"/api/games/{game['id']}/name", json={"name": bad})
        assert r.status_code == 400 and "name" in r.json()["error"], (bad, r.text)
    assert ok(bob.get(f"/api/games/{game['id']}"))["online"]["names"]["black"] is None
