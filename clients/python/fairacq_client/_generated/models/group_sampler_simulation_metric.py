from enum import StrEnum

class GroupSamplerSimulationMetric(StrEnum):
    ACCURACY = "accuracy"
    LOG_LOSS = "log_loss"

    def __str__(self) -> str:
        return str(self.value)
