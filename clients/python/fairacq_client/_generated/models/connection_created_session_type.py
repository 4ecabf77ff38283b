from enum import StrEnum

class ConnectionCreatedSessionType(StrEnum):
    BALANCED_FILTER = "balanced_filter"
    GROUP_SAMPLER = "group_sampler"

    def __str__(self) -> str:
        return str(self.value)
