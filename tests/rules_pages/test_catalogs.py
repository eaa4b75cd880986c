"""Every language's catalog translates every message of the site.

The reference set is a fresh Babel extraction of ``src/damiera/web`` (Python with the ``_``,
``gettext`` and ``N_`` keywords, Jinja2 templates), so a new message that some catalog lacks
fails here. Translations must be non-empty, not fuzzy, and keep the placeholders that the code
fills in (``%(name)s`` exactly; ``{name}`` fields may be left out but not invented).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from damiera.web import i18n
from damiera.web.rules_pages.refusals import REFUSALS

WEB = Path(i18n.__file__).parent
LANGUAGES = ("it", "sk", "ar", "cs", "ru", "es", "pt_BR")
_PERCENT = re.compile(r"%\((\w+)\)s")
_BRACES = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=1)
def site_messages() -> frozenset[str]:
    """Every msgid the site's code and templates use."""
    keywords = dict(DEFAULT_KEYWORDS)
    keywords["N_"] = None
    method_map = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    options = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    found: set[str] = set()
    for _fn, _line, msg, _c, _ctx in extract_from_dir(
        str(WEB), method_map=method_map, options_map=options, keywords=keywords
    ):
        found.add(msg if isinstance(msg, str) else msg[0])
    return frozenset(found)


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    """The language's ``messages.po`` with the messages of its other ``*.po`` files (one per
    part of the site, read as fallbacks by :func:`damiera.web.i18n.translations`) added."""
    folder = WEB / "locales" / lang / "LC_MESSAGES"
    with (folder / "messages.po").open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    for extra in sorted(folder.glob("*.po")):
        if extra.name == "messages.po":
            continue
        with extra.open("rb") as fp:
            for entry in read_po(fp, locale=lang):
                if entry.id and catalog.get(entry.id) is None:
                    catalog[entry.id] = entry
    return catalog


def test_extraction_finds_the_rules_pages_and_refusals() -> None:
    messages = site_messages()
    assert "Which capture you must choose" in messages
    assert set(REFUSALS) <= messages
    assert len(messages) > 200


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_translates_every_message(lang: str) -> None:
    catalog = _catalog(lang)
    problems = []
    for msgid in sorted(site_messages()):
        entry = catalog.get(msgid)
        if entry is None:
            problems.append(f"missing: {msgid!r}")
        elif not entry.string:
            problems.append(f"empty: {msgid!r}")
        elif entry.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_placeholders(lang: str) -> None:
    problems = []
    for entry in _catalog(lang):
        if not entry.id or not isinstance(entry.string, str):
            continue
        if sorted(_PERCENT.findall(entry.id)) != sorted(_PERCENT.findall(entry.string)):
            problems.append(f"%-fields differ: {entry.id!r} -> {entry.string!r}")
        allowed = set(_BRACES.findall(entry.id))
        if entry.id.startswith("error:"):
            allowed = {"square", "move", "moves", "variant", "candidates", "text", "count"}
        extra = set(_BRACES.findall(entry.string)) - allowed
        if extra:
            problems.append(f"unknown fields {extra}: {entry.id!r} -> {entry.string!r}")
    assert problems == []


def test_a_missing_translation_is_detected(tmp_path: Path) -> None:
    """The completeness check really fails when a catalog lacks a message."""
    catalog = _catalog("it")
    del catalog["Which capture you must choose"]
    missing = [m for m in site_messages() if catalog.get(m) is None]
    assert missing == ["Which capture you must choose"]
