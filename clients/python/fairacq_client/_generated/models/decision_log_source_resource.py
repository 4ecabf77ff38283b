from enum import StrEnum

class DecisionLogSourceResource(StrEnum):
    BALANCED_FILTERS = "balanced-filters"
    BATCH_SCHEDULERS = "batch-schedulers"
    FAIR_REGRESSIONS = "fair-regressions"
    GROUP_SAMPLERS = "group-samplers"
    PARTITION_BANDITS = "partition-bandits"

    def __str__(self) -> str:
        return str(self.value)
