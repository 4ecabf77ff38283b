from enum import StrEnum

class FairRegressionOutOracle(StrEnum):
    COST_SENSITIVE = "cost_sensitive"
    LEAST_SQUARES = "least_squares"
    LOSS_MINIMIZATION = "loss_minimization"

    def __str__(self) -> str:
        return str(self.value)
