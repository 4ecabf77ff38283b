"""The export job's handler (loaded by the workers)."""

from __future__ import annotations

from service.exports.service import JOB_KIND, generate
from service.jobs import JobContext, job_handler

__all__ = ["generate_export"]


@job_handler(JOB_KIND)
def generate_export(ctx: JobContext) -> None:
    generate(ctx)
