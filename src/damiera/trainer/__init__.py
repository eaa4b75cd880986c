"""The rules trainer: short exercises whose answer one rule of the rule set decides.

:mod:`~damiera.trainer.rules` (the drilled rules and the rule set without each),
:mod:`~damiera.trainer.exercises` (kinds of question and their answers, from the rules
core), :mod:`~damiera.trainer.pool` (positions from self-play shipped in ``data/``, and
sessions of exercises chosen from them). ``tools/generate_trainer_pool.py`` makes the pool.
"""
