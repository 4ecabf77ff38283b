from enum import StrEnum

class PredictionRequestMode(StrEnum):
    EXPECTED = "expected"
    RANDOMIZED = "randomized"

    def __str__(self) -> str:
        return str(self.value)
