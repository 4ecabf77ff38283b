"""Fair data-acquisition decision service."""

__version__ = "0.1.0"
