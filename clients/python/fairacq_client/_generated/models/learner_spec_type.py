from enum import StrEnum

class LearnerSpecType(StrEnum):
    GRADIENT_BOOSTING = "gradient_boosting"
    LINEAR = "linear"

    def __str__(self) -> str:
        return str(self.value)
