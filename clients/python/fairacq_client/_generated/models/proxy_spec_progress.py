from enum import StrEnum

class ProxySpecProgress(StrEnum):
    GAMMA = "gamma"
    LEMMA3 = "lemma3"

    def __str__(self) -> str:
        return str(self.value)
