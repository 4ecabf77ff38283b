"""One delivery attempt: the body signed by the Standard Webhooks scheme, POSTed, its outcome.

Headers are ``webhook-id`` (the event's id, the same at every attempt), ``webhook-timestamp``
(seconds) and ``webhook-signature`` (``v1,<base64 HMAC-SHA256>``, by the ``standardwebhooks``
package); a receiver verifies them with that package's ``Webhook(secret).verify(body, headers)``.
A 2xx answer delivers; anything else (another status, a timeout, a refused connection) is
retried by the schedule ``FAIRACQ_WEBHOOK_RETRY_SCHEDULE_SECONDS``. Redirects are not followed:
a receiver that moved gets its subscription updated, not its events sent elsewhere.
"""

from __future__ import annotations

import base64
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import datetime

from standardwebhooks.webhooks import Webhook

from service import __version__

__all__ = ["Outcome", "new_secret", "send", "sign"]

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32  # HMAC-SHA256 key: 256 bits
ERROR_CHARS = 500  # the delivery log keeps this much of an error
RESPONSE_READ_BYTES = 4096  # a receiver's answer is not kept: read a little so the connection closes cleanly


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def sign(secret: str, event_id: str, at: datetime, body: str) -> dict[str, str]:
    """The Standard Webhooks headers of ``body`` sent at ``at``."""
    return {"webhook-id": event_id, "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": Webhook(secret).sign(event_id, at, body)}


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    status_code: int | None
    error: str | None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the 3xx is the attempt's answer


_OPENER = urllib.request.build_opener(_NoRedirect)


def send(url: str, secret: str, event_id: str, body: str, at: datetime, timeout: float) -> Outcome:
    """POST ``body`` to ``url``, signed; what happened."""
    headers = {"content-type": "application/json", "user-agent": f"fairacq-webhooks/{__version__}",
               **sign(secret, event_id, at, body)}
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            response.read(RESPONSE_READ_BYTES)
            code = response.status
    except urllib.error.HTTPError as exc:
        return Outcome(False, exc.code, f"the receiver answered {exc.code}")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return Outcome(False, None, f"{type(exc).__name__}: {reason}"[:ERROR_CHARS])
    if 200 <= code < 300:
        return Outcome(True, code, None)
    return Outcome(False, code, f"the receiver answered {code}")
