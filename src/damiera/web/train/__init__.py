"""The rules trainer on the web site: ``/train`` and its API.

:mod:`~damiera.web.train.routes` (the page, sessions and answers),
:mod:`~damiera.web.train.strings` (questions, rule sentences, the script's words). Template
and script: ``templates/train.html``, ``static/train.js`` (served at ``/static/train/``).
Exercises come from :mod:`damiera.trainer`. Translations: ``locales/<lang>/LC_MESSAGES/
train.po``; the rules' sentences are the rules pages'.
"""
