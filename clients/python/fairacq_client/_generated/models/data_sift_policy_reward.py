from enum import StrEnum

class DataSiftPolicyReward(StrEnum):
    BASE_RATE = "base_rate"
    BASE_RATE_DISTANCE = "base_rate_distance"
    DISTANCE = "distance"
    SELECTED_ONLY = "selected_only"

    def __str__(self) -> str:
        return str(self.value)
