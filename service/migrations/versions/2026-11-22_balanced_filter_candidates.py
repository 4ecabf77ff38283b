"""balanced filter candidates: one row per decided candidate id

Revision ID: 0002_filter_candidates
Revises: 0001
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002_filter_candidates'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('filter_candidates',
    sa.Column('session_id', sa.Uuid(), nullable=False),
    sa.Column('candidate_id', sa.String(length=200), nullable=False),
    sa.Column('leaf', sa.Integer(), nullable=False),
    sa.Column('accept', sa.Boolean(), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('outcome', sa.Integer(), nullable=True),
    sa.PrimaryKeyConstraint('session_id', 'candidate_id', name=op.f('pk_filter_candidates')),
    sqlite_with_rowid=False
    )


def downgrade() -> None:
    op.drop_table('filter_candidates')
