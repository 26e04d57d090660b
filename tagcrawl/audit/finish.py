"""An audit's end: ``done`` once no page is queued or running, its summary, its webhook.

``maybe_finish`` runs after every page (and after discovery); the status moves
``running -> done`` in one conditional UPDATE, so exactly one job finishes an
audit and queues its webhook.  The summary is ``build_summary`` of the report
(tagcrawl/audit/report.py).

The webhook (``webhook_task``, a queue job retried with backoff) POSTs
``{"type": "audit.finished", "auditId", "status", "summary"}`` (a scheduled audit:
``schedules.schedule_webhook_payload``, with the diff) to the API key's webhook
URL when the body's ``webhook`` is true or the audit came from a schedule, signed with the key's webhook
secret exactly as crawl webhooks are (Standard Webhooks, tagcrawl/webhooks).
"""
from __future__ import annotations

import json
import logging

from procrastinate import RetryStrategy
from sqlalchemy import update

from tagcrawl.audit import report, report_cache
from tagcrawl.audit.pages import counts
from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, utcnow
from tagcrawl.core.settings import settings_of
from tagcrawl.webhooks.signing import sign
from tagcrawl.webhooks.transport import post

log = logging.getLogger(__name__)


class WebhookRetry(Exception):
    """The receiver answered 5xx/408/425/429 or could not be reached: retried."""


#: 6 attempts, waits 30 s x 1, 2, 3, ... (procrastinate linear_wait): about 7.5 minutes in all.
WEBHOOK_RETRY = RetryStrategy(max_attempts=6, linear_wait=30, retry_exceptions={WebhookRetry})


def maybe_finish(audit_id: str) -> bool:
    """Finish the audit when it is ``running`` and none of its pages is queued or running (commits).
    Returns True for the one call that finished it (it queues the webhook)."""
    left = counts(audit_id)
    if left["queued"] or left["running"]:
        db.session.rollback()
        return False
    moved = db.session.execute(update(Audit).where(Audit.id == audit_id, Audit.status == "running")
                               .values(status="done", finished_at=utcnow())
                               .execution_options(synchronize_session=False)).rowcount
    if moved != 1:
        db.session.rollback()
        return False
    audit = db.session.get(Audit, audit_id, populate_existing=True)
    pages = list(db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit.id)))
    built = report.build_report(audit, pages)
    audit.summary = report.build_summary(built)
    if report_cache.final(audit, built):  # done, nothing queued or running: the report cannot change
        report_cache.save(audit_id, built)
    db.session.commit()
    log.info("audit %s done: %s", audit_id, left)
    return True


def webhook_task(context, audit_id: str) -> None:
    """POST the finished audit's summary to its webhook once, signed; raises ``WebhookRetry`` for a
    retryable outcome.  Nothing to send without a URL or a webhook secret."""
    flask_app = context.additional_context["flask_app"]
    with flask_app.app_context():
        settings = settings_of(flask_app)
        audit = db.session.get(Audit, audit_id)
        key = db.session.get(ApiKey, audit.api_key_id) if audit is not None else None
        wanted = audit is not None and (bool((audit.config or {}).get("webhook")) or audit.schedule_id is not None)
        url = key.webhook_url if wanted and key is not None else None  # the body's `webhook` is a boolean
        if not url or not key.webhook_secret:
            return
        if audit.schedule_id is not None:  # a scheduled run: its summary and its diff
            from tagcrawl.audit.schedules import schedule_webhook_payload

            payload = schedule_webhook_payload(audit)
        else:
            payload = {"type": "audit.finished", "auditId": audit.id, "status": audit.status,
                       "summary": audit.summary}
        body = json.dumps(payload, separators=(",", ":"), default=str).encode()
        secret = key.webhook_secret
        db.session.rollback()
        headers = {"Content-Type": "application/json", **sign(secret, body, f"audit_{audit_id}")}
        outcome = post(url, body, headers, deadline_s=settings.webhook_timeout_s,
                       allow_private=settings.allow_private_targets)
        if outcome.status is not None and 200 <= outcome.status < 300:
            return
        if outcome.status is None or outcome.status >= 500 or outcome.status in (408, 425, 429):
            raise WebhookRetry(f"audit {audit_id} webhook: {outcome.status or outcome.error}")
        log.warning("audit %s webhook refused: %s", audit_id, outcome.status)
