"""Partition bandits: DataSift's UCB over pool partitions, interactive or managed (SPEC §4.4)."""
