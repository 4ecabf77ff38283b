from enum import StrEnum

class PredictionRequestScale(StrEnum):
    ORIGINAL = "original"
    UNIT = "unit"

    def __str__(self) -> str:
        return str(self.value)
