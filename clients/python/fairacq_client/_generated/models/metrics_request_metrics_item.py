from enum import StrEnum

class MetricsRequestMetricsItem(StrEnum):
    DEMOGRAPHIC_PARITY = "demographic_parity"
    EQUALIZED_ODDS = "equalized_odds"
    EQUAL_OPPORTUNITY = "equal_opportunity"
    GROUP_LOSS = "group_loss"
    SP_KS = "sp_ks"

    def __str__(self) -> str:
        return str(self.value)
