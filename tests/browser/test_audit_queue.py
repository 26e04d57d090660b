"""Site audits on the queue (tagcrawl/audit/runner.py): a 6-page audit run in-process on SQLite
(procrastinate's in-memory queue), every (URL, scenario) exactly once, the 404 reported not retried;
and cancel."""
from __future__ import annotations

import json
import threading
import time

import pytest

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tagcrawl.core.audit_models import Audit, AuditPage
from tagcrawl.core.extensions import db
from tests.support import audit_site

pytestmark = [pytest.mark.browser]


def wait_for(predicate, timeout_s: float):
    """Poll ``predicate`` every 0.2 s until it returns a truthy value or ``timeout_s`` passes."""
    deadline, tick = time.monotonic() + timeout_s, threading.Event()
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        tick.wait(0.2)
    return predicate()


@pytest.fixture
def sqlite_app(browser, fixture_web, tmp_path):
    from flask_migrate import upgrade

    from tagcrawl.audit.runner import stop_worker

    previous = audit_site.install(fixture_web)
    app = create_app(dict(browser, SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'audit.db'}", POOL_SIZE=2,
                          JOB_POLL_S=0.2, ALLOW_PRIVATE_TARGETS=True))
    with app.app_context():
        upgrade()
    yield app
    stop_worker(timeout_s=60)
    fixture_web.extra_route = previous


def _status(app, audit_id):
    with app.app_context():
        audit = db.session.get(Audit, audit_id)
        status = audit.status
        db.session.remove()
        return status


def _pages(app, audit_id):
    with app.app_context():
        rows = db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)).all()
        out = [(p.url, p.scenario, p.status, p.attempts, (p.result or {}).get("pageStatus"), p.crawl_id) for p in rows]
        db.session.remove()
        return out


def test_six_page_audit_in_process_on_sqlite(sqlite_app, fixture_web):
    from tagcrawl.audit.runner import start_audit

    app = sqlite_app
    with app.app_context():
        key, _k, _s = create_key("audit-sqlite")
        audit = audit_site.new_audit(key.id, {"startUrls": list(audit_site.URLS), "maxPages": 50,
                                              "consentActions": ["accept"]})
        audit_id = audit.id
        start_audit(audit_id)
    assert wait_for(lambda: _status(app, audit_id) in ("done", "failed", "cancelled"), 120)
    assert _status(app, audit_id) == "done"
    pages = _pages(app, audit_id)
    assert sorted(p[0] for p in pages) == sorted(audit_site.URLS)  # each exactly once
    by_url = {p[0]: p for p in pages}
    missing = by_url[audit_site.MISSING]
    assert missing[2:5] == ("failed", 1, 404), missing  # a page failure: reported once, not retried
    assert all(p[2] == "done" and p[3] == 1 and p[4] == 200 and p[5] for u, p in by_url.items() if u != missing[0])
    with app.app_context():
        summary = db.session.get(Audit, audit_id).summary
    assert (summary["pages"]["done"], summary["pages"]["failed"], summary["pages"]["queued"]) == (5, 1, 0)


def test_cancel_stops_queuing_and_running_pages_finish(sqlite_app, fixture_web):
    from tagcrawl.audit.runner import cancel_audit, start_audit

    app = sqlite_app
    urls = [f"https://{audit_site.HOST}{p}?n={n}" for n in range(4) for p in audit_site.PAGES]
    with app.app_context():
        key, _k, _s = create_key("audit-cancel")
        audit_id = audit_site.new_audit(key.id, {"startUrls": urls, "maxPages": 50}).id
        start_audit(audit_id)
    assert wait_for(lambda: any(p[2] == "done" for p in _pages(app, audit_id)), 120)
    with app.app_context():
        assert cancel_audit(audit_id) is True
    assert wait_for(lambda: not any(p[2] in ("queued", "running") for p in _pages(app, audit_id)), 60)
    pages = _pages(app, audit_id)
    assert _status(app, audit_id) == "cancelled"
    assert {p[2] for p in pages} <= {"done", "failed", "excluded"}
    assert any(p[2] == "excluded" for p in pages), "queued pages are not crawled after a cancel"
    # Every start URL once, plus the pages' links: each page links to the 5 PAGES without ``?n=``, and the
    # first page recorded ``done`` (what the wait above saw) admitted them before the cancel (links are
    # admitted before the page is recorded), so they are rows too: done, or excluded by the cancel.
    assert len({(p[0], p[1]) for p in pages}) == len(pages) == len(urls) + len(audit_site.PAGES)
    assert {p[0] for p in pages} == set(urls) | set(audit_site.URLS[:len(audit_site.PAGES)])


def test_cli_audit_run_prints_progress_summary_and_files(sqlite_app, tmp_path):
    app = sqlite_app
    out_json, out_csv = tmp_path / "audit.json", tmp_path / "audit.csv"
    # --ignore-robots: the fixture web's https certificate names no host (see audit_site.new_audit)
    result = app.test_cli_runner().invoke(args=["audit", "run", *audit_site.URLS, "--consent", "accept,reject",
                                                "--ignore-robots", "--json", str(out_json), "--csv", str(out_csv)])
    assert result.exit_code == 0, result.output
    report = json.loads(out_json.read_text())  # the report (GET /api/v1/audits/<id>/report): one entry per URL
    assert report["status"] == "done" and report["pages"] and len(report["pages"]) == 6
    assert sorted((p["url"], s) for p in report["pages"] for s in p["scenarios"]) == sorted(
        (u, s) for u in audit_site.URLS for s in ("accept", "reject"))
    assert report["timing"]["pagesPerMinute"] > 0
    assert len(out_csv.read_text().splitlines()) == 13  # the header and one row per (URL, scenario)
    assert "done: 12/12 pages (2 failed, 0 excluded)" in result.output  # the progress line's last state
    status = app.test_cli_runner().invoke(args=["audit", "status", report["auditId"], "--json"])
    assert status.exit_code == 0
    status = json.loads(status.output)  # the API's AuditStatus: rate pages/min, eta s
    assert status["pages"]["done"] == 10 and status["eta"] == 0 and status["rate"] > 0


def test_cli_audit_run_exit_codes(sqlite_app, tmp_path):
    """``audit run`` exits 2 for a body the API refuses, 1 when an expectation fails (here: GA4 on every
    page, the fixture pages have none), and writes the HTML report page."""
    app = sqlite_app
    refused = app.test_cli_runner().invoke(args=["audit", "run", "ftp://plain.example/"])
    assert refused.exit_code == 2, refused.output
    out_html = tmp_path / "audit.html"
    rules = tmp_path / "expect.json"
    rules.write_text(json.dumps([{"type": "vendorOnEveryPage", "vendor": "ga4"}]))
    result = app.test_cli_runner().invoke(args=["audit", "run", audit_site.URLS[0], "--max-depth", "0",
                                                "--ignore-robots", "--expectations", str(rules),
                                                "--html", str(out_html)])
    assert result.exit_code == 1, result.output
    assert "FAILED expectation vendorOnEveryPage ga4" in result.output
    assert "<html" in out_html.read_text().lower()


@pytest.mark.slow
def test_a_service_failure_is_retried_with_backoff_then_recorded(fixture_web, tmp_path):
    """The Grid unreachable (a closed port): the page job is retried (queue.MAX_ATTEMPTS attempts,
    2 + 4 + 8 + 16 s apart), then the page is recorded failed with the service error, and the audit ends."""
    import socket

    from flask_migrate import upgrade

    from tagcrawl.audit.queue import MAX_ATTEMPTS
    from tagcrawl.audit.runner import start_audit, stop_worker

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'svc.db'}", "TESTING": True,
                      "WEBDRIVER_URL": f"http://127.0.0.1:{closed}", "CHROME_ARGS": fixture_web.chrome_args(),
                      "ALLOW_PRIVATE_TARGETS": True, "POOL_SIZE": 1, "JOB_POLL_S": 0.2, "CRAWL_TIMEOUT_S": 5})
    try:
        with app.app_context():
            upgrade()
            key, _k, _s = create_key("audit-service")
            audit_id = audit_site.new_audit(key.id, {"startUrls": [audit_site.URLS[0]]}).id
            start_audit(audit_id)
        assert wait_for(lambda: _status(app, audit_id) == "done", 120)
        [page] = _pages(app, audit_id)
        assert page[2:4] == ("failed", MAX_ATTEMPTS), page
        with app.app_context():
            row = db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)).one()
            assert row.result["errorCode"] == "grid_unreachable" and row.crawl_id is not None
    finally:
        stop_worker(timeout_s=60)
