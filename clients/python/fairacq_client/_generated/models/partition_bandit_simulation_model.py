from enum import StrEnum

class PartitionBanditSimulationModel(StrEnum):
    GRADIENT_BOOSTING = "gradient_boosting"
    LOGISTIC_REGRESSION = "logistic_regression"

    def __str__(self) -> str:
        return str(self.value)
