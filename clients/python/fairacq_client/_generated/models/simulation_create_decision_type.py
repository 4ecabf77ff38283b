from enum import StrEnum

class SimulationCreateDecisionType(StrEnum):
    BALANCED_FILTER = "balanced_filter"
    BATCH_SCHEDULER = "batch_scheduler"
    GROUP_SAMPLER = "group_sampler"
    PARTITION_BANDIT = "partition_bandit"

    def __str__(self) -> str:
        return str(self.value)
