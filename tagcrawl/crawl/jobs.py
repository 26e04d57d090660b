"""Queued (webhook) crawls: rows with status queued -> running -> done|failed.

Each row has one job on the job queue (crawl/queued.py, ``enqueue_crawl``): queued and
interrupted crawls survive restarts.  ``crawls.lease_expires_at`` (the hand-written lease
of before, migration 0003) stays readable and is no longer written.
"""
from __future__ import annotations

from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, Crawl
from tagcrawl.core.settings import Settings
from tagcrawl.webhooks.delivery import create_delivery
from tagcrawl.crawl.records import record_har, record_result
from tagcrawl.crawl.service import run_crawl


def run_crawl_row(crawl_id: int, settings: Settings) -> Crawl:
    """Run a claimed (``running``) crawl, store its CrawlResponse and its webhook delivery.

    The response and the delivery are committed together, so a finished crawl always has
    its delivery row; its job is queued right after (``webhooks.queued.defer_new``).
    """
    crawl = db.session.get(Crawl, crawl_id)
    request_json = dict(crawl.request, session_id=crawl.session_id)
    db.session.rollback()  # no transaction held open during the crawl
    outcome = run_crawl(settings, request_json)
    crawl = db.session.get(Crawl, crawl_id)
    record_result(crawl, outcome.response)
    record_har(crawl, outcome.requests, settings)
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
