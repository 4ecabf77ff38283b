from enum import StrEnum

class DataSiftPolicyRewardScale(StrEnum):
    NONE = "none"
    RUNNING_MAX = "running_max"

    def __str__(self) -> str:
        return str(self.value)
