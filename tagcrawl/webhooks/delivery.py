"""Webhook delivery: create, attempt, schedule retries, redeliver.

Retries back off exponentially: after attempt n the next waits
``BACKOFF_STEPS[n-1] * WEBHOOK_RETRY_BASE_S`` (30 s, 90 s, 4.5 min, 9 min,
15 min with the default 30 s base), so 6 attempts span about 30 minutes.
Retried: 5xx, 408/425/429, timeouts and connection errors.  Every attempt is recorded with its
status code and duration (ms).  Targets go through the SSRF guard.
"""
from __future__ import annotations

import json
import logging
import time
from datetime import timedelta

import requests

from ..extensions import db
from ..models import ApiKey, Crawl, WebhookAttempt, WebhookDelivery, new_uuid, utcnow
from ..netguard import url_refusal
from ..settings import Settings
from .signing import sign

log = logging.getLogger(__name__)

#: Delay before attempt 2..6, as multiples of WEBHOOK_RETRY_BASE_S (30 s):
#: 30 s, 90 s, 270 s, 540 s, 900 s -> about 30 minutes in all.
BACKOFF_STEPS = (1, 3, 9, 18, 30)
RETRY_STATUSES = {408, 425, 429}


def create_delivery(crawl: Crawl, api_key: ApiKey) -> WebhookDelivery:
    """Queue the crawl's CrawlResponse for the key's webhook URL (not committed)."""
    body = json.dumps(crawl.response, separators=(",", ":"), sort_keys=False)
    delivery = WebhookDelivery(id=new_uuid(), crawl_id=crawl.id, api_key_id=api_key.id, url=api_key.webhook_url,
                               payload=body, status="pending", next_attempt_at=utcnow())
    db.session.add(delivery)
    return delivery


def _retryable(status: int | None) -> bool:
    return status is None or status >= 500 or status in RETRY_STATUSES


def attempt(delivery: WebhookDelivery, settings: Settings) -> WebhookAttempt:
    """POST the delivery once, record the attempt and schedule the next one.

    The caller commits.  Returns the WebhookAttempt.
    """
    if delivery.id is None:
        db.session.flush()  # assigns the delivery id, which is signed into the headers
    key = db.session.get(ApiKey, delivery.api_key_id)
    body = delivery.payload.encode()
    started = time.perf_counter()
    status, error = None, None
    refusal = url_refusal(delivery.url, settings.allow_private_targets)
    if refusal:
        error = f"refused target: {refusal}"
    else:
        try:
            response = requests.post(
                delivery.url, data=body, timeout=settings.webhook_timeout_s, allow_redirects=False,
                headers={"Content-Type": "application/json", "User-Agent": "tagcrawl-webhooks/0.1",
                         **sign(key.webhook_secret, body, delivery.id)})
            status = response.status_code
        except requests.RequestException as exc:
            error = f"{exc.__class__.__name__}: {exc}"[:500]
    record = WebhookAttempt(status_code=status, error=error, duration_ms=int((time.perf_counter() - started) * 1000))
    delivery.attempt_log.append(record)
    delivery.attempts += 1
    if status is not None and 200 <= status < 300:
        delivery.status, delivery.next_attempt_at = "delivered", None
    elif refusal or not _retryable(status) or delivery.attempts >= settings.webhook_attempts:
        delivery.status, delivery.next_attempt_at = "failed", None
    else:
        step = BACKOFF_STEPS[min(delivery.attempts - 1, len(BACKOFF_STEPS) - 1)]
        delivery.next_attempt_at = utcnow() + timedelta(seconds=step * settings.webhook_retry_base_s)
    log.info("webhook delivery %s attempt %d: %s", delivery.id, delivery.attempts, status or error)
    return record


def claim_due(limit: int = 10) -> list[WebhookDelivery]:
    """Pending deliveries whose time has come, locked for this transaction
    (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so instances share the work)."""
    query = (db.select(WebhookDelivery)
             .where(WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= utcnow())
             .order_by(WebhookDelivery.next_attempt_at).limit(limit))
    if db.engine.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return list(db.session.scalars(query))


def next_due_in_s() -> float | None:
    """Seconds until the next pending delivery is due (None when none)."""
    due = db.session.scalar(db.select(db.func.min(WebhookDelivery.next_attempt_at))
                            .where(WebhookDelivery.status == "pending"))
    if due is None:
        return None
    if due.tzinfo is None:  # SQLite drops the zone
        due = due.replace(tzinfo=utcnow().tzinfo)
    return max(0.0, (due - utcnow()).total_seconds())


def redeliver(delivery_id: str, settings: Settings) -> WebhookAttempt:
    """Send a delivery again now, whatever its status (``webhooks redeliver``).

    Raises ``LookupError`` for an unknown id.  Commits.
    """
    delivery = db.session.get(WebhookDelivery, delivery_id)
    if delivery is None:
        raise LookupError(f"no delivery {delivery_id}")
    delivery.status = "pending"
    delivery.attempts = min(delivery.attempts, settings.webhook_attempts - 1)
    record = attempt(delivery, settings)
    db.session.commit()
    return record
