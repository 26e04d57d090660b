"""Audit schedules (docs/audits.md, "Schedules"): an audit body run on a cron expression.

- ``validate_cron``: 5 fields (minute hour day month weekday, UTC) or a croniter
  alias (``@daily``); two runs at least ``AUDIT_SCHEDULE_MIN_INTERVAL_S`` apart
  over the next ``GAPS_CHECKED`` runs.
- ``create_schedule``: validates the cron and the audit body (as ``POST /audits``),
  applies the per-key schedule quota, stores it.
- ``run_due_schedules(now)``: the worker's periodic check.  Each due schedule
  is claimed by a conditional update of its ``next_run_at`` (``WHERE
  next_run_at = <the due time read>``), in the same transaction as the new
  audit: with two workers, one run per due time starts once.  At most
  ``DUE_BATCH`` schedules per call.
- ``schedule_webhook_payload(audit)``: the summary and the diff against the
  schedule's previous audit, which the runner posts, signed, to the key's webhook.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timezone

from croniter import CroniterError, croniter
from marshmallow import ValidationError

from tagcrawl.audit import store
from tagcrawl.audit.config import canonical_body, config_hash, parse_config
from tagcrawl.audit.limits import AuditLimits
from tagcrawl.audit.report import build_summary
from tagcrawl.core.audit_models import Audit, AuditSchedule
from tagcrawl.core.extensions import db
from tagcrawl.core.schemas.coded import Coded

log = logging.getLogger(__name__)
GAPS_CHECKED = 50
DUE_BATCH = 100
PAYLOAD_ITEMS_MAX = 100  # per list of the diff in a webhook body
PAYLOAD_URLS_MAX = 20  # per page list of one entry


class ScheduleQuotaExceeded(Exception):
    """The API key already has ``AUDIT_MAX_SCHEDULES`` schedules (the view answers 429)."""


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def next_run(cron: str, after: datetime) -> datetime:
    """The first run of ``cron`` strictly after ``after`` (UTC)."""
    return croniter(cron, _utc(after)).get_next(datetime)


def validate_cron(cron: str, min_interval_s: int, now: datetime | None = None) -> None:
    """Refuse a cron expression that does not parse, has seconds or runs more often than ``min_interval_s``.

    Raises:
        ValidationError: ``{"cron": [message]}`` (types ``cron_invalid``, ``cron_too_frequent``).
    """
    if not isinstance(cron, str) or not croniter.is_valid(cron) or (
            not cron.startswith("@") and len(cron.split()) != 5):
        raise ValidationError({"cron": [Coded("Not a cron expression of 5 fields (minute hour day month "
                                              "weekday, UTC).", "cron_invalid")]})
    runs = croniter(cron, _utc(now or datetime.now(timezone.utc)))
    try:
        previous = runs.get_next(datetime)
    except CroniterError:  # a date that never comes (31 February)
        raise ValidationError({"cron": [Coded("This cron expression never runs.", "cron_invalid")]}) from None
    for _ in range(GAPS_CHECKED):
        current = runs.get_next(datetime)
        if (current - previous).total_seconds() < min_interval_s:
            raise ValidationError({"cron": [Coded(f"Runs more often than every {min_interval_s} s.",
                                                  "cron_too_frequent")]})
        previous = current


def create_schedule(cron: str, body: dict, api_key_id: int, limits: AuditLimits,
                    now: datetime | None = None) -> AuditSchedule:
    """Validate and store a schedule of ``body`` (an audit request) on ``cron`` for ``api_key_id``.

    Raises:
        ValidationError: a bad cron or body (``{"cron"|"audit": ...}``).
        ScheduleQuotaExceeded: the key already has ``audit_max_schedules`` schedules.
        Nothing is stored then.
    """
    validate_cron(cron, limits.audit_schedule_min_interval_s, now)
    try:
        parse_config(body, limits)
    except ValidationError as err:
        raise ValidationError({"audit": err.messages}) from None
    count = db.session.scalar(db.select(db.func.count()).select_from(AuditSchedule)
                              .where(AuditSchedule.api_key_id == api_key_id))
    if count >= limits.audit_max_schedules:
        raise ScheduleQuotaExceeded(f"At most {limits.audit_max_schedules} schedules per API key.")
    schedule = AuditSchedule(api_key_id=api_key_id, cron=cron, body=canonical_body(body),
                             next_run_at=next_run(cron, now or datetime.now(timezone.utc)))
    db.session.add(schedule)
    db.session.commit()
    return schedule


def _claim(schedule_id: str, due: datetime, cron: str, now: datetime) -> bool:
    """Move the schedule's ``next_run_at`` from ``due`` to the next run after ``now``; True when this
    call did it (another worker that read the same ``due`` gets False)."""
    updated = db.session.execute(
        db.update(AuditSchedule).where(AuditSchedule.id == schedule_id, AuditSchedule.next_run_at == due)
        .values(next_run_at=next_run(cron, now)).execution_options(synchronize_session=False))
    return updated.rowcount == 1


def run_due_schedules(now: datetime, limits: AuditLimits | None = None,
                      start: Callable[[str], None] | None = None) -> list[str]:
    """Store one audit for each enabled schedule due at ``now`` (at most ``DUE_BATCH``) and start it.

    Args:
        now: the current time (UTC).
        limits: the audit limits (default: the current app's).
        start: called with each new audit's id (the runner's periodic job passes ``runner.start_audit``;
            None: the audits stay ``queued``).  Passed in, not imported: the runner imports this module.
    Returns:
        the ids of the audits stored, in due order.
    """
    if limits is None:
        from tagcrawl.audit.limits import current_limits
        limits = current_limits()
    now = _utc(now)
    due = db.session.execute(db.select(AuditSchedule.id, AuditSchedule.next_run_at, AuditSchedule.cron,
                                       AuditSchedule.body, AuditSchedule.api_key_id)
                             .where(AuditSchedule.enabled.is_(True), AuditSchedule.next_run_at <= now)
                             .order_by(AuditSchedule.next_run_at).limit(DUE_BATCH)).all()
    started = []
    for schedule_id, due_at, cron, body, api_key_id in due:
        try:
            if not _claim(schedule_id, due_at, cron, now):
                db.session.rollback()
                continue
            parse_config(body, limits)
            audit = Audit(api_key_id=api_key_id, schedule_id=schedule_id, status="queued", config=body,
                          config_hash=config_hash(body))
            db.session.add(audit)
            db.session.flush()
            db.session.execute(db.update(AuditSchedule).where(AuditSchedule.id == schedule_id)
                               .values(last_audit_id=audit.id).execution_options(synchronize_session=False))
            db.session.commit()
        except ValidationError as err:  # the operator lowered a cap since: skip this run, keep the schedule
            db.session.commit()  # the claim (next_run_at moved on) stands
            log.warning("schedule %s: audit body refused, run skipped: %s", schedule_id, err.messages)
            continue
        started.append(audit.id)
        if start is not None:
            start(audit.id)
    return started


def schedule_webhook_payload(audit: Audit) -> dict:
    """The webhook body of a finished scheduled audit: ``{type: "audit.finished", auditId, scheduleId,
    status, summary, diff}``; ``diff`` is against the previous finished audit with the same configuration
    (null for the first run), cut by ``short_diff``.  The runner signs and posts it as crawl webhooks are
    (tagcrawl/webhooks)."""
    report = store.report_of(audit)
    previous = store.previous_audit(audit)
    diff = store.diff_of(audit, previous) if previous is not None else None
    return {"type": "audit.finished", "auditId": audit.id, "scheduleId": audit.schedule_id,
            "status": audit.status, "summary": audit.summary or build_summary(report),
            "diff": None if diff is None else short_diff(diff)}


def short_diff(diff: dict, items_max: int = PAYLOAD_ITEMS_MAX, urls_max: int = PAYLOAD_URLS_MAX) -> dict:
    """``diff`` cut for a webhook body: each list to ``items_max`` entries (``<name>Count`` gives the full
    number) and each entry's page lists to ``urls_max`` URLs; the whole diff is ``GET .../diff``."""
    short = {}
    for name, value in diff.items():
        if isinstance(value, list):
            short[name] = [{k: (v[:urls_max] if isinstance(v, list) else v) for k, v in item.items()}
                           if isinstance(item, dict) else item for item in value[:items_max]]
            short[name + "Count"] = len(value)
        else:
            short[name] = value
    return short
