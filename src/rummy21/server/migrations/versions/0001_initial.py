"""The schema of rummy21 0.1.0, the release before migrations: rooms, seats, deals, events.

Revision ID: 0001
Revises:

Databases made by that release (``metadata.create_all``) are stamped with this revision
instead of running it (:func:`rummy21.server.migrations.upgrade`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "deals",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("option", sa.String(4), nullable=True),
        sa.Column("turns", sa.Integer, nullable=True),
        sa.Column("scores", sa.Text, nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("events", "deals", "seats", "rooms"):
        op.drop_table(name)
