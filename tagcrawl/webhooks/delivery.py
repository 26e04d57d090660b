"""Webhook delivery: create, claim, send, record, schedule retries, redeliver.

Each pending delivery has a job on the job queue (queued.py), which runs one
attempt at a time.  An attempt is three steps, and no database transaction is
open while the POST is on the wire:

1. **claim** (one short transaction, committed): the row's ``attempts`` goes
   up by one and ``next_attempt_at`` becomes a lease (the attempt's deadline
   + ``LEASE_MARGIN_S``), so no other job claims it meanwhile (the row is
   locked ``FOR UPDATE`` on PostgreSQL).  A worker that dies mid-attempt leaves
   the lease to expire: its job, retried by procrastinate's stalled-jobs sweep,
   claims it again then (at least once);
2. **send** (``send``, no database): ``transport.post`` to the checked
   address within ``WEBHOOK_TIMEOUT_S``;
3. **record** (a new short transaction): the attempt row, and the next state
   when the claim is still this one.

Retries back off exponentially: after attempt n the next waits
``BACKOFF_STEPS[n-1] * WEBHOOK_RETRY_BASE_S`` (30 s, 90 s, 4.5 min, 9 min,
15 min with the default 30 s base), so 6 attempts span about 30 minutes.
Retried: 5xx, 408/425/429, timeouts, connection errors and names that do not
resolve; other refused targets and other 4xx fail at once.  Every attempt is
recorded with its status code and duration (ms).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, Crawl, WebhookAttempt, WebhookDelivery, new_uuid, utcnow
from tagcrawl.core.settings import Settings
from tagcrawl.core.utctime import to_utc
from tagcrawl.webhooks.signing import sign
from tagcrawl.webhooks.transport import Outcome, Resolver, post, system_resolve

log = logging.getLogger(__name__)

#: Delay before attempt 2..6, as multiples of WEBHOOK_RETRY_BASE_S (30 s):
#: 30 s, 90 s, 270 s, 540 s, 900 s -> about 30 minutes in all.
BACKOFF_STEPS = (1, 3, 9, 18, 30)
RETRY_STATUSES = {408, 425, 429}
#: A claim's lease is the attempt's deadline plus this, seconds: time to record the outcome, which the
#: database bounds keep shorter (pool 5 s, connect 3 s, statement 5 s + 2 s by default, dbtimeouts.py).
LEASE_MARGIN_S = 30


@dataclass(frozen=True)
class Claim:
    """A claimed delivery, everything ``send`` needs (no ORM object, no session).

    ``attempt``: the delivery's ``attempts`` after the claim (1 for the first)."""

    delivery_id: str
    api_key_id: int
    url: str
    payload: str
    secret: str
    attempt: int


def create_delivery(crawl: Crawl, api_key: ApiKey) -> WebhookDelivery:
    """Queue the crawl's CrawlResponse for the key's webhook URL (not committed)."""
    body = json.dumps(crawl.response, separators=(",", ":"), sort_keys=False)
    delivery = WebhookDelivery(id=new_uuid(), crawl_id=crawl.id, api_key_id=api_key.id, url=api_key.webhook_url,
                               payload=body, status="pending", next_attempt_at=utcnow())
    db.session.add(delivery)
    return delivery


def _claim_row(delivery: WebhookDelivery, settings: Settings) -> Claim | None:
    """Take the lease on a locked row (not committed); None when its key or attempts are gone (then failed)."""
    key = db.session.get(ApiKey, delivery.api_key_id)
    if key is None or not key.webhook_secret or delivery.attempts >= settings.webhook_attempts:
        # the key was deleted, or a worker died during the last attempt (its lease ran out)
        delivery.status, delivery.next_attempt_at = "failed", None
        return None
    delivery.attempts += 1
    delivery.next_attempt_at = utcnow() + timedelta(seconds=settings.webhook_timeout_s + LEASE_MARGIN_S)
    return Claim(delivery.id, delivery.api_key_id, delivery.url, delivery.payload, key.webhook_secret,
                 delivery.attempts)


def claim_one(delivery_id: str, settings: Settings) -> tuple[Claim | None, datetime | None]:
    """Claim this delivery for one attempt when it is pending and due, and commit (its job, queued.py).

    Returns ``(claim, None)``; ``(None, due)`` when it is pending but not due yet (a retry's
    time, or the lease of an attempt under way elsewhere); ``(None, None)`` when it ended, is
    gone, or its key or attempts are gone (then ``failed``).
    """
    delivery = db.session.get(WebhookDelivery, delivery_id, with_for_update=db.engine.dialect.name == "postgresql",
                              populate_existing=True)
    if delivery is None or delivery.status != "pending":
        db.session.rollback()
        return None, None
    due = to_utc(delivery.next_attempt_at) if delivery.next_attempt_at is not None else None  # SQLite drops the zone
    if due is not None and due > utcnow() + timedelta(seconds=1):
        db.session.rollback()
        return None, due
    claim = _claim_row(delivery, settings)
    db.session.commit()
    return claim, None


def send(claim: Claim, settings: Settings, resolve: Resolver = system_resolve) -> Outcome:
    """POST a claimed delivery once, signed (no database; see ``transport.post``)."""
    body = claim.payload.encode()
    return post(claim.url, body, {"Content-Type": "application/json", **sign(claim.secret, body, claim.delivery_id)},
                deadline_s=settings.webhook_timeout_s, allow_private=settings.allow_private_targets,
                resolve=resolve)


def _retryable(outcome: Outcome) -> bool:
    if outcome.refused:
        return outcome.retryable
    return outcome.status is None or outcome.status >= 500 or outcome.status in RETRY_STATUSES


def record(claim: Claim, outcome: Outcome, settings: Settings) -> WebhookAttempt | None:
    """Store the attempt and the delivery's next state in one short transaction, and commit.

    The state changes only when the row still carries this claim (same
    ``attempts``, still pending); a redelivery or a new claim after an expired
    lease wins.  Returns the attempt row (None when the delivery is gone).
    """
    delivery = db.session.get(WebhookDelivery, claim.delivery_id, with_for_update=True)
    if delivery is None:
        db.session.rollback()
        return None
    attempt_row = WebhookAttempt(delivery_id=claim.delivery_id, status_code=outcome.status, error=outcome.error,
                                 duration_ms=outcome.duration_ms)
    db.session.add(attempt_row)
    if delivery.status == "pending" and delivery.attempts == claim.attempt:
        if outcome.status is not None and 200 <= outcome.status < 300:
            delivery.status, delivery.next_attempt_at = "delivered", None
        elif not _retryable(outcome) or delivery.attempts >= settings.webhook_attempts:
            delivery.status, delivery.next_attempt_at = "failed", None
        else:
            step = BACKOFF_STEPS[min(delivery.attempts - 1, len(BACKOFF_STEPS) - 1)]
            delivery.next_attempt_at = utcnow() + timedelta(seconds=step * settings.webhook_retry_base_s)
    db.session.commit()
    log.info("webhook delivery %s attempt %d: %s", claim.delivery_id, claim.attempt, outcome.status or outcome.error)
    return attempt_row


def attempt(delivery: WebhookDelivery, settings: Settings, resolve: Resolver = system_resolve) -> WebhookAttempt:
    """Claim this delivery now (whatever its due time), send it once and record the outcome.

    Commits the claim before the POST and the outcome after it (the
    caller's pending changes are committed with the claim).  Returns the
    WebhookAttempt.
    """
    db.session.flush()  # assigns the delivery id, which is signed into the headers
    db.session.refresh(delivery, with_for_update=db.engine.dialect.name == "postgresql")
    claim = _claim_row(delivery, settings)
    db.session.commit()
    if claim is None:
        raise LookupError(f"delivery {delivery.id} cannot be sent (its API key is gone or attempts are exhausted)")
    return record(claim, send(claim, settings, resolve), settings)


def reopen(delivery_id: str, settings: Settings) -> WebhookAttempt:
    """Send a delivery again now, whatever its status (``queued.redeliver``, ``webhooks redeliver``).

    Raises ``LookupError`` for an unknown id.  Commits.
    """
    delivery = db.session.get(WebhookDelivery, delivery_id)
    if delivery is None:
        raise LookupError(f"no delivery {delivery_id}")
    delivery.status = "pending"
    delivery.attempts = min(delivery.attempts, settings.webhook_attempts - 1)
    return attempt(delivery, settings)
