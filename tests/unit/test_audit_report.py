"""The audit report (tagcrawl/audit/report.py, inventory.py, expectations.py) on a synthetic
8-page site with planted defects (tests/support/audit_pages.py): it finds exactly them."""
from __future__ import annotations

from tagcrawl.audit.report import build_report
from tests.support.audit_pages import GA, META, audit, site

U = "https://shop.example"
EXPECT = [{"type": "vendorOnEveryPage", "vendor": "ga4", "accountId": GA[1], "pages": U + "/*"},
          {"type": "noPixelBeforeConsent", "pages": "*"},
          {"type": "vendorOnEveryPage", "vendor": "meta", "pages": U + "/blog|" + U + "/about"}]


def _report(**kwargs):
    return build_report(audit(expectations=EXPECT, actions=("accept", "reject")), site(**kwargs))


def test_pages_are_grouped_by_url_with_one_entry_per_scenario():
    report = _report()
    assert report["counts"] == {"discovered": 17, "queued": 0, "running": 0, "done": 16, "failed": 0,
                                "excluded": 1}
    assert len(report["pages"]) == 8
    home = next(p for p in report["pages"] if p["url"] == U + "/")
    assert set(home["scenarios"]) == {"accept", "reject"}
    accept = home["scenarios"]["accept"]
    assert accept["pageStatus"] == 200 and accept["finalUrl"] == U + "/"
    assert {(p["vendor"], p["accountId"], p["phase"]) for p in accept["pixels"]} == {
        ("ga4", GA[1], "after_accept"), ("meta", META[1], "after_accept")}
    assert accept["consent"] == {"banner": True, "cmp": "onetrust", "action": "accept", "verified": True}
    assert report["excluded"] == [{"url": U + "/admin", "reason": "exclude"}]


def test_vendor_coverage_and_the_pages_an_expectation_missed():
    ga = next(v for v in _report()["vendors"] if (v["vendor"], v["accountId"]) == GA)
    # fired on the crawled pages but /contact (planted), and on /blog after a refusal (scenario reject)
    assert ga["pages"] == [U + p for p in ("/", "/about", "/blog", "/promo", "/shop")]
    assert ga["missingOn"] == [U + p for p in ("/captcha", "/contact", "/old")]
    assert ga["scenarios"] == ["accept", "reject"]


def test_consent_findings_are_exactly_the_planted_pages():
    consent = _report()["consent"]
    assert [(f["url"], f["scenario"]) for f in consent["trackersBeforeChoice"]] == [
        (U + "/promo", "accept"), (U + "/promo", "reject")]
    assert consent["trackersBeforeChoiceCount"] == 1
    assert [f["url"] for f in consent["violationsAfterRefusal"]] == [U + "/blog"]


def test_broken_blocked_cookies_third_parties_and_timing():
    report = _report()
    assert [(b["url"], b["scenario"], b["pageStatus"]) for b in report["broken"]] == [
        (U + "/old", "accept", 404), (U + "/old", "reject", 404)]
    assert [(b["url"], b["reason"]) for b in report["blocked"]] == [(U + "/captcha", "recaptcha")] * 2
    assert [(c["name"], c["domain"], c["pageCount"], c["expires"], c["phases"]) for c in report["cookies"]] == [
        ("_ga", ".shop.example", 6, "2027-11-20T08:00:00Z", ["after_accept"])]
    assert report["thirdParties"][0]["organisation"] == "Google"
    assert report["timing"]["durationS"] == 60.0 and report["timing"]["averagePageMs"] == 2000


def test_expectations_fail_exactly_where_planted_and_reach_the_summary():
    report = _report()
    ga, before, meta = report["expectations"]
    assert (ga["passed"], ga["urls"]) == (False, [U + "/captcha", U + "/contact", U + "/old"])
    assert (before["passed"], before["urls"]) == (False, [U + "/promo"])
    assert meta["passed"] is True and meta["checked"] == 2
    summary = report["summary"]
    assert summary["expectationsFailed"] == 2
    assert [e["type"] for e in summary["failingExpectations"]] == ["vendorOnEveryPage", "noPixelBeforeConsent"]
    assert (summary["trackersBeforeChoice"], summary["violationsAfterRefusal"], summary["broken"],
            summary["blocked"]) == (1, 1, 2, 2)


def test_a_clean_site_passes_every_expectation():
    report = build_report(audit(expectations=EXPECT[1:2]), site(meta_before=(), actions=("accept",)))
    assert report["expectations"][0]["passed"] is True
    assert report["summary"]["expectationsFailed"] == 0


def test_hostile_and_missing_values_do_not_break_the_report():
    from tests.support.audit_pages import Row

    rows = [Row(U + "/x", result={"pixels": [{"vendor": None, "account_id": 12}], "cookies": ["nope", {}],
                                  "thirdParties": "x", "error": {"message": "<b>"}}),
            Row(U + "/y", status="failed", result=None, error="crawl failed"),
            Row(U + "/z", status="queued", result=None, started_at=None, finished_at=None)]
    report = build_report(audit(), rows)
    assert report["counts"]["failed"] == 1 and report["counts"]["queued"] == 1
    assert report["vendors"][0]["accountId"] == "12"
    assert [b["error"] for b in report["broken"]] == ["crawl failed"]


def test_a_stored_body_without_defaults_still_reports():
    from types import SimpleNamespace

    bare = SimpleNamespace(**{**vars(audit()), "config": {"startUrls": ["https://shop.example/"],
                                                          "consentActions": ["accept"]}})
    assert build_report(bare, site(actions=("accept",)))["summary"]["pages"]["done"] == 8
