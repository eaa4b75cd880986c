"""Games between two browsers and the live boards of every game.

- :mod:`.invitations`: the invitation link that gives a game's free seat to whoever opens
  it first; :mod:`.names`: the players' display names.
- :mod:`.offers`: what two players ask of each other (draw, takeback, rematch), abort,
  the claim when the opponent has left; :mod:`.presence`: whose page is open.
- :mod:`.bus`: how an event reaches every web process (in-process, Redis pub/sub, or
  PostgreSQL LISTEN/NOTIFY); :mod:`.hub`: the event streams of one web process;
  :mod:`.routes`: the HTTP routes (``/join/{secret}``, ``/api/games/{id}/events`` and the
  players' actions).
"""
