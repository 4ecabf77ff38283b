"""Background jobs: the database-backed queue, the worker loop and the ``/v1/jobs`` resource."""
