"""Database models of site audits (docs/audits.md).

An ``Audit`` is one run over a site: its validated request body (``config``),
its status and its pages.  An ``AuditPage`` is one (URL, consent scenario)
pair: the unique constraint on ``(audit_id, url, scenario)`` is what makes
every page appear in the report exactly once, whatever worker is killed and
whatever job runs twice.  An ``AuditSchedule`` runs an audit body on a cron
expression.

Statuses:
- audit: ``queued``, ``running``, ``done``, ``failed``, ``cancelled``;
- page: ``queued``, ``running``, ``done``, ``failed`` (the page could not be
  crawled: reported, not retried), ``excluded`` (discovered, not crawled:
  ``reason`` says why: ``robots``, ``include``, ``exclude``, ``offsite``,
  ``ssrf``, ``limit``, ``depth``).
"""
from __future__ import annotations

from tagcrawl.core.extensions import db
from tagcrawl.core.models import JSONType, new_uuid, utcnow

AUDIT_STATUSES = ("queued", "running", "done", "failed", "cancelled")
PAGE_STATUSES = ("queued", "running", "done", "failed", "excluded")
SCENARIOS = ("accept", "reject", "none")


class Audit(db.Model):
    """One audit of a site by one API key.

    ``config`` is the request body as validated (``AuditRequestSchema``);
    ``config_hash`` is the SHA-256 hex of its canonical JSON without the
    webhook, so ``diff`` finds "the previous audit with the same
    configuration".  ``summary`` is the report's summary, stored when the audit
    ends (the webhook payload and the diff read it)."""

    __tablename__ = "audits"
    __table_args__ = (db.Index("ix_audits_key_config", "api_key_id", "config_hash", "created_at"),)
    id = db.Column(db.String(36), primary_key=True, default=new_uuid)
    api_key_id = db.Column(db.Integer, db.ForeignKey("api_keys.id"), nullable=False, index=True)
    schedule_id = db.Column(db.String(36), db.ForeignKey("audit_schedules.id", ondelete="SET NULL"), index=True)
    status = db.Column(db.String(16), nullable=False, default="queued", index=True)
    config = db.Column(JSONType, nullable=False)
    config_hash = db.Column(db.String(64), nullable=False)
    error = db.Column(db.String(500))
    summary = db.Column(JSONType)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, index=True)
    started_at = db.Column(db.DateTime(timezone=True))
    finished_at = db.Column(db.DateTime(timezone=True))


class AuditPage(db.Model):
    """One (URL, scenario) of an audit and its outcome.

    ``url`` is the normalized URL (fragment and session parameters dropped);
    ``depth`` is 0 for start URLs and sitemap URLs, n for a link found n clicks
    away; ``source`` is ``start``, ``sitemap`` or ``link``.  ``result`` is the
    page's compact result (final URL, HTTP status, pixels, consent phases,
    violations, rule results, cookies, third parties, errors); ``crawl_id``
    links the full CrawlResponse (screenshots, HAR)."""

    __tablename__ = "audit_pages"
    __table_args__ = (db.UniqueConstraint("audit_id", "url", "scenario", name="uq_audit_pages_url_scenario"),
                      db.Index("ix_audit_pages_audit_status", "audit_id", "status"))
    id = db.Column(db.BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    audit_id = db.Column(db.String(36), db.ForeignKey("audits.id", ondelete="CASCADE"), nullable=False)
    url = db.Column(db.String(2048), nullable=False)
    scenario = db.Column(db.String(8), nullable=False)
    depth = db.Column(db.Integer, nullable=False, default=0)
    source = db.Column(db.String(8), nullable=False, default="start")
    status = db.Column(db.String(16), nullable=False, default="queued")
    reason = db.Column(db.String(32))
    crawl_id = db.Column(db.Integer, db.ForeignKey("crawls.id", ondelete="SET NULL"))
    result = db.Column(JSONType)
    error = db.Column(db.String(500))
    attempts = db.Column(db.Integer, nullable=False, default=0)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    started_at = db.Column(db.DateTime(timezone=True))
    finished_at = db.Column(db.DateTime(timezone=True))


class AuditSchedule(db.Model):
    """An audit body run on a cron expression (5 fields, UTC).  ``next_run_at``
    is when the scheduler starts the next run; ``last_audit_id`` is the last
    audit it started (its diff against the one before goes to the webhook)."""

    __tablename__ = "audit_schedules"
    id = db.Column(db.String(36), primary_key=True, default=new_uuid)
    api_key_id = db.Column(db.Integer, db.ForeignKey("api_keys.id"), nullable=False, index=True)
    cron = db.Column(db.String(120), nullable=False)
    body = db.Column(JSONType, nullable=False)
    enabled = db.Column(db.Boolean, nullable=False, default=True)
    next_run_at = db.Column(db.DateTime(timezone=True), nullable=False, index=True)
    last_audit_id = db.Column(db.String(36))
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)


class AuditReport(db.Model):
    """A finished audit's report, built once (``tagcrawl/audit/report_cache.py``): ``report`` is the
    ``build_report`` dict of an audit that is ``done``, ``failed`` or ``cancelled`` with no page queued
    or running (it cannot change any more); ``size`` is its JSON length in bytes, at most
    ``report_cache.CACHE_MAX_BYTES`` (a larger report is not stored: it is built on every read)."""

    __tablename__ = "audit_reports"
    audit_id = db.Column(db.String(36), db.ForeignKey("audits.id", ondelete="CASCADE"), primary_key=True)
    report = db.Column(JSONType, nullable=False)
    size = db.Column(db.Integer, nullable=False)
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
