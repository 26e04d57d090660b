"""Crawl rows: storing a finished crawl and reading it back."""
from __future__ import annotations

from ..extensions import db
from ..models import Crawl, utcnow


def record_result(crawl: Crawl, response: dict) -> Crawl:
    """Put a finished crawl's CrawlResponse on its row (not committed):
    ``response``, ``success``, status ``done``/``failed``, ``time_taken_ms``
    (the response's ``timeTaken``) and ``finished_at``."""
    crawl.response, crawl.success = response, bool(response.get("success"))
    crawl.status = "done" if crawl.success else "failed"
    crawl.time_taken_ms, crawl.finished_at = response.get("timeTaken"), utcnow()
    return crawl


def store_crawl(request_body: dict, response: dict, api_key_id: int | None) -> Crawl:
    """Store a finished crawl (status ``done`` or ``failed``) and commit.

    Args:
        request_body: the validated request, JSON-serialisable.
        response: the CrawlResponse dict.
        api_key_id: owner key id, or None (CLI).
    """
    row = record_result(Crawl(session_id=response["sessionId"], api_key_id=api_key_id, url=response["url"][:2048],
                              request=request_body, attempts=1), response)
    db.session.add(row)
    db.session.commit()
    return row
