from enum import StrEnum

class PredictionResultScale(StrEnum):
    ORIGINAL = "original"
    UNIT = "unit"

    def __str__(self) -> str:
        return str(self.value)
