"""OpenTelemetry traces from a request to the job it queues (off unless ``FAIRACQ_OTEL_EXPORTER`` is set).

``console`` writes each finished span as one line of JSON to stderr; ``otlp`` sends them over
OTLP/HTTP to ``OTEL_EXPORTER_OTLP_ENDPOINT`` (install the ``otel`` extra). A
request's span continues the caller's W3C ``traceparent``; a job stores the
``traceparent`` of the request that queued it, and the worker's span for each
attempt is that request span's child, so one trace runs from request to job.
With no exporter every function here is a no-op costing one ``None`` check.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

__all__ = ["configure", "current_traceparent", "job_span", "request_span"]

_tracer: Any = None
_provider: Any = None


def configure(exporter: str | None, service_name: str) -> None:
    """Install a tracer provider exporting with ``exporter`` ("console", "otlp"; None or "none": off)."""
    global _tracer, _provider
    if not exporter or exporter == "none":
        return
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    if exporter == "console":
        exporter_ = ConsoleSpanExporter(out=sys.stderr, formatter=lambda span: span.to_json(indent=None) + "\n")
        provider.add_span_processor(SimpleSpanProcessor(exporter_))
    elif exporter == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        raise ValueError(f"unknown trace exporter {exporter!r}: use console or otlp")
    _provider = provider
    _tracer = provider.get_tracer("fairacq")


def shutdown() -> None:
    if _provider is not None:
        _provider.shutdown()


@contextmanager
def request_span(scope: MutableMapping[str, Any]) -> Iterator[None]:
    """A server span around one HTTP request, continuing the caller's ``traceparent``."""
    if _tracer is None:
        yield
        return
    from opentelemetry.trace import SpanKind
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    parent = TraceContextTextMapPropagator().extract(headers)
    with _tracer.start_as_current_span(f"{scope['method']} {scope['path']}", context=parent,
                                       kind=SpanKind.SERVER) as span:
        try:
            yield
        finally:
            route = getattr(scope.get("route"), "path", None)
            if route is not None:
                span.update_name(f"{scope['method']} {route}")
                span.set_attribute("http.route", route)
            tenant = scope.get("state", {}).get("tenant")
            if tenant is not None:
                span.set_attribute("fairacq.tenant", tenant.name)


def current_traceparent() -> str | None:
    """The W3C ``traceparent`` of the current span (stored with a job), or None."""
    if _tracer is None:
        return None
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    carrier: dict[str, str] = {}
    TraceContextTextMapPropagator().inject(carrier)
    return carrier.get("traceparent")


@contextmanager
def job_span(kind: str, job_id: str, attempt: int, traceparent: str | None) -> Iterator[None]:
    """A consumer span around one job attempt, the child of the request that queued the job."""
    if _tracer is None:
        yield
        return
    from opentelemetry.trace import SpanKind
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    parent = TraceContextTextMapPropagator().extract({"traceparent": traceparent} if traceparent else {})
    with _tracer.start_as_current_span(f"job {kind}", context=parent, kind=SpanKind.CONSUMER) as span:
        span.set_attribute("fairacq.job_id", job_id)
        span.set_attribute("fairacq.attempt", attempt)
        yield
