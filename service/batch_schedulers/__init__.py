"""Batch schedulers: FairBatch's λ controller per training run (SPEC §4.6)."""
