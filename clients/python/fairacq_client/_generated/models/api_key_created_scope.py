from enum import StrEnum

class ApiKeyCreatedScope(StrEnum):
    ADMIN = "admin"
    PLAIN = "plain"

    def __str__(self) -> str:
        return str(self.value)
