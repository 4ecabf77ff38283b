from enum import StrEnum

class PartitionBanditCreateBatchSelection(StrEnum):
    INFLUENCE = "influence"
    RANDOM = "random"

    def __str__(self) -> str:
        return str(self.value)
