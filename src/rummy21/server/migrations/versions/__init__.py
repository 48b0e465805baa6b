"""The revisions, oldest first (``down_revision`` links them); Alembic reads them by path."""
