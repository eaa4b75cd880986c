"""The analysis board, position editor and game review of the web site.

:mod:`~damiera.web.analysis.routes` (the page and its API), :mod:`~damiera.web.analysis.workers`
(searches in worker processes that can be ended at once), :mod:`~damiera.web.analysis.strings`
(the page's script strings). Translations: ``locales/<lang>/LC_MESSAGES/analysis.po``.
"""
