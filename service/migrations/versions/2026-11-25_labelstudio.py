"""labelstudio_connections and labelstudio_annotations: the Label Studio adapter (issue 20)"""

import sqlalchemy as sa
from alembic import op

revision = '0006_labelstudio'
down_revision = '0005_ui_sessions'


def upgrade() -> None:
    op.create_table('labelstudio_connections',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('tenant_id', sa.Uuid(), nullable=False),
    sa.Column('session_id', sa.Uuid(), nullable=False),
    sa.Column('session_kind', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=True),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('mapping', sa.JSON(), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], name=op.f('fk_labelstudio_connections_session_id_sessions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_labelstudio_connections_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_labelstudio_connections'))
    )
    with op.batch_alter_table('labelstudio_connections', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_labelstudio_connections_session_id'), ['session_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_labelstudio_connections_tenant_id'), ['tenant_id'], unique=False)
    op.create_table('labelstudio_annotations',
    sa.Column('connection_id', sa.Uuid(), nullable=False),
    sa.Column('annotation_id', sa.String(length=64), nullable=False),
    sa.Column('task_id', sa.String(length=64), nullable=False),
    sa.Column('group', sa.String(length=200), nullable=True),
    sa.Column('label', sa.Integer(), nullable=True),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('reason', sa.String(length=300), nullable=True),
    sa.Column('features', sa.JSON(), nullable=True),
    sa.Column('observation_id', sa.String(length=200), nullable=True),
    sa.Column('updates', sa.Integer(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['connection_id'], ['labelstudio_connections.id'], name=op.f('fk_labelstudio_annotations_connection_id_labelstudio_connections'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('connection_id', 'annotation_id', name=op.f('pk_labelstudio_annotations'))
    )


def downgrade() -> None:
    op.drop_table('labelstudio_annotations')
    with op.batch_alter_table('labelstudio_connections', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_labelstudio_connections_tenant_id'))
        batch_op.drop_index(batch_op.f('ix_labelstudio_connections_session_id'))
    op.drop_table('labelstudio_connections')
