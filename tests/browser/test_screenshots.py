"""Screenshots before and after consent: stored under ``SCREENSHOT_DIR``
with unguessable names, served at ``/screenshots/<name>`` or addressed by
``SCREENSHOT_URL`` + name."""
from __future__ import annotations

import re
import uuid
from urllib.parse import urlsplit

import pytest

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tests.support.app_fixtures import empty_database

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

PNG = b"\x89PNG\r\n\x1a\n"
#: secrets.token_urlsafe(32): at least 43 random url-safe characters.
NAME = re.compile(r"[A-Za-z0-9_-]{43,}\.png")


def crawl(client, key, url, headers=None, **options):
    response = client.post("/api/v1", json={"url": url, "session_id": str(uuid.uuid4()), "options": options},
                           headers={"x-api-key": key, **(headers or {})})
    assert response.status_code == 200, response.get_data(as_text=True)
    report = response.get_json()
    assert report["success"] is True, report
    return report


def fetch_png(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.mimetype == "image/png"
    assert response.data.startswith(PNG)
    return response.data


def test_before_and_after_consent_screenshots_are_served(client, api_key, app, tmp_path):
    # The caller's Host header names no host in the answer (issue 24): without PUBLIC_URL the
    # URLs are paths on this service.
    report = crawl(client, api_key, "https://shop.example/", headers={"Host": "attacker.example"}, screenShots=True)
    assert report["button"]["button_text"] == "Accept All Cookies"  # consent was clicked in between
    urls = report["screenShotUrls"]
    assert set(urls) == {"screenShotBefore", "screenShotAfter"}
    names = []
    for url in urls.values():
        parts = urlsplit(url)
        assert (parts.scheme, parts.netloc) == ("", "")  # a path on this app, no host from the request
        assert parts.path.startswith("/screenshots/")
        name = parts.path.rsplit("/", 1)[1]
        assert NAME.fullmatch(name), name
        assert (tmp_path / "shots" / name).is_file()
        names.append(name)
    assert names[0] != names[1]
    before = fetch_png(client, urlsplit(urls["screenShotBefore"]).path)
    after = fetch_png(client, urlsplit(urls["screenShotAfter"]).path)
    assert before != after  # the banner is gone in the second one


def test_no_screenshots_unless_asked(client, api_key, tmp_path):
    report = crawl(client, api_key, "https://plain.example/?no-shots")
    assert report["screenShotUrls"] is None
    assert list(tmp_path.glob("shots/*.png")) == []


@pytest.fixture
def cdn_app(_migrated, browser, tmp_path):
    """The app with ``SCREENSHOT_URL`` set (screenshots published elsewhere)."""
    app = create_app(dict(browser, SQLALCHEMY_DATABASE_URI=_migrated, TESTING=True,
                          SCREENSHOT_DIR=str(tmp_path / "cdn"), SCREENSHOT_URL="https://cdn.example/tagcrawl/shots/"))
    with app.app_context():
        _row, key, _secret = create_key("cdn-tests")
    yield app, key
    empty_database(app)


def test_screenshot_url_setting_addresses_the_files(cdn_app, tmp_path):
    app, key = cdn_app
    client = app.test_client()
    report = crawl(client, key, "https://plain.example/?cdn", screenShots=True)
    urls = list(report["screenShotUrls"].values())
    assert len(set(urls)) == 2
    for url in urls:
        assert url.startswith("https://cdn.example/tagcrawl/shots/")
        name = url[len("https://cdn.example/tagcrawl/shots/"):]
        assert NAME.fullmatch(name), name
        assert (tmp_path / "cdn" / name).read_bytes().startswith(PNG)
        fetch_png(client, "/screenshots/" + name)  # the app still serves SCREENSHOT_DIR


@pytest.mark.parametrize("name", [
    "short.png",
    "A" * 43 + ".txt",
    "A" * 43 + ".png.exe",
    "A" * 43,
    "A" * 65 + ".png",
    "..%2F..%2Fetc%2Fpasswd",
    "%2E%2E",
    "A" * 40 + "%2F.png",
    "Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFy.png",  # well-formed, but no such file
])
def test_bad_or_unknown_names_are_404(client, name):
    response = client.get("/screenshots/" + name)
    assert response.status_code == 404
    assert response.get_json()["error"] is True


def test_public_url_setting_makes_absolute_urls_whatever_the_host_header(_migrated, browser, tmp_path):
    """``PUBLIC_URL`` (the address a proxy serves) is the host of the URLs, not the request's ``Host``."""
    app = create_app(dict(browser, SQLALCHEMY_DATABASE_URI=_migrated, TESTING=True, TRUSTED_PROXIES=1,
                          SCREENSHOT_DIR=str(tmp_path / "pub"), PUBLIC_URL="https://tagcrawl.example.com/audit/"))
    try:
        with app.app_context():
            _row, key, _secret = create_key("public-url-tests")
        client = app.test_client()
        report = crawl(client, key, "https://plain.example/?public", screenShots=True,
                       headers={"Host": "attacker.example", "X-Forwarded-Host": "attacker.example"})
        for url in report["screenShotUrls"].values():
            assert url.startswith("https://tagcrawl.example.com/audit/screenshots/")
            fetch_png(client, urlsplit(url).path.removeprefix("/audit"))
    finally:
        empty_database(app)
