"""Rules pages: one page per variant plus the optional-capture house rule, in every language.

Layout (content is data, independent of the web layer):

- :mod:`.diagrams`: every diagram as a position, the move it shows and the claims its caption
  makes, checked against the rules core by ``tests/rules_pages/test_diagrams.py``;
- :mod:`.comparison`: the "differences from American checkers" table, computed from the
  :class:`~damiera.rules.variant.Variant` rule parameters;
- :mod:`.content`: the pages' texts, composed from shared parameter-driven sentences plus a
  few per-variant paragraphs (introduction, strategy tips), built per language;
- :mod:`.refusals`: the ``error:<code>`` msgids that translate the rules core's refusals;
- :mod:`.routes`: ``/{lang}/rules`` and ``/{lang}/rules/{page}`` (templates
  ``rules_page.html``, ``rules_index.html``; diagrams drawn by ``static/board.js`` through
  ``static/rules.js``).

Translations live in ``damiera/web/locales/<lang>/LC_MESSAGES/messages.po``. After changing a
text, regenerate the template (command in ``web/babel.cfg``), update the catalogs with
``pybabel update`` and translate every new or fuzzy entry: ``tests/rules_pages/test_catalogs.py``
fails while any catalog lacks a message.
"""
