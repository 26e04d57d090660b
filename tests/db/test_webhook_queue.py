"""Webhook crawls and deliveries on the procrastinate job queue (PostgreSQL, local receivers, no Chrome):
a delivery's job retries 5xx with backoff until delivered, signed each time; a crawl row is taken
once, and again only by a retried job (its worker died); rows left without a job get one."""
from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from tagcrawl.accounts.apikeys import create_key
from tagcrawl.audit.runner import audit_queue, ensure_worker, stop_worker
from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl, WebhookAttempt, WebhookDelivery, utcnow
from tagcrawl.crawl import queued as crawl_jobs
from tagcrawl.webhooks import queued as webhook_jobs
from tagcrawl.webhooks import verify_signature
from tests.support.config import reconfigure
from tests.support.webhook_receiver import Receiver

pytestmark = pytest.mark.postgres


@pytest.fixture
def receiver():
    r = Receiver(statuses=[500, 503])
    yield r
    r.stop()


def _delivery(key_id: int, url: str, due_in_s: float = 0) -> str:
    crawl = Crawl(session_id=str(uuid.uuid4()), api_key_id=key_id, url="https://x.example/", status="done",
                  request={}, response={"success": True}, webhook=True)
    db.session.add(crawl)
    db.session.flush()
    delivery = WebhookDelivery(crawl_id=crawl.id, api_key_id=key_id, url=url, payload='{"success":true}',
                               next_attempt_at=utcnow() + timedelta(seconds=due_in_s))
    db.session.add(delivery)
    db.session.commit()
    return delivery.id


def test_a_delivery_job_retries_5xx_with_backoff_until_delivered(app, receiver):
    reconfigure(app, {"WEBHOOK_RETRY_BASE_S": 0.05, "JOB_POLL_S": 0.2})
    with app.app_context():
        row, _key, secret = create_key("queued-hooks", webhook_url=receiver.url)
        delivery_id = _delivery(row.id, receiver.url)
        assert webhook_jobs.defer_delivery(db.session.get(WebhookDelivery, delivery_id)) is not None
        # never two waiting jobs for one delivery (queueing_lock), nor a sweep's second one
        assert webhook_jobs.defer_delivery(db.session.get(WebhookDelivery, delivery_id)) is None
        assert webhook_jobs.requeue_orphans(app) == 0
    ensure_worker(app)
    got = receiver.wait_for(3, timeout_s=30)
    assert len(got) == 3 and all(d["headers"]["webhook-id"] == delivery_id for d in got)
    assert all(verify_signature(secret, d["headers"], d["body"]) for d in got)
    assert stop_worker(timeout_s=30)  # the last job ends: its attempt is recorded
    with app.app_context():
        delivery = db.session.get(WebhookDelivery, delivery_id)
        assert delivery.status == "delivered" and delivery.attempts == 3
        codes = [a.status_code for a in db.session.scalars(db.select(WebhookAttempt).order_by(WebhookAttempt.id))]
        assert codes == [500, 503, 200]


def test_a_retry_due_later_waits_and_does_not_hold_a_new_delivery_of_its_slot(app, receiver):
    """One slot per key: a pending retry (attempt 1 failed, due in an hour), queued by the startup
    sweep, waits for its time; the key's new delivery, queued after it on the same lock, goes at once."""
    reconfigure(app, {"JOB_POLL_S": 0.2, "WEBHOOK_PER_KEY": 1})
    with app.app_context():
        row, _key, _secret = create_key("later", webhook_url=receiver.url)
        later = _delivery(row.id, receiver.url, due_in_s=3600)
        db.session.get(WebhookDelivery, later).attempts = 1
        db.session.commit()
        new = _delivery(row.id, receiver.url)
    receiver.statuses = []
    ensure_worker(app)
    assert [d["headers"]["webhook-id"] for d in receiver.wait_for(1, timeout_s=30)] == [new]
    assert stop_worker(timeout_s=30)
    with app.app_context():
        assert audit_queue(app).live_args(webhook_jobs.TASK, "delivery_id") == {later}
        assert db.session.get(WebhookDelivery, later).attempts == 1
        assert db.session.get(WebhookDelivery, new).status == "delivered"


def test_a_crawl_row_is_taken_once_and_again_only_by_a_retried_job(app):
    with app.app_context():
        row, _key, _secret = create_key("claims")
        crawl = Crawl(session_id=str(uuid.uuid4()), api_key_id=row.id, url="https://x.example/", status="queued",
                      request={"url": "https://x.example/"}, webhook=True)
        db.session.add(crawl)
        db.session.commit()
        crawl_id = crawl.id
        assert crawl_jobs.requeue_orphans(app) == 1  # a row without a job gets one
        assert crawl_jobs.requeue_orphans(app) == 0
        assert crawl_jobs.claim(crawl_id, retry=False) is True
        assert crawl_jobs.claim(crawl_id, retry=False) is False  # a second job of the same row does nothing
        assert crawl_jobs.claim(crawl_id, retry=True) is True  # the job of a killed worker, retried
        db.session.expire_all()
        assert db.session.get(Crawl, crawl_id).attempts == 2
