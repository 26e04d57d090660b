"""Crawl rows: storing a finished crawl (and its HAR) and reading it back."""
from __future__ import annotations

import json

from tagcrawl.core.extensions import db
from tagcrawl.engine.har import build_har
from tagcrawl.core.models import ApiKey, Crawl, CrawlHar, utcnow
from tagcrawl.core.settings import Settings


def record_result(crawl: Crawl, response: dict) -> Crawl:
    """Put a finished crawl's CrawlResponse on its row (not committed):
    ``response``, ``success``, status ``done``/``failed``, ``time_taken_ms``
    (the response's ``timeTaken``) and ``finished_at``."""
    crawl.response, crawl.success = response, bool(response.get("success"))
    crawl.status = "done" if crawl.success else "failed"
    crawl.time_taken_ms, crawl.finished_at = response.get("timeTaken"), utcnow()
    return crawl


def record_har(crawl: Crawl, requests: list, settings: Settings) -> CrawlHar | None:
    """Attach the crawl's captured ``requests`` as a HAR (``tagcrawl.engine.har``),
    not committed.  Caps: ``HAR_MAX_BYTES`` / ``HAR_BODY_MAX_BYTES``; secrets
    kept only when the owner key has ``har_secrets`` (``flask pixels
    har-secrets``).  ``crawl`` must have an id (flushed).  None without requests."""
    if not requests:
        return None
    key = db.session.get(ApiKey, crawl.api_key_id) if crawl.api_key_id is not None else None
    keep = bool(key is not None and key.har_secrets)
    har = build_har(requests, crawl.url, body_cap=settings.har_body_max_bytes,
                    total_cap=settings.har_max_bytes, keep_secrets=keep)
    row = db.session.get(CrawlHar, crawl.id) or CrawlHar(crawl_id=crawl.id)
    row.har = json.dumps(har, ensure_ascii=False, default=str)
    row.entries, row.omitted = len(har["log"]["entries"]), int(har["log"].get("_omittedEntries", 0))
    row.secrets_kept, row.created_at = keep, utcnow()
    db.session.add(row)
    return row


def store_crawl(request_body: dict, response: dict, api_key_id: int | None, requests: list | None = None,
                settings: Settings | None = None) -> Crawl:
    """Store a finished crawl (status ``done`` or ``failed``), with its HAR
    when ``requests`` are given, and commit.

    Args:
        request_body: the validated request, JSON-serialisable.
        response: the CrawlResponse dict.
        api_key_id: owner key id, or None (CLI).
        requests: the captured requests (``CrawlOutcome.requests``).
        settings: the HAR caps (``har_max_bytes``, ``har_body_max_bytes``); default ``Settings()``.
    """
    row = record_result(Crawl(session_id=response["sessionId"], api_key_id=api_key_id, url=response["url"][:2048],
                              request=request_body, attempts=1), response)
    db.session.add(row)
    if requests:
        db.session.flush()
        record_har(row, requests, settings or Settings())
    db.session.commit()
    return row
