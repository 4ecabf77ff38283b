from enum import StrEnum

class SessionStatus(StrEnum):
    CANCELLED = "cancelled"
    DONE = "done"
    FAILED = "failed"
    QUEUED = "queued"
    READY = "ready"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
