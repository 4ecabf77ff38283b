from enum import StrEnum

class GroupSamplerSimulationLoss(StrEnum):
    LOG_LOSS = "log_loss"
    ZERO_ONE = "zero_one"

    def __str__(self) -> str:
        return str(self.value)
