"""Languages of the site: choosing the locale, loading Babel catalogs, Jinja2 gettext.

Catalogs are ``locales/<lang>/LC_MESSAGES/messages.po`` beside this file (the template for
translators is ``locales/messages.pot``; regenerate it with
``pybabel extract -F src/damiera/web/babel.cfg -o src/damiera/web/locales/messages.pot src``).
They are compiled in memory when first used (and again when the ``.po`` file changes), so
there is no build step. English (``en``) is the source language: its catalog may leave
``msgstr`` empty, and a missing translation falls back to the English text.

The locale of a request comes from, in order: the URL (a ``/{lang}/...`` prefix or
``?lang=``), the ``damiera_lang`` cookie, the ``Accept-Language`` header, then English.
:func:`page_context` gives templates ``lang`` and ``dir`` for ``<html lang dir>``.

Rule refusals from the rules core carry a stable ``code`` and ``params``
(:class:`damiera.rules.notation.NotationError`); :func:`error_message` turns them into the
page's language when the catalog has a message for that code (msgid ``error:<code>``, Python
``str.format`` fields named after the params) and falls back to the core's English message.
"""

from __future__ import annotations

import contextvars
import functools
import io
import threading
from collections.abc import Mapping
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.core import negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LOCALE = "en"
COOKIE = "damiera_lang"

_lock = threading.Lock()
_cache: dict[str, tuple[float, NullTranslations]] = {}
_current: contextvars.ContextVar[str] = contextvars.ContextVar("locale", default=DEFAULT_LOCALE)


def available_locales() -> list[str]:
    """Language codes that have a catalog, English first, then alphabetical (the catalog
    folder is read once: a new language needs a restart, an edited catalog does not)."""
    return list(_locales_in(LOCALES_DIR))


@functools.lru_cache(maxsize=4)
def _locales_in(folder: Path) -> tuple[str, ...]:
    found = {p.parent.parent.name for p in folder.glob("*/LC_MESSAGES/messages.po")}
    found.add(DEFAULT_LOCALE)
    return (DEFAULT_LOCALE, *sorted(found - {DEFAULT_LOCALE}))


def language_name(code: str) -> str:
    """The language's own name for itself, e.g. ``"italiano"``, ``"العربية"``."""
    try:
        return Locale.parse(code).get_display_name(code) or code
    except (UnknownLocaleError, ValueError):
        return code


def text_direction(code: str) -> str:
    """``"rtl"`` or ``"ltr"`` for a language code."""
    try:
        return "rtl" if Locale.parse(code).text_direction == "rtl" else "ltr"
    except (UnknownLocaleError, ValueError):
        return "ltr"


def translations(code: str) -> NullTranslations:
    """Compiled catalog of a language (NullTranslations for English without a catalog).

    Besides ``messages.po``, every other ``*.po`` of the language's folder (one per part of
    the site, e.g. ``analysis.po``) is read as a fallback for the messages it has."""
    folder = LOCALES_DIR / code / "LC_MESSAGES"
    po = folder / "messages.po"
    extra = sorted(p for p in folder.glob("*.po") if p.name != "messages.po")
    try:
        mtime = max(p.stat().st_mtime for p in [po, *extra])
    except OSError:
        return NullTranslations()
    with _lock:
        cached = _cache.get(str(po))
        if cached is not None and cached[0] == mtime:
            return cached[1]
        compiled = _compile(po, code)
        for path in extra:
            compiled.add_fallback(_compile(path, code))
        _cache[str(po)] = (mtime, compiled)
        return compiled


def _compile(po: Path, code: str) -> Translations:
    with po.open("rb") as fp:
        catalog = read_po(fp, locale=code)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer)
#: Accept-Language is read up to this many characters and this many tags (a browser sends
#: a handful); the rest is ignored, so a huge header costs no more than a normal one.
MAX_ACCEPT_LANGUAGE = 1024
MAX_LANGUAGE_TAGS = 32


def _normalise(code: str | None) -> str | None:
    if not code or len(code) > 35:   # BCP 47 tags are at most 35 characters in practice
        return None
    return _negotiate([code])


def _negotiate(tags: list[str]) -> str | None:
    """The first of ``tags`` the site has a catalog for (Babel's negotiation: the exact
    locale, else its language), spelt as the catalog is (``pt-br`` -> ``pt_BR``)."""
    by_lower = {c.lower(): c for c in available_locales()}
    found = negotiate_locale(
        [t.strip().replace("-", "_") for t in tags], list(by_lower), aliases={}
    )
    return by_lower.get(found.lower()) if found else None


def known_locale(code: str | None) -> str | None:
    """The catalog code for a language code or tag (``pt-BR`` -> ``pt_BR``, ``it-IT`` ->
    ``it``), or None when the site has no such language."""
    return _normalise(code)


def parse_accept_language(header: str | None) -> list[str]:
    """Language tags of an ``Accept-Language`` header, most wanted first.

    Linear in the header and bounded: only the first :data:`MAX_ACCEPT_LANGUAGE` characters
    and :data:`MAX_LANGUAGE_TAGS` tags are read."""
    if not header:
        return []
    weighted: list[tuple[float, int, str]] = []
    parts = header[:MAX_ACCEPT_LANGUAGE].split(",", MAX_LANGUAGE_TAGS)[:MAX_LANGUAGE_TAGS]
    for i, part in enumerate(parts):
        pieces = part.strip().split(";")
        tag = pieces[0].strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        for p in pieces[1:]:
            p = p.strip()
            if p.startswith("q="):
                try:
                    q = float(p[2:8])
                except ValueError:
                    q = 0.0
        if q > 0:
            weighted.append((-q, i, tag))
    return [tag for _, _, tag in sorted(weighted)]


def choose_locale(
    url_lang: str | None = None,
    cookie: str | None = None,
    accept_language: str | None = None,
) -> str:
    """The locale of a request: URL, then cookie, then Accept-Language (Babel's
    :func:`~babel.core.negotiate_locale` over the site's catalogs: ``it-IT`` -> ``it``), then
    English."""
    for candidate in (url_lang, cookie):
        found = _normalise(candidate)
        if found:
            return found
    return _negotiate(parse_accept_language(accept_language)) or DEFAULT_LOCALE


def set_locale(code: str) -> None:
    """Make ``code`` the language of :func:`gettext` in this request (context variable)."""
    _current.set(code)


def current_locale() -> str:
    """The language code of the current request (``"en"`` outside a request)."""
    return _current.get()


def gettext(message: str) -> str:
    """Translate ``message`` into the current request's language."""
    return translations(_current.get()).ugettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Plural-aware translation in the current request's language."""
    return translations(_current.get()).ungettext(singular, plural, n)


_ = gettext


def error_message(code: str, params: Mapping[str, str], english: str) -> str:
    """A rule refusal in the current language (msgid ``error:<code>``), else ``english``."""
    msgid = f"error:{code}"
    text = gettext(msgid)
    if text == msgid:
        return english
    # The variant's name is a catalog message too (e.g. "Italian draughts").
    fields = {k: gettext(v) if k == "variant" else v for k, v in params.items()}
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError):
        return english


def page_context(code: str) -> dict[str, object]:
    """Template variables for a page in language ``code``: ``lang``, ``dir``, ``languages``
    (list of ``(code, own name)``)."""
    return {
        "lang": code,
        "dir": text_direction(code),
        "languages": [(c, language_name(c)) for c in available_locales()],
    }
