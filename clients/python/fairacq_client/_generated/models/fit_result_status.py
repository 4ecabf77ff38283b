from enum import StrEnum

class FitResultStatus(StrEnum):
    CONVERGED = "converged"
    MAX_ITERATIONS = "max_iterations"

    def __str__(self) -> str:
        return str(self.value)
