"""Schedules run by the queue's workers (tagcrawl/audit/runner.py ``schedules_task``, a procrastinate
periodic task every ``queue.SCHEDULES_CRON``): a due schedule starts exactly one audit, on PostgreSQL."""
from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest

from tagcrawl.core.audit_models import Audit, AuditSchedule
from tagcrawl.core.extensions import db
from tagcrawl.core.models import utcnow

pytestmark = pytest.mark.postgres
BODY = {"startUrls": ["https://shop.example/"], "maxPages": 1, "maxDepth": 0}


def _scheduled(app, schedule_id):
    with app.app_context():
        rows = db.session.scalars(db.select(Audit).where(Audit.schedule_id == schedule_id)).all()
        out = [(a.id, a.status) for a in rows]
        db.session.remove()
        return out


def test_a_due_schedule_starts_one_audit_in_the_worker(client, app, api_key):
    from tagcrawl.audit.runner import ensure_worker, stop_worker

    made = client.post("/api/v1/audit-schedules", json={"cron": "0 * * * *", "audit": BODY},
                       headers={"x-api-key": api_key})
    assert made.status_code == 201, made.get_json()
    schedule_id = made.get_json()["scheduleId"]
    with app.app_context():
        schedule = db.session.get(AuditSchedule, schedule_id)
        schedule.next_run_at = utcnow() - timedelta(minutes=1)  # due now
        db.session.commit()
    ensure_worker(app)
    try:
        deadline, tick = time.monotonic() + 90, threading.Event()
        while time.monotonic() < deadline and not any(s != "queued" for _i, s in _scheduled(app, schedule_id)):
            tick.wait(0.2)
        audits = _scheduled(app, schedule_id)
        assert len(audits) == 1 and audits[0][1] in ("running", "done"), audits  # started by the runner
        with app.app_context():
            schedule = db.session.get(AuditSchedule, schedule_id)
            assert schedule.last_audit_id == audits[0][0] and schedule.next_run_at > utcnow()
    finally:
        stop_worker(timeout_s=60)
    assert len(_scheduled(app, schedule_id)) == 1  # the later ticks found nothing due
