"""Simulations: replay acquisition policies on a client's own labeled data, with 95% bootstrap intervals."""
