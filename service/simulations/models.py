"""Simulations keep their request and results in the shared ``sessions`` table (kind ``simulation``)."""

from service.sessions.models import SessionRecord

__all__ = ["DATA_BLOB", "KIND", "SessionRecord"]

KIND = "simulation"
# The table replayed (features, labels, group codes), copied at creation so that deleting
# the dataset it came from cannot change a simulation that is running.
DATA_BLOB = "data"
