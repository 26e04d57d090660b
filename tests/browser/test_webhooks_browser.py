"""Webhook delivery of a real crawl (Chrome): queued, signed, delivered and
retried.  Signing, validation and the CLI: tests/db/test_webhooks.py."""
from __future__ import annotations

import json
import uuid

import pytest

from tagcrawl.core.extensions import db
from tagcrawl.core.models import WebhookAttempt, WebhookDelivery
from tagcrawl.webhooks import verify_signature
from tests.db.test_webhooks import hook_key, receiver  # noqa: F401 - fixtures

pytestmark = pytest.mark.postgres


@pytest.mark.browser
def test_webhook_crawl_is_queued_signed_delivered_and_retried(app, client, hook_key, receiver, browser):
    key, secret = hook_key
    session_id = str(uuid.uuid4())
    response = client.post("/api/v1", headers={"x-api-key": key}, json={
        "url": "https://shop.example/", "session_id": session_id, "options": {"webhook": True}})
    assert response.status_code == 200
    assert response.get_json() == {"sessionId": session_id, "url": "https://shop.example/", "success": True,
                                   "message": "queued"}
    deliveries = receiver.wait_for(3)
    assert [d["status"] for d in deliveries] == [500, 500, 200]
    ids = {d["headers"]["webhook-id"] for d in deliveries}
    assert len(ids) == 1 and uuid.UUID(ids.pop())
    for d in deliveries:
        assert verify_signature(secret, d["headers"], d["body"])
    payload = json.loads(deliveries[-1]["body"])
    assert payload["sessionId"] == session_id and payload["success"] is True
    assert "1234567890123456" in {p["account_id"] for p in payload["marketingPixels"]}
    stored = client.get(f"/api/v1/crawls/{session_id}", headers={"x-api-key": key}).get_json()
    assert stored == payload
    from tagcrawl.audit.runner import stop_worker

    assert stop_worker(timeout_s=30)  # the last delivery job ends: its attempt is recorded
    with app.app_context():
        delivery = db.session.scalar(db.select(WebhookDelivery))
        db.session.refresh(delivery)
        attempts = db.session.scalars(db.select(WebhookAttempt).order_by(WebhookAttempt.id)).all()
        assert delivery.status == "delivered" and delivery.attempts == 3
        assert [a.status_code for a in attempts] == [500, 500, 200]
        assert all(a.duration_ms >= 0 for a in attempts)
