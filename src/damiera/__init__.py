"""Damiera: multi-variant draughts (rules core, engine, web site).

The rules core, the search and the evaluation run in the native extension
:mod:`damiera._core` (C sources in ``csrc/``), compiled by ``pip install``.
"""
