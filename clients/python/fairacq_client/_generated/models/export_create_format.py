from enum import StrEnum

class ExportCreateFormat(StrEnum):
    CSV = "csv"
    JSONL = "jsonl"
    PARQUET = "parquet"

    def __str__(self) -> str:
        return str(self.value)
