"""exports: a decision log or a dataset written as a file, stored in chunks (issue 16)"""

import sqlalchemy as sa
from alembic import op

revision = '0009_exports'
down_revision = '0008_keys_webhooks'


def upgrade() -> None:
    op.create_table('exports',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('tenant_id', sa.Uuid(), nullable=False),
    sa.Column('source', sa.JSON(), nullable=False),
    sa.Column('format', sa.String(length=10), nullable=False),
    sa.Column('filters', sa.JSON(), nullable=False),
    sa.Column('last_sequence', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('job_id', sa.Uuid(), nullable=True),
    sa.Column('attempt', sa.Integer(), nullable=True),
    sa.Column('rows', sa.BigInteger(), nullable=True),
    sa.Column('bytes', sa.BigInteger(), nullable=True),
    sa.Column('sha256', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['job_id'], ['jobs.id'], name=op.f('fk_exports_job_id_jobs'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_exports_tenant_id_tenants'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exports'))
    )
    with op.batch_alter_table('exports', schema=None) as batch_op:
        batch_op.create_index('ix_exports_tenant_created', ['tenant_id', 'created_at'], unique=False)
    op.create_table('export_chunks',
    sa.Column('export_id', sa.Uuid(), nullable=False),
    sa.Column('attempt', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['export_id'], ['exports.id'], name=op.f('fk_export_chunks_export_id_exports'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('export_id', 'attempt', 'seq', name=op.f('pk_export_chunks'))
    )


def downgrade() -> None:
    op.drop_table('export_chunks')
    with op.batch_alter_table('exports', schema=None) as batch_op:
        batch_op.drop_index('ix_exports_tenant_created')
    op.drop_table('exports')
