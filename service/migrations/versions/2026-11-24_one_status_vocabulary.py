"""sessions store one status vocabulary: pending (its job prepares it), ready, done

Revision ID: 0004_status_vocabulary
Revises: 0003_job_context
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004_status_vocabulary'
down_revision: str | None = '0003_job_context'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

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
