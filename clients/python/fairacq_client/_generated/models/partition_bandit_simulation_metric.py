from enum import StrEnum

class PartitionBanditSimulationMetric(StrEnum):
    DEMOGRAPHIC_PARITY = "demographic_parity"
    EQUALIZED_ODDS = "equalized_odds"
    EQUAL_OPPORTUNITY = "equal_opportunity"

    def __str__(self) -> str:
        return str(self.value)
