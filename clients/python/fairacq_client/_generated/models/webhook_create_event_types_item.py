from enum import StrEnum

class WebhookCreateEventTypesItem(StrEnum):
    FILTER_READY = "filter.ready"
    JOB_FINISHED = "job.finished"
    SESSION_DONE = "session.done"

    def __str__(self) -> str:
        return str(self.value)
