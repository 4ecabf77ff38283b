"""A real webhook receiver on 127.0.0.1 for the tests: ``http.server`` in a thread, failing on request."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["Received", "Receiver"]


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]  # lower-case names
    body: bytes
    at: float  # time.time() when it arrived
    answered: int


class Receiver:
    """Records every POST; answers ``fail_status`` to the first ``fail_first`` of them, then 204."""

    def __init__(self, fail_first: int = 0, fail_status: int = 500) -> None:
        self.fail_first, self.fail_status = fail_first, fail_status
        self.received: list[Received] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with receiver._lock:
                    failing = len(receiver.received) < receiver.fail_first
                    status = receiver.fail_status if failing else 204
                    receiver.received.append(Received({k.lower(): v for k, v in self.headers.items()}, body,
                                                      time.time(), status))
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks/fairacq"

    def delivered(self) -> list[Received]:
        """The requests it accepted (answered 204)."""
        with self._lock:
            return [r for r in self.received if r.answered == 204]

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
