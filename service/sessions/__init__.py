"""Decision sessions shared by every resource: state, version, seed and the decision log."""

from service.sessions.models import Decision, SessionBlob, SessionRecord
from service.sessions.repository import SessionRepository

__all__ = ["Decision", "SessionBlob", "SessionRecord", "SessionRepository"]
