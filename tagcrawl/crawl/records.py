"""Crawl rows: storing a finished crawl and reading it back."""
from __future__ import annotations

from ..extensions import db
from ..models import Crawl, utcnow


def store_crawl(request_body: dict, response: dict, api_key_id: int | None) -> Crawl:
    """Store a finished crawl (status ``done`` or ``failed``) and commit.

    Args:
        request_body: the validated request, JSON-serialisable.
        response: the CrawlResponse dict.
        api_key_id: owner key id, or None (CLI).
    """
    row = Crawl(session_id=response["sessionId"], api_key_id=api_key_id, url=response["url"][:2048],
                status="done" if response.get("success") else "failed", success=bool(response.get("success")),
                request=request_body, response=response, time_taken_ms=response.get("timeTaken"),
                attempts=1, finished_at=utcnow())
    db.session.add(row)
    db.session.commit()
    return row
