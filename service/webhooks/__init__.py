"""Webhooks: a tenant's subscriptions to its events, delivered as signed requests (Standard Webhooks).

    models.py    subscriptions and deliveries (a delivery is one event for one subscription: its log)
    outbox.py    the events, written in the transaction of the change they announce, each delivery
                 queued as a job (``webhooks.deliver``) in that same transaction
    delivery.py  signing and sending one attempt; the retry schedule
    tasks.py     the job handler: one attempt, its outcome and the next attempt's job, fenced
    schemas.py service.py router.py   ``/v1/webhooks`` and ``/v1/webhook-deliveries``
"""

__all__: list[str] = []
