"""``fairacq create-api-key | list-api-keys | revoke-api-key | rotate-api-key``: the operator's key commands.

They act on the database directly (no server needed) and print JSON, the key in clear only
when one is created. Keys are named by id, which ``list-api-keys --tenant NAME`` shows.
"""

from __future__ import annotations

import argparse
import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

__all__ = ["add_commands"]

LIST_LIMIT = 500


@contextmanager
def _database() -> Iterator[Session]:
    from service.db import make_engine, make_sessionmaker, transaction
    from service.migrations import upgrade
    from service.settings import get_settings

    settings = get_settings()
    if settings.is_sqlite:
        upgrade(settings.database_url)  # embedded mode: nothing else migrates it
    engine = make_engine(settings.database_url)
    try:
        with transaction(make_sessionmaker(engine)) as db:
            yield db
    finally:
        engine.dispose()


def _print(value: Any) -> None:
    print(json.dumps(value.model_dump(mode="json") if hasattr(value, "model_dump") else value, indent=2))


def cmd_create(args: argparse.Namespace) -> int:
    from service.auth import create_api_key
    from service.db import utcnow

    expires = utcnow() + timedelta(days=args.expires_in_days) if args.expires_in_days else None
    with _database() as db:
        key = create_api_key(db, args.tenant, name=args.name, scope=args.scope, expires_at=expires)
    print(key)  # alone on its line, as before: scripts read it
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from service.auth import Tenant
    from service.keys import service

    with _database() as db:
        tenant_id = db.scalar(select(Tenant.id).where(Tenant.name == args.tenant))
        rows = [] if tenant_id is None else service.list_keys(db, tenant_id, LIST_LIMIT)
        _print([service.key_out(row).model_dump(mode="json") for row in rows])
    return 0


def cmd_revoke(args: argparse.Namespace) -> int:
    from service.keys import service

    with _database() as db:
        _print(service.key_out(service.revoke(db, service.tenant_of(db, args.id), args.id)))
    return 0


def cmd_rotate(args: argparse.Namespace) -> int:
    from service.db import utcnow
    from service.keys import service

    expires = utcnow() + timedelta(days=args.expires_in_days) if args.expires_in_days else None
    with _database() as db:
        old, new, key = service.rotate(db, service.tenant_of(db, args.id), args.id,
                                       grace_seconds=round(args.grace_hours * 3600), expires_at=expires)
        _print({"new": service.key_created(new, key).model_dump(mode="json"),
                "old": service.key_out(old).model_dump(mode="json")})
    return 0


def _command(sub: Any, name: str, help_: str, func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help_)
    parser.set_defaults(func=func)
    return parser


def add_commands(sub: Any) -> None:
    """Add the key commands to ``fairacq``'s subcommands."""
    create = _command(sub, "create-api-key", "create an API key and print it once", cmd_create)
    create.add_argument("--tenant", required=True)
    create.add_argument("--name", help="what the key is for")
    create.add_argument("--scope", choices=("plain", "admin"), default="plain",
                        help="admin keys may also manage the tenant's keys (/v1/admin/keys)")
    create.add_argument("--expires-in-days", type=float, help="the key stops working after this many days")
    listing = _command(sub, "list-api-keys", "list a tenant's keys (never the keys themselves)", cmd_list)
    listing.add_argument("--tenant", required=True)
    revoke = _command(sub, "revoke-api-key", "revoke a key: refused everywhere within 2 s", cmd_revoke)
    revoke.add_argument("--id", type=uuid.UUID, required=True)
    rotate = _command(sub, "rotate-api-key", "a new key; the old one works for the grace period", cmd_rotate)
    rotate.add_argument("--id", type=uuid.UUID, required=True)
    rotate.add_argument("--grace-hours", type=float, default=24.0, help="how long the old key keeps working")
    rotate.add_argument("--expires-in-days", type=float, help="the new key stops working after this many days")
