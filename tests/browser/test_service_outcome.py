"""What the service could not do, in the HTTP status of ``POST /api/v1``
(issue 26 item 2), through the real service and real Chrome:

- 503 with ``Retry-After`` and a stable ``code`` when no browser can be
  started (a bad Chrome binary path), the Selenium Grid is unreachable, or
  every browser stayed busy past the wait; ``/health/ready`` is 503 too, and
  200 again once the browser is there;
- 504 ``deadline_exceeded`` when the crawl deadline passed before any report;
- no stack trace in any answer (stack traces go to the log);
- a page's own failure (404, 500) stays 200 with ``success: false``.

The page side (status, final URL, redirects): tests/browser/test_page_outcome.py.
"""
from __future__ import annotations

import json
import os
import threading
import uuid

import pytest

from tagcrawl import create_app
from tests.support.app_fixtures import empty_database
from tests.support.config import settings
from tests.support.gunicorn_server import free_port

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

#: What a stack trace (Python's, or ChromeDriver's native frames) looks like in a text.
TRACE_MARKS = ("Traceback", "Stacktrace", "\n#0 ", "#1 0x", "File \"", "chromedriver(")


@pytest.fixture
def service(_migrated, fixture_web, tmp_path, browser):
    """``service(**config) -> (client, key, config)``: the app on the test PostgreSQL with
    its own browser configuration (a pool of its own), shut down at the end."""
    from tagcrawl.accounts.apikeys import create_key
    from tagcrawl.engine.chrome.pool import get_pool

    made = []

    def make(**extra):
        marker = f"--tagcrawl-test-pool={uuid.uuid4()}"
        config = {"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True, "ALLOW_PRIVATE_TARGETS": True,
                  "CHROME_ARGS": fixture_web.chrome_args() + [marker], "QUIET_MS": 400,
                  "SCREENSHOT_DIR": str(tmp_path / "shots"), "POOL_SIZE": 1, "RATELIMIT_CRAWL": "",
                  "CRAWL_TIMEOUT_S": 60, **extra}  # room for a loaded machine
        app = create_app(config)
        with app.app_context():
            _row, key, _secret = create_key(f"outcome-{len(made)}")
        made.append((app, config))
        return app.test_client(), key, config

    yield make
    for app, config in made:
        get_pool(settings(config)).shutdown()
    if made:
        empty_database(made[0][0])


def _crawl(client, key, url="https://shop.example/"):
    return client.post("/api/v1", json={"url": url, "session_id": str(uuid.uuid4())}, headers={"x-api-key": key})


def _service_failure(response, status: int, code: str) -> dict:
    text = response.get_data(as_text=True)
    assert response.status_code == status, text
    body = json.loads(text)
    assert set(body) == {"error", "message", "code"} and body["error"] is True and body["code"] == code, body
    assert not [mark for mark in TRACE_MARKS if mark in text], text
    assert "\n" not in body["message"]
    return body


def test_a_bad_chrome_binary_is_503_and_readiness_recovers_when_it_is_there(service, tmp_path):
    chrome = tmp_path / "bin" / "chromium"  # the configured path: nothing there yet
    client, key, _config = service(CHROME_BINARY=str(chrome), READY_CACHE_S=0)
    response = _crawl(client, key)
    body = _service_failure(response, 503, "browser_unavailable")
    assert body["message"].startswith("browser unavailable")
    assert int(response.headers["Retry-After"]) > 0
    ready = client.get("/health/ready")
    assert ready.status_code == 503 and ready.get_json()["browsers"]["state"] == "unavailable"
    assert int(ready.headers["Retry-After"]) > 0
    chrome.parent.mkdir()
    os.symlink("/usr/bin/chromium", chrome)  # the browser is installed: ready again, crawls work
    ready = client.get("/health/ready")
    assert ready.status_code == 200, ready.get_json()
    assert ready.get_json()["browsers"]["state"] == "ok"
    report = _crawl(client, key)
    assert report.status_code == 200 and report.get_json()["success"] is True, report.get_json()


def test_a_chrome_binary_that_fails_to_start_is_503_without_chromedrivers_stack(service, tmp_path):
    broken = tmp_path / "broken-chrome"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    client, key, _config = service(CHROME_BINARY=str(broken))
    _service_failure(_crawl(client, key), 503, "browser_unavailable")
    assert client.get("/health/ready").status_code == 503


def test_the_readiness_answer_is_cached(service, tmp_path):
    chrome = tmp_path / "cached" / "chromium"
    client, _key, _config = service(CHROME_BINARY=str(chrome), READY_CACHE_S=600)
    assert client.get("/health/ready").status_code == 503
    chrome.parent.mkdir()
    os.symlink("/usr/bin/chromium", chrome)
    assert client.get("/health/ready").status_code == 503  # the cached answer, until READY_CACHE_S passes


def test_an_unreachable_grid_is_503(service):
    client, key, _config = service(WEBDRIVER_URL=f"http://127.0.0.1:{free_port()}/wd/hub")
    response = _crawl(client, key)
    _service_failure(response, 503, "grid_unreachable")
    assert int(response.headers["Retry-After"]) > 0
    ready = client.get("/health/ready")
    assert ready.status_code == 503 and ready.get_json()["browsers"]["state"] == "unavailable"


@pytest.mark.timeout(300)
def test_a_busy_pool_is_503_and_the_deadline_before_any_report_is_504(service, fixture_web):
    # One pool of one browser, shared by two apps (same browser configuration): the first
    # holds the browser on a page that never settles until its 40 s deadline; the second
    # waits for a browser no longer than its own 3 s deadline.
    slow_client, slow_key, config = service(CRAWL_TIMEOUT_S=40, QUIET_CAP_MS=120_000)
    busy_client, busy_key, _ = service(CHROME_ARGS=config["CHROME_ARGS"], CRAWL_TIMEOUT_S=3)
    start, result = fixture_web.mark(), {}
    worker = threading.Thread(target=lambda: result.update(slow=_crawl(slow_client, slow_key,
                                                                       "https://deadline.example/?busy")))
    worker.start()
    assert fixture_web.wait_for(lambda e: e["host"] == "deadline.example" and e["query"] == "deadline", after=start,
                                timeout_s=40)
    busy = _crawl(busy_client, busy_key)
    body = _service_failure(busy, 503, "pool_busy")
    assert body["message"].startswith("all browsers are busy")
    assert int(busy.headers["Retry-After"]) > 0
    worker.join(timeout=120)
    body = _service_failure(result["slow"], 504, "deadline_exceeded")
    assert body["message"] == "crawl deadline of 40 s exceeded"
    assert "Retry-After" not in result["slow"].headers
    with slow_client.application.app_context():  # stored as a failed crawl, with the same code
        from tagcrawl.core.extensions import db
        from tagcrawl.core.models import Crawl

        row = db.session.scalars(db.select(Crawl).filter_by(url="https://deadline.example/?busy")).one()
        assert row.status == "failed" and row.response["error"]["code"] == "deadline_exceeded"


@pytest.mark.parametrize("status", [404, 500])
def test_a_page_error_stays_200_with_success_false(service, status):
    client, key, _config = service()
    response = _crawl(client, key, f"https://errors.example/__fixture/error-page?status={status}&id=1234567890123456")
    assert response.status_code == 200
    report = response.get_json()
    assert report["success"] is False and report["pageStatus"] == status
    assert report["error"] == {"error": True, "message": f"the page answered HTTP {status}"}
    assert report["marketingPixels"]
