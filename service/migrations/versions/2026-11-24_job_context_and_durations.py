"""jobs carry the request id and trace context that queued them; cumulative job durations

Revision ID: 0003_job_context
Revises: 0002_filter_candidates
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003_job_context'
down_revision: str | None = '0002_filter_candidates'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_id', sa.String(length=128), nullable=True))
        batch_op.add_column(sa.Column('trace_context', sa.String(length=128), nullable=True))
    op.create_table('job_duration_stats',
    sa.Column('kind', sa.String(length=60), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('sum_seconds', sa.Float(), nullable=False),
    *[sa.Column(f'le_{i}', sa.Integer(), nullable=False) for i in range(8)],
    sa.PrimaryKeyConstraint('kind', name=op.f('pk_job_duration_stats'))
    )


def downgrade() -> None:
    op.drop_table('job_duration_stats')
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_column('trace_context')
        batch_op.drop_column('request_id')
