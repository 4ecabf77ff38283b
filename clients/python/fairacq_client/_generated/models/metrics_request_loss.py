from enum import StrEnum

class MetricsRequestLoss(StrEnum):
    ABSOLUTE = "absolute"
    LOG = "log"
    SQUARE = "square"
    ZERO_ONE = "zero_one"

    def __str__(self) -> str:
        return str(self.value)
