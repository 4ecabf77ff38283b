from enum import StrEnum

class SamplerNextDecisionReason(StrEnum):
    EPSILON = "epsilon"
    FORCED_EXPLORATION = "forced_exploration"
    GREEDY = "greedy"
    UCB = "ucb"
    UNIFORM = "uniform"
    WARMUP = "warmup"

    def __str__(self) -> str:
        return str(self.value)
