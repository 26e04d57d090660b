"""Asynchronous crawls with signed webhooks, results by id (PostgreSQL, real Chrome)."""
from __future__ import annotations

import base64
import uuid

import pytest

from tagcrawl.accounts.apikeys import create_key
from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, Crawl, WebhookDelivery
from tagcrawl.webhooks import new_secret, sign, verify_signature

from tests.support.webhook_receiver import Receiver
from tests.support.config import reconfigure, settings

pytestmark = pytest.mark.postgres

FAST = {"WEBHOOK_RETRY_BASE_S": 0.05, "JOB_POLL_S": 0.2}


@pytest.fixture
def receiver():
    r = Receiver(statuses=[500, 500])
    yield r
    r.stop()


@pytest.fixture
def hook_key(app, receiver):
    reconfigure(app, FAST)
    with app.app_context():
        row, key, secret = create_key("hooks", webhook_url=receiver.url)
    return key, secret


#: Standard Webhooks secrets are ``whsec_`` + base64 (the old test secrets "whsec_x"/"whsec_y" were not base64).
SECRET_X = "whsec_" + base64.b64encode(b"x" * 24).decode()
SECRET_Y = "whsec_" + base64.b64encode(b"y" * 24).decode()


def test_signature_round_trip_and_failures():
    """(Adapted to the Standard Webhooks headers: webhook-id, webhook-timestamp, webhook-signature.)"""
    body = b'{"success":true}'
    headers = sign(SECRET_X, body, "delivery-1", timestamp=1_800_000_000)
    assert verify_signature(SECRET_X, headers, body, now=1_800_000_100)
    assert not verify_signature(SECRET_X, headers, body + b" ", now=1_800_000_100)  # tampered body
    assert not verify_signature(SECRET_Y, headers, body, now=1_800_000_100)  # wrong secret
    assert not verify_signature(SECRET_X, headers, body, now=1_800_000_301)  # too old
    assert verify_signature(SECRET_X, headers, body, tolerance_s=400, now=1_800_000_301)
    several = dict(headers, **{"webhook-signature": "v1,AAAA " + headers["webhook-signature"]})
    assert verify_signature(SECRET_X, several, body, now=1_800_000_000)
    for bad in (None, {}, {"webhook-signature": "garbage"}, dict(headers, **{"webhook-timestamp": "abc"}),
                dict(headers, **{"webhook-id": ""}), dict(headers, **{"webhook-id": "delivery-2"})):
        assert not verify_signature(SECRET_X, bad, body, now=1_800_000_000)


def test_receivers_verify_with_the_standard_webhooks_library():
    """A receiver needs no tagcrawl: the Standard Webhooks library accepts the headers (real clock)."""
    from standardwebhooks import Webhook
    from standardwebhooks.webhooks import WebhookVerificationError

    secret = new_secret()
    body = b'{"success":true,"sessionId":"x"}'
    headers = sign(secret, body, str(uuid.uuid4()))
    assert Webhook(secret).verify(body, headers) == {"success": True, "sessionId": "x"}
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body + b" ", headers)


def test_webhook_without_url_gets_422(client, api_key):
    response = client.post("/api/v1", headers={"x-api-key": api_key}, json={
        "url": "https://shop.example/", "session_id": None, "options": {"webhook": True}})
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"] == ["body", "options", "webhook"]


def test_a_key_sees_only_its_own_crawls(app, client, api_key):
    with app.app_context():
        _row, other_key, _ = create_key("other")
        owner = db.session.scalar(db.select(ApiKey).filter_by(name="tests"))
        db.session.add(Crawl(session_id="11111111-1111-4111-8111-111111111111", api_key_id=owner.id,
                             url="https://shop.example/", status="queued", request={}))
        db.session.commit()
    path = "/api/v1/crawls/11111111-1111-4111-8111-111111111111"
    mine = client.get(path, headers={"x-api-key": api_key})
    assert mine.status_code == 200
    assert mine.get_json() == {"sessionId": "11111111-1111-4111-8111-111111111111", "url": "https://shop.example/",
                               "success": False, "message": "queued"}
    assert client.get(path, headers={"x-api-key": other_key}).status_code == 404
    listed = client.get("/api/v1/crawls?since=2000-01-01T00:00:00Z", headers={"x-api-key": api_key}).get_json()
    assert [c["sessionId"] for c in listed] == ["11111111-1111-4111-8111-111111111111"]
    assert client.get("/api/v1/crawls", headers={"x-api-key": other_key}).get_json() == []
    assert client.get("/api/v1/crawls?since=yesterday", headers={"x-api-key": api_key}).status_code == 400


def test_webhook_to_a_private_address_is_refused_when_not_allowed(app):
    from tagcrawl.webhooks.delivery import attempt

    with app.app_context():
        row, _key, _ = create_key("private", webhook_url="http://169.254.169.254/hook")
        crawl = Crawl(session_id=str(uuid.uuid4()), api_key_id=row.id, url="https://x.example/", status="done",
                      request={}, response={"success": True})
        db.session.add(crawl)
        db.session.commit()
        delivery = WebhookDelivery(crawl_id=crawl.id, api_key_id=row.id, url=row.webhook_url, payload="{}",
                                   attempts=0)
        db.session.add(delivery)
        record = attempt(delivery, settings(dict(app.config, ALLOW_PRIVATE_TARGETS=False)))
        db.session.commit()
        assert record.status_code is None and "refused" in record.error
        assert delivery.status == "failed"


def test_keys_cli_webhook_secret_and_redeliver(app, runner, receiver):
    reconfigure(app, FAST)
    result = runner.invoke(args=["keys", "create", "cli-hooks", "--webhook-url", receiver.url])
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("tc_") and lines[-2].startswith("secret: whsec_")
    with app.app_context():
        row = db.session.scalar(db.select(ApiKey).filter_by(name="cli-hooks"))
        crawl = Crawl(session_id=str(uuid.uuid4()), api_key_id=row.id, url="https://x.example/", status="done",
                      request={}, response={"success": True}, webhook=True)
        db.session.add(crawl)
        db.session.commit()
        delivery = WebhookDelivery(crawl_id=crawl.id, api_key_id=row.id, url=row.webhook_url,
                                   payload='{"success":true}', status="failed", attempts=6)
        db.session.add(delivery)
        db.session.commit()
        delivery_id = delivery.id
    receiver.statuses = []
    result = runner.invoke(args=["webhooks", "redeliver", delivery_id])
    assert result.exit_code == 0, result.output
    got = receiver.wait_for(1)
    assert got[0]["headers"]["webhook-id"] == delivery_id
    assert runner.invoke(args=["keys", "set-webhook", "cli-hooks", "ftp://nope"]).exit_code != 0
    assert runner.invoke(args=["keys", "set-webhook", "cli-hooks"]).exit_code == 0
