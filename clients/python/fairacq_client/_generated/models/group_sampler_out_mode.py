from enum import StrEnum

class GroupSamplerOutMode(StrEnum):
    MANAGED = "managed"
    REPORTED = "reported"

    def __str__(self) -> str:
        return str(self.value)
