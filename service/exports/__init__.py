"""Exports of a decision log or a dataset as CSV, JSON Lines or Parquet, written by a job (issue 16)."""
