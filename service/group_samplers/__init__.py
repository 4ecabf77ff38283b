"""Group samplers: which group to sample next, by optimistic adaptive sampling (SPEC §4.3)."""
