"""Many processes on one database: the rooms' leases, the history of their owners, and the
lease epoch that wrote each event record (:mod:`rummy21.server.lease`).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "owners",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("epoch", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("epoch")
    op.drop_table("owners")
    op.drop_table("leases")
