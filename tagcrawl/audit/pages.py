"""An audit's pages: admitted once, claimed once, recorded once (docs/audits.md, "The queue").

Every (URL, scenario) of an audit is one ``AuditPage`` row; the unique
constraint on ``(audit_id, url, scenario)`` makes ``add_pages`` idempotent and
the row's status makes a page job that runs twice harmless:

- ``claim_page`` moves a row ``queued -> running`` in one conditional UPDATE
  (one winner when two workers race); a retried job (its worker died, or a
  service failure) may take a ``running`` row again, never a finished one;
- ``record_page`` writes ``done``/``failed`` only while the row is still
  ``running`` under the same claim (``attempts``), so a late duplicate is dropped.

The discovery types ``Found`` / ``Excluded`` are duck-typed here (``url``,
``depth``, ``source`` / ``url``, ``reason``, ``source``): they live in
``tagcrawl/audit/discovery`` (its own branch).
"""
from __future__ import annotations

from sqlalchemy import func, select, update

from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tagcrawl.core.models import utcnow

#: Keys of a crawl response's pixel / cookie kept in the compact page result.
PIXEL_KEYS = ("vendor", "account_id", "consent", "recognised", "organisation")
COOKIE_KEYS = ("name", "domain", "party", "expires", "phase", "vendor", "organisation")
CONSENT_KEYS = ("banner", "cmp", "action", "verified", "violations", "before_consent")
#: Bounds of the compact result (the crawl response is capped already; these keep AuditPage.result small).
PIXELS_MAX, COOKIES_MAX, THIRD_PARTIES_MAX = 500, 500, 200
ERROR_MAX = 500


def _limit(audit: Audit) -> int:
    config = audit.config or {}
    return int(config.get("maxPages") or config.get("max_pages") or 500)


def add_pages(audit_id: str, items: list, scenarios: tuple[str, ...]) -> list[int]:
    """Insert-or-ignore the discovered ``items`` once per scenario and commit.

    Args:
        audit_id: the audit.
        items: ``Found`` (``url``, ``depth``, ``source``) or ``Excluded`` (``url``, ``reason``, ``source``:
            stored as the row's ``source``, ``start`` / ``sitemap`` / ``link``), at most
            the audit's ``maxPages`` of them are looked at (bound enforced before any insert).
        scenarios: consent actions (``accept``/``reject``/``none``), at most 3.
    Returns:
        Ids of the rows this call created with status ``queued`` (to enqueue).  A URL past ``maxPages``
        (distinct URLs of the audit) is stored ``excluded`` with reason ``limit``.  Idempotent.
    """
    audit = db.session.get(Audit, audit_id, with_for_update=db.engine.dialect.name == "postgresql")
    if audit is None:
        db.session.rollback()
        raise LookupError(f"no audit {audit_id}")
    limit, scenarios = _limit(audit), tuple(scenarios)[:3]
    known = set(db.session.scalars(select(AuditPage.url).where(AuditPage.audit_id == audit_id).distinct()))
    admitted = sum(1 for _ in db.session.scalars(
        select(AuditPage.url).where(AuditPage.audit_id == audit_id, AuditPage.status != "excluded").distinct()))
    created: list[int] = []
    for item in list(items)[:max(limit, 1) * 2]:
        url = item.url[:2048]
        if url in known:
            continue
        known.add(url)
        reason = getattr(item, "reason", None)
        if reason is None and admitted >= limit:
            reason = "limit"
        status = "excluded" if reason else "queued"
        admitted += status == "queued"
        for scenario in scenarios:
            row = AuditPage(audit_id=audit_id, url=url, scenario=scenario, status=status, reason=reason,
                            depth=getattr(item, "depth", 0), source=getattr(item, "source", "link"))
            nested = db.session.begin_nested()  # the unique constraint: another worker may have it already
            try:
                db.session.add(row)
                db.session.flush()
                nested.commit()
            except Exception:  # noqa: BLE001 - IntegrityError: inserted meanwhile, ignore
                nested.rollback()
                continue
            if status == "queued":
                created.append(row.id)
    db.session.commit()
    return created


def claim_page(page_id: int, retry: bool) -> tuple[AuditPage, int] | None:
    """Take a page for crawling and commit: ``queued -> running`` (or ``running`` again when ``retry``).

    Returns ``(page, attempt)`` (``attempt``: the row's ``attempts`` after the claim, passed to
    ``record_page``), or None when the page is finished, excluded, gone or claimed by another job.
    """
    allowed = ("queued", "running") if retry else ("queued",)
    result = db.session.execute(
        update(AuditPage).where(AuditPage.id == page_id, AuditPage.status.in_(allowed))
        .values(status="running", attempts=AuditPage.attempts + 1, started_at=utcnow())
        .execution_options(synchronize_session=False))
    if result.rowcount != 1:
        db.session.rollback()
        return None
    db.session.commit()
    page = db.session.get(AuditPage, page_id, populate_existing=True)
    return page, page.attempts


def record_page(page_id: int, crawl_response: dict, crawl_id: int | None, attempt: int | None = None) -> bool:
    """Store the page's outcome and commit: ``done`` when the crawl succeeded, else ``failed``.

    Args:
        page_id: the AuditPage.
        crawl_response: the CrawlResponse dict (``page_result`` keeps its compact part).
        crawl_id: the stored Crawl row (full response, screenshots, HAR), or None.
        attempt: the claim's ``attempts`` (``claim_page``); None: any running claim.
    Returns:
        True when stored; False when the row was no longer ``running`` under that claim (a duplicate).
    """
    result = page_result(crawl_response)
    error = crawl_response.get("error") or {}
    where = [AuditPage.id == page_id, AuditPage.status == "running"]
    if attempt is not None:
        where.append(AuditPage.attempts == attempt)
    done = db.session.execute(
        update(AuditPage).where(*where)
        .values(status="done" if crawl_response.get("success") else "failed", result=result, crawl_id=crawl_id,
                error=(error.get("message") or None) and str(error["message"])[:ERROR_MAX], finished_at=utcnow())
        .execution_options(synchronize_session=False))
    db.session.commit()
    return done.rowcount == 1


def page_result(crawl_response: dict) -> dict:
    """The compact per-page result stored in ``AuditPage.result`` (docs/audits.md, "Page result").

    Keys follow the CrawlResponse (docs/api.md): ``url``, ``finalUrl``, ``pageStatus``, ``success``,
    ``error`` (message or None), ``errorCode``, ``blocked`` (the ``button.error_message``),
    ``pixels`` (``PIXEL_KEYS`` of each ``marketingPixels`` entry, at most ``PIXELS_MAX``), ``consent``
    (``CONSENT_KEYS``), ``beforeConsent``, ``violations``, ``rules`` (``validationResults``), ``cookies``
    (``COOKIE_KEYS``, at most ``COOKIES_MAX``), ``thirdParties`` (at most ``THIRD_PARTIES_MAX``),
    ``sessionId``, ``timeTaken`` (ms), ``links`` (count only).
    """
    response = crawl_response or {}
    error = response.get("error") or {}
    consent = response.get("consent") or {}
    button = response.get("button") or {}
    return {
        "url": response.get("url"), "finalUrl": response.get("finalUrl"), "pageStatus": response.get("pageStatus"),
        "success": bool(response.get("success")), "error": error.get("message"), "errorCode": error.get("code"),
        "blocked": button.get("error_message"),
        "pixels": [{k: p.get(k) for k in PIXEL_KEYS} for p in (response.get("marketingPixels") or [])[:PIXELS_MAX]],
        "consent": {k: consent.get(k) for k in CONSENT_KEYS if k in consent} or None,
        "beforeConsent": consent.get("before_consent") or [], "violations": consent.get("violations") or [],
        "rules": response.get("validationResults") or [],
        "cookies": [{k: c.get(k) for k in COOKIE_KEYS if k in c} for c in (response.get("cookies") or [])[:COOKIES_MAX]],
        "thirdParties": (response.get("thirdParties") or [])[:THIRD_PARTIES_MAX],
        "sessionId": response.get("sessionId"), "timeTaken": response.get("timeTaken"),
        "links": len(response.get("links") or []),
    }


def counts(audit_id: str) -> dict[str, int]:
    """Pages of the audit by status (every status of ``PAGE_STATUSES``, 0 when none) plus ``discovered``
    (distinct URLs x scenarios, excluded included).  One grouped query."""
    rows = db.session.execute(select(AuditPage.status, func.count()).where(AuditPage.audit_id == audit_id)
                              .group_by(AuditPage.status)).all()
    out = {status: 0 for status in ("queued", "running", "done", "failed", "excluded")}
    out.update({status: n for status, n in rows})
    out["discovered"] = sum(n for _s, n in rows)
    return out


def queued_ids(audit_id: str, limit: int) -> list[int]:
    """Ids of the audit's ``queued`` pages, at most ``limit`` (the audit's maxPages x scenarios)."""
    return list(db.session.scalars(select(AuditPage.id).where(AuditPage.audit_id == audit_id,
                                                              AuditPage.status == "queued")
                                   .order_by(AuditPage.id).limit(limit)))


def exclude_queued(audit_id: str, reason: str) -> int:
    """Mark the audit's queued pages ``excluded`` with ``reason`` (a cancel), not committed; returns how many."""
    return db.session.execute(update(AuditPage).where(AuditPage.audit_id == audit_id, AuditPage.status == "queued")
                              .values(status="excluded", reason=reason)
                              .execution_options(synchronize_session=False)).rowcount


__all__ = ["add_pages", "claim_page", "counts", "exclude_queued", "page_result", "queued_ids", "record_page"]
