"""Site audits (services layer): discovery, the page jobs on the task queue,
the report, the diff between runs and schedules (docs/audits.md).

The audit service drives the crawl service (``tagcrawl.crawl``) once per
(page, consent scenario) and stores each outcome as an ``AuditPage`` row
(``core/audit_models.py``)."""
