"""Stateless fairness metrics (SPEC §4.8)."""
