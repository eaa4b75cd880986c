"""The computer opponent: search (:mod:`.search`), evaluation (:mod:`.evaluate`), playing
levels (:mod:`.levels`), engine matches (:mod:`.match`) and the CLI commands (:mod:`.cli`).

The engine is a client of :mod:`damiera.rules`: it asks the rules core for legal moves and
adds only search and evaluation.
"""
