"""Datasets: feature matrices with groups, labels and ids, stored compressed (SPEC §4.1)."""
