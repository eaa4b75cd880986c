"""The store's schema revisions, oldest first: 0001 (baseline), 0002, ... (Alembic ignores
this file)."""
