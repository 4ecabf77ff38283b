
""" A client library for accessing Fair data-acquisition decision service """
from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
