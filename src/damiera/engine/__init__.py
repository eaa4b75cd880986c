"""The computer opponent: search (:mod:`.search`), evaluation (:mod:`.evaluate`), playing
levels (:mod:`.levels`), engine matches (:mod:`.match`), the CLI commands (:mod:`.cli`) and
the public front :class:`Engine` / :class:`Limit` (:mod:`.front`).

The engine is a client of :mod:`damiera.rules`: it asks the rules core for legal moves and
adds only search and evaluation.
"""

from damiera.engine.front import Analysis, Engine, Info, Limit, PlayResult

__all__ = ["Analysis", "Engine", "Info", "Limit", "PlayResult"]
