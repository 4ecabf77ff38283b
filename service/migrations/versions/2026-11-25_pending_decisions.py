"""pending decisions: what a next reserved until its report settles it, it is released or expires"""

import sqlalchemy as sa
from alembic import op

revision = '0007_pending_decisions'
down_revision = '0006_labelstudio'


def upgrade() -> None:
    op.create_table('pending_decisions',
    sa.Column('decision_id', sa.Uuid(), nullable=False),
    sa.Column('session_id', sa.Uuid(), nullable=False),
    sa.Column('arm', sa.Integer(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], name=op.f('fk_pending_decisions_session_id_sessions'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('decision_id', name=op.f('pk_pending_decisions'))
    )
    with op.batch_alter_table('pending_decisions', schema=None) as batch_op:
        batch_op.create_index('ix_pending_decisions_session_expires', ['session_id', 'expires_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('pending_decisions', schema=None) as batch_op:
        batch_op.drop_index('ix_pending_decisions_session_expires')
    op.drop_table('pending_decisions')
