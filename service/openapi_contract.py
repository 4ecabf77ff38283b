"""What a generated client needs beyond FastAPI's document (service.openapi.complete_document).

* the bearer scheme, applied to every ``/v1`` operation (open mode takes none);
* ``Idempotency-Key`` as a header parameter of every POST that honours it (service.routing:
  every POST but a read-only one), and ``Idempotent-Replayed`` on its success responses;
* ``Location`` on 201 and 202 responses, ``ETag`` where a session's version is returned;
* the status words as two named enums, ``SessionStatus`` and ``JobStatus``;
* an optional field of a request-only schema, or an optional query parameter, documented
  by its type alone: ``anyOf: [T, null]`` becomes ``T``. The server still reads ``null``
  as absent; generated clients get ``T | Unset`` instead of a ``...Type0`` union.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI

from service.idempotency import HEADER as IDEMPOTENCY_HEADER
from service.idempotency import MAX_KEY_LENGTH
from service.jobs.models import JOB_STATUSES
from service.resources import DECISION_TYPES
from service.routing import REPLAY_HEADER, ServiceRoute
from service.sessions.lifecycle import SESSION_STATUSES

__all__ = ["BEARER", "declare_contract"]

BEARER = "bearer"
_REF = "#/components/schemas/"
_NAMED_ENUMS = {"SessionStatus": SESSION_STATUSES, "JobStatus": JOB_STATUSES}
_NULL = {"type": "null"}
_IDEMPOTENCY_PARAMETER = {
    "name": IDEMPOTENCY_HEADER, "in": "header", "required": False,
    "description": "a key of your choice: a retry with the same key and body gets the first answer (replayed, "
                   "Idempotent-Replayed: true) and changes nothing; the same key with another body is 422",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
}
_HEADERS = {
    "Location": {"description": "the resource created, or the job doing the work", "schema": {"type": "string"}},
    "ETag": {"description": "the session's version: send it as If-Match to change it only if it has not changed",
             "schema": {"type": "string"}},
    REPLAY_HEADER: {"description": "`true` when this is the stored answer to an earlier request with the same "
                                   "Idempotency-Key (absent otherwise)",
                    "schema": {"type": "string", "enum": ["true"]}},
}
_SESSION_PREFIXES = tuple("/v1/" + name.replace("_", "-") for name in DECISION_TYPES)


def declare_contract(app: FastAPI, document: dict[str, Any]) -> None:
    """Complete ``document`` in place (see the module docstring)."""
    components = document.setdefault("components", {})
    components["securitySchemes"] = {BEARER: {
        "type": "http", "scheme": "bearer",
        "description": "an API key (`fairacq create-api-key`); a server in open mode takes none"}}
    idempotent = _idempotent_operations(app)
    for path, operations in document.get("paths", {}).items():
        if not path.startswith("/v1/"):
            continue
        for method, operation in operations.items():
            operation["security"] = [{BEARER: []}]
            replayable = (path, method) in idempotent
            if replayable:
                operation.setdefault("parameters", []).append(dict(_IDEMPOTENCY_PARAMETER))
            _declare_headers(path, method, operation, replayable)
    _name_enums(document)
    _plain_optional_types(document)


def _routes(routes: list[Any]) -> Iterator[Any]:
    """Every route, within included routers too (FastAPI 0.165 keeps an included router whole, and
    mounts it without a prefix of its own here: each router has its prefix)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        yield from _routes(inner.routes) if inner is not None else (route,)


def _idempotent_operations(app: FastAPI) -> set[tuple[str, str]]:
    """The (path, method) of every POST whose ``Idempotency-Key`` is honoured (service.routing)."""
    found = set()
    for route in _routes(app.routes):
        if (isinstance(route, ServiceRoute) and "POST" in (route.methods or ())
                and not getattr(inspect.unwrap(route.endpoint), "__read_only__", False)):
            found.add((route.path_format, "post"))
    return found


def _returns_etag(path: str, method: str, operation: dict[str, Any]) -> bool:
    if any(p.get("in") == "header" and p.get("name", "").lower() == "if-match"
           for p in operation.get("parameters", [])):
        return True
    for prefix in _SESSION_PREFIXES:
        rest = path.removeprefix(prefix)
        if rest != path and ((method == "post" and rest == "") or
                             (method == "get" and rest.count("/") == 1 and rest.startswith("/{"))):
            return True
    return False


def _declare_headers(path: str, method: str, operation: dict[str, Any], replayable: bool) -> None:
    etag = _returns_etag(path, method, operation)
    for status, response in operation.get("responses", {}).items():
        if not status.startswith("2"):
            continue
        headers = response.setdefault("headers", {})
        if status in ("201", "202"):
            headers["Location"] = _HEADERS["Location"]
        if etag and status != "204":
            headers["ETag"] = _HEADERS["ETag"]
        if replayable:
            headers[REPLAY_HEADER] = _HEADERS[REPLAY_HEADER]
        if not headers:
            del response["headers"]


def _walk(node: Any, visit: Any) -> Any:
    """``node`` with every dict replaced by ``visit(dict)``, children first."""
    if isinstance(node, list):
        return [_walk(item, visit) for item in node]
    if isinstance(node, dict):
        return visit({key: _walk(value, visit) for key, value in node.items()})
    return node


def _name_enums(document: dict[str, Any]) -> None:
    """Every inline enum of the session or the job status words: a reference to its named enum."""
    schemas = document["components"]["schemas"]
    by_words = {frozenset(words): name for name, words in _NAMED_ENUMS.items()}

    def visit(node: dict[str, Any]) -> dict[str, Any]:
        name = by_words.get(frozenset(node.get("enum", ())))
        if name is None or node.get("type") != "string":
            return node
        return {"$ref": _REF + name, **{k: v for k, v in node.items() if k == "description"}}

    document["paths"] = _walk(document["paths"], visit)
    document["components"]["schemas"] = schemas = _walk(schemas, visit)
    for name, words in _NAMED_ENUMS.items():
        schemas[name] = {"type": "string", "enum": list(words), "title": name}


def _references(node: Any, schemas: dict[str, Any], found: set[str]) -> set[str]:
    """The names of the component schemas ``node`` refers to, directly or not."""
    if isinstance(node, list):
        for item in node:
            _references(item, schemas, found)
    elif isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REF) and ref.removeprefix(_REF) not in found:
            found.add(ref.removeprefix(_REF))
            _references(schemas.get(ref.removeprefix(_REF)), schemas, found)
        for value in node.values():
            _references(value, schemas, found)
    return found


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``anyOf: [T, null]`` (with a null default) as ``T``, keeping the title and description."""
    options = schema.get("anyOf")
    if not isinstance(options, list) or len(options) != 2 or _NULL not in options or schema.get("default", 0):
        return schema
    (kind,) = [option for option in options if option != _NULL]
    return {**kind, **{k: v for k, v in schema.items() if k in ("title", "description")}}


def _plain_optional_types(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    asked: set[str] = set()
    answered: set[str] = set()
    for operations in document["paths"].values():
        for operation in operations.values():
            _references([operation.get("requestBody"), operation.get("parameters")], schemas, asked)
            _references(operation.get("responses"), schemas, answered)
            for parameter in operation.get("parameters", []):
                if not parameter.get("required") and "schema" in parameter:
                    parameter["schema"] = _without_null(parameter["schema"])
    for name in asked - answered:  # a schema responses use too must keep saying null
        schema = schemas[name]
        required = set(schema.get("required", ()))
        for field, prop in schema.get("properties", {}).items():
            if field not in required:
                schema["properties"][field] = _without_null(prop)
