"""balanced filter candidates: one row per decided candidate id"""

import sqlalchemy as sa
from alembic import op

revision = '0002_filter_candidates'
down_revision = '0001'


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
