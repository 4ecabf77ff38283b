"""jobs carry the request id and trace context that queued them; cumulative job durations"""

import sqlalchemy as sa
from alembic import op

revision = '0003_job_context'
down_revision = '0002_filter_candidates'


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
