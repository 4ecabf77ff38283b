from enum import StrEnum

class ParamsOutBound(StrEnum):
    EMPIRICAL = "empirical"
    THEORETICAL = "theoretical"

    def __str__(self) -> str:
        return str(self.value)
