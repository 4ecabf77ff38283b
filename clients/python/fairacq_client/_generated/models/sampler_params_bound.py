from enum import StrEnum

class SamplerParamsBound(StrEnum):
    EMPIRICAL = "empirical"
    THEORETICAL = "theoretical"

    def __str__(self) -> str:
        return str(self.value)
