"""Tactics puzzles on the web site: ``/puzzles`` (the next puzzle near your rating),
``/puzzles/daily``, ``/puzzles/{id}`` (a puzzle's share address) and their API.

:mod:`~damiera.web.puzzles.routes` (pages and API), :mod:`~damiera.web.puzzles.service`
(choosing, checking moves, the daily puzzle), :mod:`~damiera.web.puzzles.ratings` (Glicko-2
in the store), :mod:`~damiera.web.puzzles.strings` (the page's words). Template and script:
``templates/puzzles.html``, ``static/puzzles.js`` (served at ``/static/puzzles/``).
Translations: ``locales/<lang>/LC_MESSAGES/puzzles.po``.
"""
