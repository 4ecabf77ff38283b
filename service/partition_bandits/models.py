"""Partition bandits keep their state in the shared ``sessions`` table (kind ``partition_bandit``).

Small state is JSON on the session row; the large arrays are session blobs:

* ``partitions`` — the arms' centroids (meta: ids, sizes, base-rate differences as given);
* ``assignment`` — each pool row's partition (pool bandits), for managed runs;
* ``offer:<j>:<c>`` — chunk ``c`` of partition ``j``'s pool rows in offer order (and their
  ids), so that ``next`` reads only the chunks its batch falls in;
* ``run`` — the last managed run's acquired rows (meta: its trajectory and summary).
"""

from service.sessions.models import SessionBlob, SessionRecord

__all__ = ["KIND", "OFFER_CHUNK", "RESOURCE_TYPE", "SessionBlob", "SessionRecord", "offer_blob"]

KIND = "partition_bandit"
RESOURCE_TYPE = "partition_bandit"
# Items per offer chunk: a batch reads at most ceil(K / chunk) + 1 chunks, each small enough
# (with 36-character ids, about 40 KB unpacked) to keep ``next`` within a millisecond or two.
OFFER_CHUNK = 1024


def offer_blob(partition: int, chunk: int) -> str:
    return f"offer:{partition}:{chunk}"
