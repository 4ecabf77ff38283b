"""ui_sessions: the dashboard's logins (a token digest per browser session, its tenant, its expiry)"""

import sqlalchemy as sa
from alembic import op

revision = '0005_ui_sessions'
down_revision = '0004_status_vocabulary'


def upgrade() -> None:
    op.create_table('ui_sessions',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('tenant_id', sa.Uuid(), nullable=False),
    sa.Column('keyless', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_ui_sessions_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ui_sessions')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_ui_sessions_token_hash'))
    )
    with op.batch_alter_table('ui_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ui_sessions_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_ui_sessions_tenant_id'), ['tenant_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('ui_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ui_sessions_tenant_id'))
        batch_op.drop_index(batch_op.f('ix_ui_sessions_expires_at'))
    op.drop_table('ui_sessions')
