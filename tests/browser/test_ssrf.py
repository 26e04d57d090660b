"""The SSRF guard end to end: the API refuses internal targets (422), and
during a crawl real Chrome never reaches an internal address, neither through
a redirect nor through a page's subresources (Fetch-domain guard).

Here the app runs with ``ALLOW_PRIVATE_TARGETS`` false.  The fixture web
itself listens on 127.0.0.1, so every internal request Chrome makes would
land in ``fixture_web.log``: the control crawls (guard off) show that, and
the guarded crawls show it does not happen.
"""
from __future__ import annotations

import uuid

import pytest

from tagcrawl import create_app
from tagcrawl.crawl.service import run_crawl
from tagcrawl.core.extensions import db
from tagcrawl.core.models import Crawl
from tests.support.config import settings
from tests.support.app_fixtures import empty_database

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

METADATA = "http://169.254.169.254/latest/meta-data/"


@pytest.fixture
def app(_migrated, fixture_web, tmp_path):
    """The app with the guard on (overrides conftest's ``app``)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True, "ALLOW_PRIVATE_TARGETS": False,
                      "CHROME_ARGS": fixture_web.chrome_args(), "QUIET_MS": 400,
                      "SCREENSHOT_DIR": str(tmp_path / "shots"), "POOL_SIZE": 2})
    yield app
    empty_database(app)


@pytest.fixture
def unguarded(browser):
    """Config of the control crawls: the same browsers, guard off."""
    return create_app(dict(browser, SQLALCHEMY_DATABASE_URI="sqlite://", ALLOW_PRIVATE_TARGETS=True)).config


def crawl(client, key, url):
    response = client.post("/api/v1", json={"url": url, "session_id": str(uuid.uuid4())},
                           headers={"x-api-key": key})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def hits(web, marker):
    with web.lock:
        return [e for e in web.log if marker in e["query"]]


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:{port}/", "http://localhost:{port}/", "http://[::1]:{port}/", "http://2130706433:{port}/",
    "http://10.0.0.1/", "http://172.20.1.1/", "http://192.168.0.1/", "http://100.64.0.1/",
    "http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata/", "http://[fd00:ec2::254]/", "http://\uff11\uff12\uff17\u3002\uff10\u3002\uff10\u3002\uff11/",
])
def test_internal_targets_get_422_url_refused(client, api_key, app, fixture_web, url):
    detail = _refused(client, api_key, app, fixture_web, url.format(port=fixture_web.port))
    assert detail["type"] == "url_refused"
    assert detail["msg"].startswith("Refused target: host ")


@pytest.mark.parametrize("url", [
    "file:///etc/passwd", "ftp://files.example/", "javascript:alert(1)", "gopher://127.0.0.1:70/",
    "http://0x7f.1:{port}/", "http://[::ffff:127.0.0.1]:{port}/", "http://127.0.0.%31/",
])
def test_non_http_and_odd_spellings_get_422_from_the_schema(client, api_key, app, fixture_web, url):
    """The request schema accepts only http(s) URLs of a plain form, so these
    stop there (type ``url_parsing``), before the guard; the guard refuses them
    as well (``tests/unit/test_netguard.py``)."""
    detail = _refused(client, api_key, app, fixture_web, url.format(port=fixture_web.port))
    assert detail["type"] == "url_parsing"


def _refused(client, api_key, app, web, url):
    marker = uuid.uuid4().hex
    if url.startswith("http"):
        url += ("&" if "?" in url else "?") + marker
    response = client.post("/api/v1", json={"url": url, "session_id": str(uuid.uuid4())},
                           headers={"x-api-key": api_key})
    assert response.status_code == 422, response.get_data(as_text=True)
    [detail] = response.get_json()["detail"]
    assert detail["loc"] == ["body", "url"]
    assert hits(web, marker) == []  # nothing was fetched
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Crawl)) == 0  # nor crawled
    return detail


def test_redirect_to_the_metadata_address_is_blocked_in_the_browser(client, api_key, fixture_web, unguarded):
    target = f"{METADATA}?probe={uuid.uuid4().hex}"
    url = f"https://plain.example/__fixture/redirect?to={target}"
    report = crawl(client, api_key, url)
    assert report["success"] is False
    assert report["error"]["error"] is True
    assert report["error"]["message"] == f"refused to load {target}: host 169.254.169.254 is a cloud metadata address"
    assert [e["path"] for e in hits(fixture_web, "to=" + target)] == ["/__fixture/redirect"]  # the redirect was served
    assert [e for e in hits(fixture_web, target.split("?")[1]) if e["path"] != "/__fixture/redirect"] == []
    # ... and its target was never contacted
    # Control: without the guard, the same redirect does reach the metadata address
    # (the host-resolver rules send 169.254.169.254 to the fixture web).
    control = f"{METADATA}?probe={uuid.uuid4().hex}"
    run_crawl(settings(unguarded), {"url": f"https://plain.example/__fixture/redirect?to={control}", "session_id": None})
    assert [(e["host"], e["path"]) for e in hits(fixture_web, control.split("?")[1])] == \
        [("plain.example", "/__fixture/redirect"), ("169.254.169.254", "/latest/meta-data/")]


def test_loopback_iframe_and_image_of_a_page_are_refused(client, api_key, fixture_web, unguarded):
    run = uuid.uuid4().hex
    report = crawl(client, api_key, f"https://ssrf.example/?port={fixture_web.port}&run={run}")
    assert report["success"] is True  # the page itself is fine
    assert {e["query"].split("&")[0] for e in hits(fixture_web, "run=" + run) if "ssrf=" in e["query"]} == \
        {"ssrf=control"}  # the same-site image loaded; the two loopback requests never left Chrome
    # Control: without the guard, both reach 127.0.0.1:<fixture port>.
    run = uuid.uuid4().hex
    outcome = run_crawl(settings(unguarded), {"url": f"https://ssrf.example/?port={fixture_web.port}&run={run}",
                                    "session_id": None})
    assert outcome.response["success"] is True
    assert {e["query"].split("&")[0] for e in hits(fixture_web, "run=" + run)} >= \
        {"ssrf=control", "ssrf=img", "ssrf=frame"}
