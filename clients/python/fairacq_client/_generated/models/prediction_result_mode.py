from enum import StrEnum

class PredictionResultMode(StrEnum):
    EXPECTED = "expected"
    RANDOMIZED = "randomized"

    def __str__(self) -> str:
        return str(self.value)
