"""The audit API (tagcrawl/web/views/audits.py, audit_schedules.py, audit_html.py) on PostgreSQL:
202 + Location, tenancy, cancel, validation, quotas, report/CSV/diff, share links, schedules, CLI.

Pages are stored as the runner stores them (AuditPage rows with the compact result), from
tests/support/audit_pages.py's synthetic site; the runner itself is the queue branch's.
"""
from __future__ import annotations

import csv
import io
import threading
from datetime import datetime, timedelta, timezone

import pytest

from tagcrawl.core.audit_models import Audit, AuditPage, AuditReport, AuditSchedule
from tagcrawl.core.extensions import db
from tests.support.audit_pages import site

pytestmark = pytest.mark.postgres
BODY = {"startUrls": ["https://shop.example/"], "consentActions": ["accept", "reject"],
        "expectations": [{"type": "vendorOnEveryPage", "vendor": "ga4", "pages": "https://shop.example/*"}]}


def _key(app, name: str) -> str:
    from tagcrawl.accounts.apikeys import create_key

    with app.app_context():
        return create_key(name)[1]


def _post(client, key, body=BODY):
    return client.post("/api/v1/audits", json=body, headers={"x-api-key": key})


def _finish(app, audit_id: str, **site_changes) -> None:
    """Store the synthetic site's pages for ``audit_id`` and mark it done, as the runner would."""
    with app.app_context():
        audit = db.session.get(Audit, audit_id)
        for row in site(**site_changes):
            db.session.add(AuditPage(audit_id=audit_id, url=row.url, scenario=row.scenario, status=row.status,
                                     reason=row.reason, result=row.result, started_at=row.started_at,
                                     finished_at=row.finished_at))
        audit.status, audit.started_at = "done", datetime.now(timezone.utc) - timedelta(minutes=2)
        audit.finished_at = datetime.now(timezone.utc)
        db.session.commit()


def test_post_answers_202_with_location_and_the_status_counts(client, app, api_key):
    answer = _post(client, api_key)
    assert answer.status_code == 202
    audit_id = answer.get_json()["auditId"]
    assert answer.headers["Location"].endswith(f"/api/v1/audits/{audit_id}")
    status = client.get(answer.headers["Location"], headers={"x-api-key": api_key}).get_json()
    assert status["status"] == "running"  # started by runner.start_audit (its discovery job waits for a worker)
    _finish(app, audit_id)
    status = client.get(f"/api/v1/audits/{audit_id}", headers={"x-api-key": api_key}).get_json()
    assert status["pages"] == {"discovered": 17, "queued": 0, "running": 0, "done": 16, "failed": 0,
                               "excluded": 1}
    assert status["rate"] > 0 and status["eta"] == 0


def test_another_key_sees_nothing(client, app, api_key):
    audit_id = _post(client, api_key).get_json()["auditId"]
    other = _key(app, "other")
    for method, path in [("get", ""), ("delete", ""), ("get", "/report"), ("get", "/report.csv"),
                         ("get", "/cookies.csv"), ("get", "/diff"), ("post", "/share")]:
        answer = getattr(client, method)(f"/api/v1/audits/{audit_id}{path}", headers={"x-api-key": other})
        assert answer.status_code == 404, (method, path)
    assert client.get(f"/audits/{audit_id}", headers={"x-api-key": other}).status_code == 404
    assert client.get(f"/api/v1/audits/{audit_id}").status_code == 401


def test_cancel_then_cancel_again(client, api_key):
    audit_id = _post(client, api_key).get_json()["auditId"]
    answer = client.delete(f"/api/v1/audits/{audit_id}", headers={"x-api-key": api_key})
    assert answer.status_code == 200 and answer.get_json()["status"] == "cancelled"
    assert client.delete(f"/api/v1/audits/{audit_id}", headers={"x-api-key": api_key}).status_code == 409


def test_validation_errors_and_quotas(client, app, api_key, monkeypatch):
    answer = _post(client, api_key, {"startUrls": ["nope"], "consentActions": ["maybe"]})
    assert answer.status_code == 422
    assert {(tuple(d["loc"]), d["type"]) for d in answer.get_json()["detail"]} == {
        (("body", "startUrls", 0), "url_parsing"), (("body", "consentActions", 0), "value_error")}
    monkeypatch.setenv("TAGCRAWL_AUDIT_MAX_PAGES", "100")
    answer = _post(client, api_key, dict(BODY, maxPages=101))
    assert answer.status_code == 400
    assert answer.get_json() == {"error": True, "message": "maxPages: At most 100 pages per audit on this service."}
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Audit)) == 0  # nothing stored
    monkeypatch.delenv("TAGCRAWL_AUDIT_MAX_PAGES")
    monkeypatch.setenv("TAGCRAWL_AUDIT_MAX_RUNNING", "1")
    assert _post(client, api_key).status_code == 202
    answer = _post(client, api_key)
    assert answer.status_code == 429 and answer.headers["Retry-After"] == "60"


def test_report_csv_and_cookies_csv(client, app, api_key):
    audit_id = _post(client, api_key).get_json()["auditId"]
    _finish(app, audit_id)
    headers = {"x-api-key": api_key}
    report = client.get(f"/api/v1/audits/{audit_id}/report", headers=headers).get_json()
    assert report["summary"]["expectationsFailed"] == 1
    assert [e["urls"] for e in report["expectations"]] == [
        ["https://shop.example/captcha", "https://shop.example/contact", "https://shop.example/old"]]
    matrix = client.get(f"/api/v1/audits/{audit_id}/report.csv", headers=headers)
    assert matrix.mimetype == "text/csv" and "attachment" in matrix.headers["Content-Disposition"]
    assert len(list(csv.reader(io.StringIO(matrix.get_data(as_text=True))))) == 17
    cookies = list(csv.reader(io.StringIO(client.get(f"/api/v1/audits/{audit_id}/cookies.csv",
                                                     headers=headers).get_data(as_text=True))))
    assert cookies[1][:2] == ["_ga", ".shop.example"]


def _set_status(app, audit_id: str, status: str) -> None:
    with app.app_context():
        db.session.get(Audit, audit_id).status = status
        db.session.commit()


def test_a_finished_audits_report_is_stored_once(client, app, api_key):
    headers = {"x-api-key": api_key}
    audit_id = _post(client, api_key).get_json()["auditId"]
    _finish(app, audit_id)
    _set_status(app, audit_id, "running")  # a running audit's report is built on every read, never stored
    assert client.get(f"/api/v1/audits/{audit_id}/report", headers=headers).get_json()["status"] == "running"
    with app.app_context():
        assert db.session.get(AuditReport, audit_id) is None
    _set_status(app, audit_id, "done")
    first = client.get(f"/api/v1/audits/{audit_id}/report", headers=headers).get_json()
    matrix = client.get(f"/api/v1/audits/{audit_id}/report.csv", headers=headers).get_data(as_text=True)
    with app.app_context():
        stored = db.session.get(AuditReport, audit_id)
        assert stored is not None and stored.report == first and 0 < stored.size <= 32 * 1024 * 1024
        # every page changed afterwards in the database: the stored report is what is served
        changed = db.session.execute(db.update(AuditPage).where(AuditPage.audit_id == audit_id,
                                                                AuditPage.status == "done")
                                     .values(status="failed")).rowcount
        db.session.commit()
    assert changed == 16
    second = client.get(f"/api/v1/audits/{audit_id}/report", headers=headers).get_json()
    assert second == first and second["counts"]["done"] == 16 and second["counts"]["failed"] == 0
    assert client.get(f"/api/v1/audits/{audit_id}/report.csv", headers=headers).get_data(as_text=True) == matrix
    assert client.get(f"/audits/{audit_id}", headers=headers).status_code == 200
    other = _key(app, "other-cache")
    assert client.get(f"/api/v1/audits/{audit_id}/report", headers={"x-api-key": other}).status_code == 404


def test_diff_defaults_to_the_previous_audit_with_the_same_config(client, app, api_key):
    headers = {"x-api-key": api_key}
    first = _post(client, api_key).get_json()["auditId"]
    assert client.get(f"/api/v1/audits/{first}/diff", headers=headers).status_code == 404  # nothing before
    _finish(app, first)
    other_config = _post(client, api_key, dict(BODY, maxDepth=1)).get_json()["auditId"]
    _finish(app, other_config, meta_pages=(), meta_before=())
    second = _post(client, api_key).get_json()["auditId"]
    _finish(app, second, meta_pages=("/", "/shop", "/contact", "/promo", "/about"))
    diff = client.get(f"/api/v1/audits/{second}/diff", headers=headers).get_json()
    assert diff["against"] == first
    assert [(c["vendor"], c["pagesLost"]) for c in diff["coverageChanges"]] == [
        ("meta", ["https://shop.example/blog"])]
    explicit = client.get(f"/api/v1/audits/{second}/diff", query_string={"against": other_config},
                          headers=headers).get_json()
    assert explicit["against"] == other_config and explicit["vendorsGained"][0]["vendor"] == "meta"


def test_shared_link_opens_one_audit_only(client, app, api_key):
    audit_id = _post(client, api_key).get_json()["auditId"]
    _finish(app, audit_id)
    other_id = _post(client, api_key).get_json()["auditId"]
    link = client.post(f"/api/v1/audits/{audit_id}/share", headers={"x-api-key": api_key}).get_json()["htmlUrl"]
    page = client.get(link)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "script-src" not in page.headers["Content-Security-Policy"]  # default-src 'none': no script at all
    assert "https://shop.example/contact" in page.get_data(as_text=True)
    assert client.get(link.replace(audit_id, other_id)).status_code == 401
    assert client.get(link[:-1] + ("0" if link[-1] != "0" else "1")).status_code == 401
    assert client.get(f"/audits/{audit_id}").status_code == 401
    assert client.get(f"/audits/{audit_id}", headers={"x-api-key": api_key}).status_code == 200


def test_schedules_validate_list_delete_and_run_once_per_due_time(client, app, api_key):
    headers = {"x-api-key": api_key}
    bad = client.post("/api/v1/audit-schedules", json={"cron": "*/5 * * * *", "audit": BODY}, headers=headers)
    assert bad.status_code == 400 and bad.get_json()["message"] == "cron: Runs more often than every 3600 s."
    over = client.post("/api/v1/audit-schedules", json={"cron": "0 * * * *", "audit": dict(BODY, maxPages=99999)},
                       headers=headers)
    assert over.status_code == 400 and over.get_json()["message"].startswith("audit.maxPages: At most")
    assert client.post("/api/v1/audit-schedules", json={"cron": "0 * * * *", "audit": {}},
                       headers=headers).status_code == 422
    made = client.post("/api/v1/audit-schedules", json={"cron": "0 * * * *", "audit": BODY}, headers=headers)
    assert made.status_code == 201
    schedule_id = made.get_json()["scheduleId"]
    assert [s["scheduleId"] for s in client.get("/api/v1/audit-schedules", headers=headers).get_json()] == [
        schedule_id]
    other = _key(app, "other")
    assert client.delete(f"/api/v1/audit-schedules/{schedule_id}", headers={"x-api-key": other}).status_code == 404
    assert client.get("/api/v1/audit-schedules", headers={"x-api-key": other}).get_json() == []

    from tagcrawl.audit.limits import AuditLimits
    from tagcrawl.audit.schedules import run_due_schedules

    with app.app_context():
        due = db.session.get(AuditSchedule, schedule_id).next_run_at
    started, barrier = [], threading.Barrier(2)

    def worker():
        with app.app_context():
            barrier.wait()
            started.extend(run_due_schedules(due + timedelta(seconds=1), AuditLimits()))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(started) == 1
    with app.app_context():
        assert run_due_schedules(due + timedelta(seconds=2), AuditLimits()) == []  # next run is an hour later
        schedule = db.session.get(AuditSchedule, schedule_id)
        assert schedule.last_audit_id == started[0] and schedule.next_run_at == due + timedelta(hours=1)
        assert db.session.get(Audit, started[0]).schedule_id == schedule_id
    assert client.delete(f"/api/v1/audit-schedules/{schedule_id}", headers=headers).status_code == 204
    with app.app_context():
        assert db.session.get(Audit, started[0]).schedule_id is None  # the audit stays


def test_scheduled_webhook_payload_has_the_summary_and_the_diff(client, app, api_key):
    from tagcrawl.audit.schedules import schedule_webhook_payload

    first = _post(client, api_key).get_json()["auditId"]
    _finish(app, first)
    second = _post(client, api_key).get_json()["auditId"]
    _finish(app, second, extra_cookie="_new")
    with app.app_context():
        payload = schedule_webhook_payload(db.session.get(Audit, second))
        first_payload = schedule_webhook_payload(db.session.get(Audit, first))
    assert payload["type"] == "audit.finished" and payload["summary"]["auditId"] == second
    assert [c["name"] for c in payload["diff"]["newCookies"]] == ["_new"] and payload["diff"]["newCookiesCount"] == 1
    assert first_payload["diff"] is None


def test_cli_report_and_diff(client, app, api_key, runner, tmp_path):
    import json

    first = _post(client, api_key).get_json()["auditId"]
    _finish(app, first)
    second = _post(client, api_key).get_json()["auditId"]
    _finish(app, second, extra_cookie="_new")
    result = runner.invoke(args=["audit", "report", second])
    assert result.exit_code == 1, result.output  # an expectation failed
    assert "FAILED expectation vendorOnEveryPage ga4" in result.output
    html = tmp_path / "report.html"
    result = runner.invoke(args=["audit", "report", second, "--json", "--html", str(html)])
    assert json.loads(result.output)["auditId"] == second and "<table id=\"coverage\">" in html.read_text()
    result = runner.invoke(args=["audit", "diff", second])
    assert result.exit_code == 0 and json.loads(result.output)["against"] == first
    assert runner.invoke(args=["audit", "diff", first]).exit_code == 1
    assert runner.invoke(args=["audit", "report", "nope"]).exit_code == 2
