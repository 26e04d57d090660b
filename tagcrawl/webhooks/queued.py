"""Webhook deliveries on the job queue (tagcrawl/core/queue.py, queue ``webhooks``).

One job ``webhook.deliver`` per pending delivery (``queueing_lock`` ``whdelivery:<id>``).
The job makes one attempt with delivery.py's steps: claim (committed), send (no
database; signed as before), record.  When the delivery stays ``pending`` (5xx,
408/425/429, network errors) the job raises ``DeliveryRetry`` and procrastinate
retries it at the delivery's ``next_attempt_at`` (``BACKOFF_STEPS`` x
``WEBHOOK_RETRY_BASE_S``: 30 s, 90 s, 4.5, 9, 15 min; ``WEBHOOK_ATTEMPTS`` in all).

Per-key bound: each job carries the procrastinate ``lock`` ``whkey:<key>:<slot>``, with
``WEBHOOK_PER_KEY`` slots per key given round-robin in the key's delivery order, so at
most that many of a key's POSTs are on the wire in all workers; a hanging receiver
holds its own key's slots (each for at most ``WEBHOOK_TIMEOUT_S``), never another's.
A retry waits with priority ``-attempts``: procrastinate lets an earlier waiting job of
the same lock go first only at an equal or higher priority, so a retry due later never
holds a new delivery of its slot (at most a retry of fewer attempts goes before it).
"""
from __future__ import annotations

import logging
from datetime import datetime

from flask import current_app
from procrastinate import BaseRetryStrategy, RetryDecision

from tagcrawl.core.extensions import db
from tagcrawl.core.models import WebhookAttempt, WebhookDelivery, utcnow
from tagcrawl.core.queue import WEBHOOKS, job_queue
from tagcrawl.core.settings import settings_of
from tagcrawl.core.utctime import to_utc
from tagcrawl.webhooks.delivery import claim_one, record, reopen, send

log = logging.getLogger(__name__)

TASK = "webhook.deliver"
#: Rows looked at by one ``requeue_orphans`` / ``defer_new`` call.
ORPHANS_MAX = 1000


class DeliveryRetry(Exception):
    """The attempt left the delivery pending: retry the job at ``due`` (aware UTC datetime)."""

    def __init__(self, due: datetime, attempts: int):
        super().__init__(f"retry at {due.isoformat()}")
        self.due, self.attempts = due, attempts


#: A job that failed otherwise (database down, a bug) is retried after this many seconds, at most
#: ``ERROR_RETRIES`` times; its claim's lease has run out by then (delivery.LEASE_MARGIN_S + the deadline).
ERROR_RETRY_S, ERROR_RETRIES = 60, 20


class DeliveryRetryStrategy(BaseRetryStrategy):
    """Retry a job that raised ``DeliveryRetry`` at its ``due`` time, with priority ``-attempts``;
    any other error after ``ERROR_RETRY_S``, at most ``ERROR_RETRIES`` times (then the row stays
    pending and the next worker start queues it)."""

    def get_retry_decision(self, *, exception: BaseException, job) -> RetryDecision | None:
        if isinstance(exception, DeliveryRetry):
            return RetryDecision(retry_at=exception.due, priority=-exception.attempts)
        if job.attempts < ERROR_RETRIES:
            return RetryDecision(retry_in={"seconds": ERROR_RETRY_S}, priority=-1)
        return None


def register(app) -> None:
    """Add the delivery task to the procrastinate ``app``."""
    app.task(name=TASK, queue=WEBHOOKS, pass_context=True, retry=DeliveryRetryStrategy())(deliver_task)


def _aware(moment: datetime | None) -> datetime:
    """``moment`` as an aware UTC datetime (SQLite drops the zone); None: now."""
    return utcnow() if moment is None else to_utc(moment)


def defer_delivery(delivery: WebhookDelivery, flask_app=None) -> int | None:
    """Queue the job of a committed pending delivery, due at its ``next_attempt_at``, on its key's
    slot (the count of the key's older deliveries modulo ``WEBHOOK_PER_KEY``), with priority
    ``-attempts``; returns the job id (None: one is waiting)."""
    app = flask_app or current_app._get_current_object()
    slots = max(1, settings_of(app).webhook_per_key)
    older = db.session.scalar(db.select(db.func.count()).select_from(WebhookDelivery).where(
        WebhookDelivery.api_key_id == delivery.api_key_id, WebhookDelivery.created_at < delivery.created_at))
    due, key_id, delivery_id = _aware(delivery.next_attempt_at), delivery.api_key_id, delivery.id
    priority = -delivery.attempts  # a waiting retry never holds a new delivery of its slot
    db.session.rollback()
    return job_queue(app).defer(TASK, queue=WEBHOOKS, lock=f"whkey:{key_id}:{older % slots}",
                                queueing_lock=f"whdelivery:{delivery_id}", priority=priority,
                                schedule_at=due if due > utcnow() else None, delivery_id=delivery_id)


def defer_new(crawl_id: int, flask_app=None) -> int:
    """Queue the jobs of the crawl's pending deliveries (right after the commit that stored them)."""
    rows = list(db.session.scalars(db.select(WebhookDelivery).where(
        WebhookDelivery.crawl_id == crawl_id, WebhookDelivery.status == "pending").limit(ORPHANS_MAX)))
    for row in rows:
        defer_delivery(row, flask_app)
    return len(rows)


def deliver_task(context, delivery_id: str) -> None:
    """The job: one attempt of the delivery (claim, send, record); raises ``DeliveryRetry`` while
    it stays pending.  A delivery not due yet (another job's claim runs) is retried at its due time."""
    flask_app = context.additional_context["flask_app"]
    with flask_app.app_context():
        settings = settings_of(flask_app)
        claim, due = claim_one(delivery_id, settings)
        if claim is None:
            if due is not None:
                raise DeliveryRetry(due, context.job.attempts)  # aware already (claim_one)
            return
    outcome = send(claim, settings)
    with flask_app.app_context():
        record(claim, outcome, settings)
        delivery = db.session.get(WebhookDelivery, delivery_id)
        state = (delivery.status, delivery.next_attempt_at, delivery.attempts) if delivery else None
        db.session.rollback()
    if state is not None and state[0] == "pending":
        raise DeliveryRetry(_aware(state[1]), state[2])


def requeue_orphans(flask_app) -> int:
    """Queue a job for each pending delivery with none waiting or running (at most ``ORPHANS_MAX``,
    oldest first); returns how many were queued."""
    with flask_app.app_context():
        live = job_queue(flask_app).live_args(TASK, "delivery_id")
        rows = list(db.session.scalars(db.select(WebhookDelivery).where(WebhookDelivery.status == "pending")
                                       .order_by(WebhookDelivery.created_at).limit(ORPHANS_MAX)))
        ids = [row.id for row in rows if row.id not in live]
        for delivery_id in ids:
            defer_delivery(db.session.get(WebhookDelivery, delivery_id), flask_app)
    if ids:
        log.info("webhook deliveries %s had no job: queued", ids)
    return len(ids)


def redeliver(delivery_id: str, settings) -> WebhookAttempt:
    """Send a delivery again now, whatever its status (``webhooks redeliver``), and, when it stays
    pending, queue its job for the next attempt.  Returns the ``WebhookAttempt``; ``LookupError``
    for an unknown id.  Commits."""
    row = reopen(delivery_id, settings)
    delivery = db.session.get(WebhookDelivery, delivery_id)
    if delivery is not None and delivery.status == "pending":
        defer_delivery(delivery)
    return row
