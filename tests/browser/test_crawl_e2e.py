"""End-to-end crawls through the HTTP API, in real Chrome, on the fixture web."""
from __future__ import annotations

import uuid

import pytest

from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def crawl(client, key, url, **options):
    body = {"url": url, "session_id": str(uuid.uuid4()), "options": options or None}
    response = client.post("/api/v1", json=body, headers={"x-api-key": key})
    assert response.status_code == 200, response.get_data(as_text=True)
    data = response.get_json()
    assert data["sessionId"] == body["session_id"]
    return data


def pixel_ids(report):
    return {(p["vendor"], p["account_id"]) for p in report["marketingPixels"]}


def test_shop_with_onetrust_reports_gated_meta_pixel(client, api_key, browser, app):
    report = crawl(client, api_key, "https://shop.example/")
    assert report["success"] is True, report
    assert report["error"] is None
    assert report["button"] == {"button_text": "Accept All Cookies", "consent_banner": True, "error_message": None}
    ids = {account for _vendor, account in pixel_ids(report)}
    assert {"1234567890123456", "G-DEMO12345X", "AW-987654321"} <= ids
    meta = next(p for p in report["marketingPixels"] if p["account_id"] == "1234567890123456")
    assert meta["page"] == "https://shop.example/"
    assert report["cookiesAfter"] > report["cookiesBefore"]
    assert isinstance(report["timeTaken"], int) and report["timeTaken"] > 0
    assert report["url"] == "https://shop.example/"
    with app.app_context():
        row = db.session.scalar(db.select(Crawl).filter_by(session_id=report["sessionId"]))
        assert row is not None and row.status == "done" and row.response["marketingPixels"]


def test_without_bypass_consent_the_banner_is_reported_but_not_clicked(client, api_key, browser):
    report = crawl(client, api_key, "https://shop.example/", byPassConsent=False)
    assert report["success"] is True
    assert report["button"]["consent_banner"] is True
    assert report["button"]["button_text"] == "Accept All Cookies"
    assert "1234567890123456" not in {p["account_id"] for p in report["marketingPixels"]}
    assert report["cookiesAfter"] == report["cookiesBefore"]


def test_page_without_tags(client, api_key, browser):
    report = crawl(client, api_key, "https://plain.example/")
    assert report["success"] is True
    assert report["marketingPixels"] == []
    assert report["button"] == {"button_text": None, "consent_banner": False, "error_message": None}


def test_null_session_id_gets_a_new_uuid4(client, api_key, browser):
    response = client.post("/api/v1", json={"url": "https://plain.example/", "session_id": None},
                           headers={"x-api-key": api_key})
    session_id = response.get_json()["sessionId"]
    assert uuid.UUID(session_id).version == 4


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_navigation_failure_returns_success_false_with_error(client, api_key, browser):
    report = crawl(client, api_key, f"http://localhost:{_closed_port()}/")
    assert report["success"] is False
    assert report["error"]["error"] is True
    assert "ERR_CONNECTION_REFUSED" in report["error"]["message"]


def test_chrome_args_setting_adds_switches(fixture_web, crawler, private_pool):
    config = private_pool()
    config["CHROME_ARGS"].append("--user-agent=TagcrawlSwitchTest/1.0")
    outcome = crawler("https://plain.example/?switch", config=config)
    assert outcome.response["success"] is True
    seen = [e for e in fixture_web.log if e["path"] == "/" and e["query"] == "switch"]
    assert seen and seen[-1]["headers"]["User-Agent"] == "TagcrawlSwitchTest/1.0"
