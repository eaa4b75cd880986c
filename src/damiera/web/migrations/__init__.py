"""Alembic's folder for the game store's schema (:mod:`damiera.web.migrate` runs it).

``env.py`` runs the revisions in ``versions/`` against the store's metadata
(:data:`damiera.web.store_tables.METADATA`); ``alembic.ini`` is for the ``alembic`` command when a
developer writes a new revision (README, "Changing the database schema").
"""
