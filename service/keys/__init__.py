"""API keys' lifecycle: create, list (without secrets), revoke, rotate with a grace period.

The key table and the request's authentication live in ``service.auth``; this package is
what an admin-scoped key (``/v1/admin/keys``) and the operator (``fairacq`` commands) do with keys.
"""

__all__: list[str] = []
