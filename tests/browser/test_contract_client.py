"""Contract test: a Python client generated from ``/openapi.json`` by
openapi-python-client (the ecosystem's own generator) drives the live service.

The app runs behind a real HTTP server (werkzeug, threaded) on the test
PostgreSQL; the client is generated from the document that server answers,
imported, and used to run a crawl of a fixture page in Chrome, read the crawl
back by its id, send an event and query the stored events.  This proves the
generated document is usable as it is.
"""
from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
import requests
from werkzeug.serving import make_server

from tagcrawl.core.extensions import db

PACKAGE = "tagcrawl_contract_client"
ORIGIN = "https://shop.example.com"


def _generator() -> str:
    found = shutil.which("openapi-python-client") or str(Path(sys.executable).parent / "openapi-python-client")
    if not Path(found).exists():
        pytest.skip("openapi-python-client is not installed (requirements-dev.txt)")
    return found


@pytest.fixture
def live(app):
    """``app`` (test PostgreSQL, fixture web) behind a threaded HTTP server: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True, name="contract-app").start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def client_package(live, tmp_path):
    """The client package generated from the live ``/openapi.json``, imported."""
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(requests.get(live + "/openapi.json", timeout=30).json()))
    generator = _generator()
    env = {"PATH": f"{Path(generator).parent}:/usr/bin:/bin"}
    done = subprocess.run([generator, "generate", "--path", str(document), "--meta", "none",
                           "--output-path", str(tmp_path / PACKAGE)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.slow
def test_generated_client_crawls_reads_back_and_queries_events(app, api_key, live, client_package, browser):
    from tagcrawl.stream.tenants import issue_token

    api = importlib.import_module(PACKAGE + ".api.crawl.crawl")
    result_api = importlib.import_module(PACKAGE + ".api.crawl.get_crawl")
    har_api = importlib.import_module(PACKAGE + ".api.crawl.get_crawl_har")
    ingest_api = importlib.import_module(PACKAGE + ".api.stream.ingest_event")
    events_api = importlib.import_module(PACKAGE + ".api.stream.list_events")
    models = importlib.import_module(PACKAGE + ".models")
    client = client_package.AuthenticatedClient(base_url=live, token=api_key, prefix="",
                                                auth_header_name="x-api-key", timeout=120.0)

    session_id = str(uuid.uuid4())
    report = api.sync(client=client, body=models.CrawlRequest(url="https://plain.example/", session_id=session_id))
    assert isinstance(report, models.CrawlResponse)
    assert report.success is True and str(report.session_id) == session_id and report.url == "https://plain.example/"
    assert isinstance(report.time_taken, int) and isinstance(report.cookies_before, int)

    stored = result_api.sync(session_id=session_id, client=client)
    assert isinstance(stored, models.CrawlResponse)
    assert str(stored.session_id) == session_id and stored.success is True

    har = har_api.sync(session_id=session_id, client=client)  # typed: the HAR 1.2 models
    assert isinstance(har, models.Har) and isinstance(har.log.creator, models.HarCreator)
    assert har.log.pages[0].title == "https://plain.example/"
    assert any(isinstance(e, models.HarEntry) and e.request.url.startswith("https://plain.example/")
               for e in har.log.entries)

    missing = result_api.sync_detailed(session_id=str(uuid.uuid4()), client=client)
    assert missing.status_code == 404 and isinstance(missing.parsed, models.ErrorMessage)

    with app.app_context():
        from tagcrawl.accounts.grants import grant

        token = issue_token("contract", ["shop.example.com"]).token
        grant("tests", "contract")  # the key reads this customer's events (tenancy: tests/db/test_tenancy.py)
    event = models.StreamEventRequest(t=token, vn="Meta Pixel", e="Purchase", u="https://shop.example.com/cart")
    accepted = ingest_api.sync_detailed(client=client, body=event, origin=ORIGIN)
    assert accepted.status_code == 204

    page = events_api.sync(client=client, customer="contract")
    assert isinstance(page, models.EventPage)
    assert [(e.vendor_name, e.event_name, e.domain) for e in page.events] == [
        ("Meta Pixel", "Purchase", "example.com")]
    assert page.next_cursor is None

    with app.app_context():
        db.session.remove()
