from enum import StrEnum

class ApiKeyOutScope(StrEnum):
    ADMIN = "admin"
    PLAIN = "plain"

    def __str__(self) -> str:
        return str(self.value)
