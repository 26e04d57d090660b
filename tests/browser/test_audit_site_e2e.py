"""End to end: an audit of a generated fixture site (tests/support/web/audit_site.py, ``site-18.example``)
through the runner in-process on SQLite (procrastinate's in-memory queue, local Chrome, discovery through
the egress proxy), scenarios accept + reject; the report finds exactly the planted defects of the site's
truth, and after ``set_version(web, host, 2)`` a second audit's ``build_diff`` names exactly its changes."""
from __future__ import annotations

import pytest

from tagcrawl import create_app
from tagcrawl.accounts.apikeys import create_key
from tagcrawl.core.audit_models import Audit
from tagcrawl.core.extensions import db
from tests.browser.test_audit_queue import wait_for
from tests.support.web.audit_site import GA4, set_version, truth

pytestmark = [pytest.mark.browser]
HOST = "site-18.example"


@pytest.fixture
def app(browser, fixture_web, tmp_path):
    from flask_migrate import upgrade

    from tagcrawl.audit.runner import stop_worker

    app = create_app(dict(browser, SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'e2e.db'}", POOL_SIZE=2,
                          JOB_POLL_S=0.2, AUDIT_MAX_PAGES=100))
    with app.app_context():
        upgrade()
    yield app
    stop_worker(timeout_s=60)
    set_version(fixture_web, HOST, 1)


def _run(app, key_id, body) -> tuple[str, dict]:
    from tagcrawl.audit import store
    from tagcrawl.audit.config import create_audit
    from tagcrawl.audit.runner import start_audit

    with app.app_context():
        audit_id = create_audit(body, key_id, app).id
        start_audit(audit_id)
    assert wait_for(lambda: _status(app, audit_id) in ("done", "failed", "cancelled"), 600)
    with app.app_context():
        report = store.report_of(db.session.get(Audit, audit_id))
        db.session.remove()
    assert report["status"] == "done", report["status"]
    return audit_id, report


def _status(app, audit_id):
    with app.app_context():
        status = db.session.get(Audit, audit_id).status
        db.session.remove()
        return status



def test_audit_finds_the_planted_defects_and_the_diff_names_the_changes(app, fixture_web):
    from tagcrawl.audit.diff import build_diff

    t = truth(HOST)
    defects = t["defects"]
    with app.app_context():
        key_id = create_key("audit-e2e")[0].id
    ga4_vendor = "Google Analytics 4"  # the crawl response's vendor name (marketingPixels[].vendor)
    body = {"startUrls": [t["start"]], "include": t["include"], "exclude": t["exclude"], "maxPages": 100,
            "maxDepth": 5, "consentActions": ["accept", "reject"],
            "expectations": [{"type": "vendorOnEveryPage", "vendor": ga4_vendor, "accountId": GA4,
                              "pages": f"http://{HOST}/*"}]}
    first_id, report = _run(app, key_id, body)

    urls = {p["url"] for p in report["pages"]}
    assert urls == set(t["pages"]), (sorted(urls ^ set(t["pages"])))  # the twins collapsed, nothing else
    assert not set(t["duplicates"]) & urls and set(t["duplicates"].values()) <= urls
    excluded = {e["url"]: e["reason"] for e in report["excluded"]}
    assert excluded[f"http://{HOST}/private/account"] == "robots"
    assert excluded[defects["outsideInclude"][0]] == "include"  # not crawled
    assert excluded[f"http://{HOST}/p/0?print=1"] == "exclude"

    # pages without GA4: the failing expectation lists exactly the planted ones (the broken pages are
    # listed as broken, not as missing GA4)
    [expectation] = report["expectations"]
    assert expectation["passed"] is False and sorted(expectation["urls"]) == defects["noGa4"], expectation
    # Meta before consent: in both scenarios (the pixel fires before any choice)
    before = {f["url"] for f in report["consent"]["trackersBeforeChoice"]}
    assert before == set(defects["metaBeforeConsent"]), report["consent"]["trackersBeforeChoice"]
    assert {f["url"] for f in report["consent"]["violationsAfterRefusal"]} == set(defects["ignoresRefusal"])
    broken = {b["url"] for b in report["broken"]}
    assert broken == set(defects["notFound"] + defects["redirectLoop"] + defects["blocked"]), report["broken"]
    assert {b["url"] for b in report["blocked"]} == set(defects["blocked"]), report["blocked"]

    set_version(fixture_web, HOST, 2)
    second_id, report2 = _run(app, key_id, body)
    changes = truth(HOST, 2)["changes"]
    diff = build_diff(report, report2)
    assert diff["against"] == first_id and diff["auditId"] == second_id
    assert diff["vendorsGained"] == [] and diff["vendorsLost"] == []
    lost = {(c["vendor"], c["accountId"]): (c["pagesGained"], c["pagesLost"]) for c in diff["coverageChanges"]}
    ga4 = [k for k in lost if k[1] == GA4]
    assert len(ga4) == 1 and lost[ga4[0]] == ([], sorted([changes["loseGa4"], changes["gone"]])), lost
    assert all(gained == [] and pages == [changes["gone"]] for k, (gained, pages) in lost.items() if k[1] != GA4), lost
    new_violations = {(v["kind"], v["url"]) for v in diff["newViolations"] if v["kind"] != "expectation"}
    assert new_violations == {("trackersBeforeChoice", changes["newViolation"])}, diff["newViolations"]
    assert [(c["name"], c["pages"]) for c in diff["newCookies"]] == [
        (changes["newCookie"]["name"], [changes["newCookie"]["url"]])], diff["newCookies"]
    assert diff["goneCookies"] == [] and diff["pagesNew"] == [] and diff["pagesGone"] == []
    assert {b["url"] for b in diff["pagesBroken"]} == {changes["gone"]}, diff["pagesBroken"]
