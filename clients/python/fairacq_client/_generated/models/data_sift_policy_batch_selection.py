from enum import StrEnum

class DataSiftPolicyBatchSelection(StrEnum):
    INFLUENCE = "influence"
    RANDOM = "random"

    def __str__(self) -> str:
        return str(self.value)
