from enum import StrEnum

class GroupSamplerOutStrategy(StrEnum):
    AOPT = "aopt"
    AOPT_PLUS = "aopt_plus"
    EPSILON_GREEDY = "epsilon_greedy"
    GREEDY = "greedy"
    UNIFORM = "uniform"

    def __str__(self) -> str:
        return str(self.value)
