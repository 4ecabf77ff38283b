from enum import StrEnum

class PartitionBanditCreateAcceptance(StrEnum):
    FAIRNESS = "fairness"
    OBJECTIVE = "objective"

    def __str__(self) -> str:
        return str(self.value)
