"""Queued (webhook) crawls: rows with status queued -> running -> done|failed.

A crawl is claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL,
so several instances share the queue, and gets a lease.  A crawl still
``running`` when its lease expires (its worker died) is claimed again, so
queued and interrupted crawls survive restarts.
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import or_

from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, Crawl, utcnow
from tagcrawl.core.settings import Settings
from tagcrawl.webhooks.delivery import create_delivery
from tagcrawl.crawl.records import record_har, record_result
from tagcrawl.crawl.service import run_crawl


def enqueue_crawl(request_json: dict, api_key_id: int) -> Crawl:
    """Store a queued crawl for the background worker and commit."""
    crawl = Crawl(session_id=request_json.get("session_id"), api_key_id=api_key_id, url=request_json["url"],
                  status="queued", request=request_json, webhook=True)
    db.session.add(crawl)
    db.session.commit()
    return crawl


def claim_next(lease_s: float) -> int | None:
    """Claim the oldest queued crawl, or a running one whose lease expired.

    Returns its id (now ``running`` with a fresh lease, committed) or None.
    """
    now = utcnow()
    query = (db.select(Crawl)
             .where(or_(Crawl.status == "queued",
                        (Crawl.status == "running") & (Crawl.lease_expires_at < now)))
             .order_by(Crawl.id).limit(1))
    if db.engine.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    crawl = db.session.scalars(query).first()
    if crawl is None:
        db.session.rollback()
        return None
    crawl.status, crawl.attempts = "running", crawl.attempts + 1
    crawl.lease_expires_at = now + timedelta(seconds=lease_s)
    db.session.commit()
    return crawl.id


def run_claimed(crawl_id: int, settings: Settings) -> Crawl:
    """Run a claimed crawl, store its CrawlResponse and queue its webhook.

    The response and the delivery are committed together, so a finished
    crawl always has its webhook queued.
    """
    crawl = db.session.get(Crawl, crawl_id)
    request_json = dict(crawl.request, session_id=crawl.session_id)
    db.session.rollback()  # no transaction held open during the crawl
    outcome = run_crawl(settings, request_json)
    crawl = db.session.get(Crawl, crawl_id)
    record_result(crawl, outcome.response)
    record_har(crawl, outcome.requests, settings)
    crawl.lease_expires_at = None
    key = db.session.get(ApiKey, crawl.api_key_id)
    if crawl.webhook and key is not None and key.webhook_url:
        create_delivery(crawl, key)
    db.session.commit()
    return crawl


def status_response(crawl: Crawl) -> dict:
    """The stored CrawlResponse, or ``{sessionId, url, success: false,
    message: <status>}`` while the crawl is queued or running."""
    if crawl.response is not None and crawl.status in ("done", "failed"):
        return crawl.response
    return {"sessionId": crawl.session_id, "url": crawl.url, "success": False, "message": crawl.status}
