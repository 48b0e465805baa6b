"""Rooms at rest and rooms set aside: ``rooms.parked_at`` (idle, evicted from memory until a
visit) and ``rooms.set_aside`` (why a room cannot be rebuilt from its log).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("parked_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("set_aside", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("set_aside")
        batch.drop_column("parked_at")
