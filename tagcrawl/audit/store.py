"""Reading audits for the API and the CLI: tenancy, counts, progress, the report and the diff's base.

Every query is scoped to one API key where a key is given (a key sees only its
own audits).  ``load_pages`` reads at most ``PAGES_MAX`` rows of one audit.
"""
from __future__ import annotations

from datetime import datetime, timezone

from tagcrawl.audit import report_cache
from tagcrawl.audit.diff import build_diff
from tagcrawl.audit.report import build_report
from tagcrawl.core.audit_models import PAGE_STATUSES, Audit, AuditPage
from tagcrawl.core.extensions import db

PAGES_MAX = 3 * 100_000 + 100_000  # three scenarios of the largest audit, plus excluded URLs


def get_audit(audit_id: str, api_key_id: int | None) -> Audit | None:
    """The audit ``audit_id`` when it belongs to ``api_key_id`` (None: any key, the operator's CLI)."""
    if not isinstance(audit_id, str) or len(audit_id) > 36 or "\x00" in audit_id:
        return None
    audit = db.session.get(Audit, audit_id)
    if audit is None or (api_key_id is not None and audit.api_key_id != api_key_id):
        return None
    return audit


def page_counts(audit_id: str) -> dict:
    """``{discovered, queued, running, done, failed, excluded}``: rows by status (discovered: all rows)."""
    rows = db.session.execute(db.select(AuditPage.status, db.func.count()).where(AuditPage.audit_id == audit_id)
                              .group_by(AuditPage.status)).all()
    counts = {status: 0 for status in PAGE_STATUSES}
    counts.update({status: int(n) for status, n in rows})
    return {"discovered": sum(counts.values()), **counts}


def progress(audit: Audit, counts: dict, now: datetime | None = None) -> tuple[float | None, int | None]:
    """``(rate, eta)``: pages finished per minute since the audit started, and the seconds left at that rate
    for the queued and running pages (None while nothing finished)."""
    if audit.started_at is None:
        return None, None
    end = audit.finished_at or now or datetime.now(timezone.utc)
    started = audit.started_at if audit.started_at.tzinfo else audit.started_at.replace(tzinfo=timezone.utc)
    end = end if end.tzinfo else end.replace(tzinfo=timezone.utc)
    minutes = max((end - started).total_seconds(), 1.0) / 60
    finished = counts["done"] + counts["failed"]
    if not finished:
        return None, None
    rate = finished / minutes
    left = counts["queued"] + counts["running"]
    return round(rate, 2), (round(left / rate * 60) if audit.finished_at is None else 0)


def status_of(audit: Audit) -> dict:
    """The ``AuditStatus`` answer of ``audit``."""
    counts = page_counts(audit.id)
    rate, eta = progress(audit, counts)
    iso = lambda t: t.isoformat() if t is not None else None  # noqa: E731
    return {"auditId": audit.id, "status": audit.status, "pages": counts, "rate": rate, "eta": eta,
            "createdAt": iso(audit.created_at), "startedAt": iso(audit.started_at),
            "finishedAt": iso(audit.finished_at), "summary": audit.summary, "error": audit.error}


def load_pages(audit_id: str) -> list[AuditPage]:
    """The audit's page rows, oldest first, at most ``PAGES_MAX``."""
    return list(db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)
                                   .order_by(AuditPage.id).limit(PAGES_MAX)))


def report_of(audit: Audit) -> dict:
    """The report of ``audit``: a finished audit's stored report (``report_cache``), else ``build_report``
    over its pages, stored (and committed) when the audit has finished (``report_cache.final``)."""
    saved = report_cache.cached(audit.id)
    if saved is not None:
        return saved
    report = build_report(audit, load_pages(audit.id))
    if report_cache.final(audit, report) and report_cache.save(audit.id, report):
        db.session.commit()
    return report


def previous_audit(audit: Audit) -> Audit | None:
    """The newest finished audit of the same key with the same ``config_hash``, created before ``audit``."""
    return db.session.scalars(
        db.select(Audit).where(Audit.api_key_id == audit.api_key_id, Audit.config_hash == audit.config_hash,
                               Audit.id != audit.id, Audit.created_at <= audit.created_at,
                               Audit.status == "done")
        .order_by(Audit.created_at.desc()).limit(1)).first()


def diff_of(audit: Audit, against: Audit) -> dict:
    """``build_diff`` from ``against``'s report to ``audit``'s."""
    return build_diff(report_of(against), report_of(audit))


def running_count(api_key_id: int) -> int:
    """This key's audits that are queued or running (the concurrent-audit quota)."""
    return int(db.session.scalar(db.select(db.func.count()).select_from(Audit).where(
        Audit.api_key_id == api_key_id, Audit.status.in_(("queued", "running")))) or 0)
