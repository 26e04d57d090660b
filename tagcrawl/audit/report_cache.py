"""A finished audit's report, stored once and served from there (docs/audits.md, "The report is stored once").

An audit's report is ``build_report`` over every page row; once the audit is
``done``, ``failed`` or ``cancelled`` and none of its pages is ``queued`` or
``running`` (a cancelled audit's running pages still finish), nothing can
change it any more, so it is kept in ``audit_reports`` (``AuditReport``,
migration ``0010_audit_reports``): ``finish.maybe_finish`` stores it when the
audit ends, ``store.report_of`` stores it on the first read of any other
finished audit (cancelled, failed, or finished before that revision), and
every later read (``/report``, ``report.csv``, ``cookies.csv``, the HTML page,
the diff's inputs, the CLI) returns the stored JSON.  A running audit's report
is built on every read.

Bound: a report whose JSON is over :data:`CACHE_MAX_BYTES` is not stored (it is
built on every read, as before; logged once per read).
"""
from __future__ import annotations

import json
import logging

from sqlalchemy.exc import IntegrityError

from tagcrawl.core.audit_models import AuditReport
from tagcrawl.core.extensions import db

log = logging.getLogger(__name__)

#: Statuses after which an audit queues no page any more.
FINAL = ("done", "failed", "cancelled")
#: Largest stored report, bytes of compact JSON (the report's lists are capped at ``report.LIST_MAX``
#: entries each; 5,000 pages x 3 scenarios of a few hundred bytes each stay well under it).
CACHE_MAX_BYTES = 32 * 1024 * 1024


def cached(audit_id: str) -> dict | None:
    """The stored report of ``audit_id``, or None (not finished, not stored yet, or over the cap)."""
    row = db.session.get(AuditReport, audit_id)
    return row.report if row is not None else None


def final(audit, report: dict) -> bool:
    """True when ``report`` (``build_report`` of ``audit``) cannot change any more: the audit's status is
    in :data:`FINAL` and the report counts no page ``queued`` or ``running``."""
    counts = report.get("counts") or {}
    return audit.status in FINAL and not counts.get("queued") and not counts.get("running")


def save(audit_id: str, report: dict) -> bool:
    """Add the stored report of ``audit_id`` to the session (a savepoint; the caller commits).

    Args:
        audit_id: the finished audit.
        report: its ``build_report`` dict (JSON-serialisable; datetimes are ISO strings already).
    Returns:
        True when added; False when its JSON is over :data:`CACHE_MAX_BYTES` (checked before the insert)
        or another request stored it meanwhile (the primary key; this insert is dropped).
    """
    body = json.dumps(report, separators=(",", ":"), default=str)
    size = len(body.encode("utf-8"))
    if size > CACHE_MAX_BYTES:
        log.warning("audit %s: report of %d bytes over the %d-byte cache cap, built on every read",
                    audit_id, size, CACHE_MAX_BYTES)
        return False
    nested = db.session.begin_nested()
    try:
        db.session.add(AuditReport(audit_id=audit_id, report=json.loads(body), size=size))
        db.session.flush()
        nested.commit()
    except IntegrityError:  # stored by a concurrent read
        nested.rollback()
        return False
    return True
