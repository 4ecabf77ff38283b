"""The OpenAPI document, exported to ``openapi/openapi.json``: a complete contract for generated clients.

FastAPI's document is completed here (:func:`complete_document`): every error is
documented as problem+json; bodies FastAPI does not see (raw bodies) are named
components; the bearer scheme, ``Idempotency-Key`` and the response headers are
declared; the status words are two named enums; and an optional request field is
documented by its type alone, without ``null`` (the server still takes ``null`` as
absent), so that generated clients get plain types rather than ``...Type0`` unions.
The contract's own helpers live in :mod:`service.openapi_contract`.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

from service.errors import PROBLEM_MEDIA_TYPE, Problem
from service.settings import Settings

__all__ = ["complete_document", "component", "component_of", "document_problems", "openapi_document"]


def openapi_document() -> dict[str, Any]:
    from service.app import create_app

    return create_app(Settings(database_url="sqlite://")).openapi()


_REF = "#/components/schemas/"
# Named schemas of bodies FastAPI does not register (raw bodies), added to every document.
_COMPONENTS: dict[str, dict[str, Any]] = {}


def component(schema: dict[str, Any], name: str) -> dict[str, str]:
    """Register ``schema`` (refs to ``#/components/schemas/``) as the component ``name``; a reference to it."""
    schema = dict(schema)
    for def_name, definition in schema.pop("$defs", {}).items():
        _COMPONENTS.setdefault(def_name, definition)
    _COMPONENTS[name] = schema
    return {"$ref": _REF + name}


def component_of(model: type[BaseModel], name: str | None = None) -> dict[str, str]:
    """A reference to ``model``'s schema as a named component (its nested models too)."""
    return component(model.model_json_schema(ref_template=_REF + "{model}"), name or model.__name__)


def complete_document(app: FastAPI, document: dict[str, Any]) -> None:
    """Complete FastAPI's document in place (see the module docstring)."""
    from service.openapi_contract import declare_contract

    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in _COMPONENTS.items():
        schemas.setdefault(name, schema)
    declare_contract(app, document)
    document_problems(document)


def _refers_to_a_resource(node: Any, schemas: dict[str, Any], seen: set[str]) -> bool:
    """Whether a request schema holds an id (``format: uuid``) of a stored resource, which may not exist."""
    if isinstance(node, list):
        return any(_refers_to_a_resource(item, schemas, seen) for item in node)
    if not isinstance(node, dict):
        return False
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_REF):
        name = ref.removeprefix(_REF)
        if name in seen:
            return False
        seen.add(name)
        return _refers_to_a_resource(schemas.get(name), schemas, seen)
    return node.get("format") == "uuid" or any(_refers_to_a_resource(v, schemas, seen) for v in node.values())


def _errors_of(operation: dict[str, Any], schemas: dict[str, Any]) -> dict[int, str]:
    """The errors any ``/v1`` operation may answer besides those its route declares."""
    errors = {401: "no API key, or one that is not valid", 503: "the database is not reachable; retry later"}
    parameters = operation.get("parameters", [])
    body = operation.get("requestBody")
    if any(p.get("in") == "path" for p in parameters) or _refers_to_a_resource(body, schemas, set()):
        errors[404] = "no such resource for this tenant (named in the path or the body)"
    if body is not None:
        errors[413] = "the request body is over FAIRACQ_MAX_BODY_BYTES"
        errors[415] = "the body's Content-Type is not one this operation takes"
    if parameters or body is not None:
        errors[422] = "invalid request: `errors` lists where and why"
    return errors


def document_problems(document: dict[str, Any]) -> None:
    """Document every error response as problem+json, replacing FastAPI's default 422 body."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    problem = Problem.model_json_schema(ref_template=_REF + "{model}")
    schemas.update(problem.pop("$defs", {}))
    schemas["Problem"] = problem
    for path, operations in document.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if path.startswith("/v1/"):
                for status, description in _errors_of(operation, schemas).items():
                    responses.setdefault(str(status), {"description": description})
            for status, response in responses.items():
                if status[0] in "45":
                    response["content"] = {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": _REF + "Problem"}}}
    for unused in ("HTTPValidationError", "ValidationError"):  # FastAPI's 422 body, replaced above
        if f'"{_REF}{unused}"' not in json.dumps(document):
            schemas.pop(unused, None)


