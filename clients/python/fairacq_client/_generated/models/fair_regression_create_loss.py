from enum import StrEnum

class FairRegressionCreateLoss(StrEnum):
    ABSOLUTE = "absolute"
    LOGISTIC = "logistic"
    SQUARE = "square"

    def __str__(self) -> str:
        return str(self.value)
