"""The lobby: open challenges anyone may accept (:mod:`.challenges`), their routes and the
``/lobby`` page (:mod:`.routes`)."""
