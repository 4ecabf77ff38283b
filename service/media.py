"""Request media types: JSON-only operations (415 for anything else) and CSV sent as a multipart form."""

from __future__ import annotations

from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from service.errors import InvalidInput, UnsupportedMediaType

__all__ = ["FormPart", "is_json", "media_type", "parse_form", "require_json", "takes_json_only"]


def media_type(content_type: str) -> str:
    """The media type of a ``Content-Type`` value, without its parameters, in lower case."""
    return content_type.split(";")[0].strip().lower()


def is_json(content_type: str) -> bool:
    """``application/json`` or ``application/*+json``, whatever the parameters (``charset``)."""
    media = media_type(content_type)
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def require_json(content_type: str | None) -> None:
    """A JSON-only operation's check: no ``Content-Type`` is read as JSON (as FastAPI does), another is 415."""
    if content_type is not None and not is_json(content_type):
        media = media_type(content_type) or "an empty media type"
        raise UnsupportedMediaType(f"this operation takes application/json, not {media}")


def takes_json_only(openapi_extra: dict[str, Any] | None, has_body_model: bool) -> bool:
    """Whether an operation's body is JSON only (a raw body says its media types in ``openapi_extra``)."""
    content = ((openapi_extra or {}).get("requestBody") or {}).get("content")
    if content is not None:
        return set(content) == {"application/json"}
    return has_body_model


class FormPart:
    """One field of a ``multipart/form-data`` body: its bytes, and its file name if it is a file."""

    def __init__(self, part: Message) -> None:
        payload = part.get_payload(decode=True)
        self.data: bytes = payload if isinstance(payload, bytes) else b""
        self.filename: str | None = part.get_filename()

    def text(self, name: str) -> str:
        try:
            return self.data.decode()
        except UnicodeDecodeError:
            raise InvalidInput("must be UTF-8 text", ["body", name]) from None


def parse_form(content_type: str, body: bytes) -> dict[str, FormPart]:
    """The fields of a ``multipart/form-data`` body, by name (the body is already read and size-checked)."""
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n"
                                                  + body)
    if not message.is_multipart():
        raise InvalidInput("not a multipart/form-data body with a boundary", ["body"])
    fields: dict[str, FormPart] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str) or not name:
            raise InvalidInput("every part needs a Content-Disposition: form-data; name=...", ["body"])
        fields[name] = FormPart(part)
    return fields
