"""sessions store one status vocabulary: pending (its job prepares it), ready, done"""

import sqlalchemy as sa
from alembic import op

revision = '0004_status_vocabulary'
down_revision = '0003_job_context'

# (kind, old word, new word): every word a session row could store before this revision.
RENAMES = [
    ("group_sampler", "active", "ready"),
    ("group_sampler", "exhausted", "done"),
    ("batch_scheduler", "active", "ready"),
    ("balanced_filter", "fitting", "pending"),
    ("partition_bandit", "partitioning", "pending"),
    ("fair_regression", "fitting", "pending"),
    ("fair_regression", "succeeded", "ready"),
]


def _rename(pairs: list[tuple[str, str, str]]) -> None:
    sessions = sa.table("sessions", sa.column("kind", sa.String), sa.column("status", sa.String))
    for kind, old, new in pairs:
        op.execute(sessions.update().where(sessions.c.kind == kind, sessions.c.status == old).values(status=new))


def upgrade() -> None:
    _rename(RENAMES)


def downgrade() -> None:
    _rename([(kind, new, old) for kind, old, new in RENAMES])
