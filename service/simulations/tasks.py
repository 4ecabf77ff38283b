"""Background work of simulations: the run (the parent job) fans its repetitions out as child jobs.

The run job queues up to ``MAX_CHILDREN`` child jobs (``simulations.repetitions``), each
with a share of the repetitions, on the same database queue: any idle worker claims one.
The parent does not sit idle meanwhile: it claims queued children of its own simulation
(``fanout.claim_child``) and runs them in its own process, so with two workers both run
repetitions. When no child is left queued it waits for the running ones, showing their
mean progress as its own. It then gathers their results, summarises them and stores
them with ``ctx.commit``; the simulation becomes ``ready``.

Cancelling the run job (``POST /v1/jobs/{id}/cancel``) cancels its outstanding children;
a child also stops at its next round when it sees its parent cancelled or finished, so a
run killed by its worker before it could cancel them leaves none running. A child that
fails (after its retries) fails the run with the child's error.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from service import jobs
from service.db import read_only, transaction
from service.jobs.models import Job
from service.sessions.lifecycle import READY
from service.sessions.repository import Entry
from service.simulations import fanout
from service.simulations.common import Repetition
from service.simulations.models import DATA_BLOB
from service.simulations.replays import run_repetition
from service.simulations.results import summarise
from service.simulations.service import RUN_JOB, problem, repository

__all__ = ["repetitions_job", "run_job"]

# How often a waiting parent reads its children (an indexed read of a few rows).
POLL_SECONDS = 0.25


def run_repetitions(ctx: jobs.JobContext, beat: fanout.Beat | None = None) -> None:
    """Run the repetitions of a child job and store them as its result."""
    parent = uuid.UUID(ctx.payload["parent"])
    with transaction(ctx.sessions) as db:
        repo = repository(read_only(db), ctx.tenant_id)
        record = repo.get(ctx.resource)
        stored = repo.get_blob(record, DATA_BLOB)
        if stored is None:
            raise jobs.PermanentError("the simulation's data is missing")
        replay = problem(record, stored[0])
    stop = fanout.stopper(ctx, parent, beat)
    reps: list[int] = list(ctx.payload["repetitions"])
    out: dict[str, Any] = {}
    try:
        for i, r in enumerate(reps):
            def progress(fraction: float, i: int = i) -> None:
                ctx.progress((i + fraction) / len(reps))

            done = run_repetition(replay, r, stop, progress)
            out[str(r)] = done.to_dict()
    except InterruptedError:
        fanout.mark_cancelled(ctx)
        raise jobs.PermanentError("cancelled with its simulation") from None
    ctx.commit(lambda db, job: {"repetitions": out})


@jobs.job_handler(fanout.CHILD_JOB)
def repetitions_job(ctx: jobs.JobContext) -> None:
    run_repetitions(ctx)


def _store(ctx: jobs.JobContext, results: dict[str, Any]) -> None:
    def write(db: Any, job: Job) -> dict[str, Any]:
        repo = repository(db, ctx.tenant_id)
        record = repo.get_for_update(ctx.resource)
        repo.record(record, state={"results": results}, status=READY,
                    log=Entry("results", {}, {"recommendation": results["recommendation"]}))
        return {"best": results["recommendation"]["best"]}

    ctx.commit(write)


@jobs.job_handler(RUN_JOB)
def run_job(ctx: jobs.JobContext) -> None:
    with transaction(ctx.sessions) as db:
        record = repository(read_only(db), ctx.tenant_id).get(ctx.resource)
        config, seed = record.config, record.seed
    fanout.fan_out(ctx, int(config["repetitions"]))
    while True:
        if ctx.cancel_requested():
            fanout.cancel_children(ctx)
            raise jobs.PermanentError("the simulation was cancelled")
        child = fanout.claim_child(ctx)
        if child is not None:
            fanout.run_inline(ctx, child, run_repetitions)
            continue
        children = fanout.children(ctx)
        failed = [c for c in children if c.status in ("failed", "cancelled")]
        if failed:
            fanout.cancel_children(ctx)
            raise jobs.PermanentError(f"a repetition job {failed[0].status}: {failed[0].error}")
        if all(c.status == "succeeded" for c in children):
            break
        ctx.progress(fanout.mean_progress(children))
        time.sleep(POLL_SECONDS)
    merged: dict[str, Any] = {}
    for c in children:
        merged.update((c.result or {}).get("repetitions", {}))
    reps = [Repetition.from_dict(merged[str(r)]) for r in range(int(config["repetitions"]))]
    names = [p["name"] for p in config["policies"]]
    results = summarise(reps, names, config, seed)
    _store(ctx, results)
