from enum import StrEnum

class BanditNextDecisionReason(StrEnum):
    UCB = "ucb"
    UNTRIED = "untried"

    def __str__(self) -> str:
        return str(self.value)
