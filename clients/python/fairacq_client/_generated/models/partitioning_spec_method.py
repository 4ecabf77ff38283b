from enum import StrEnum

class PartitioningSpecMethod(StrEnum):
    COLUMN = "column"
    GMM = "gmm"

    def __str__(self) -> str:
        return str(self.value)
