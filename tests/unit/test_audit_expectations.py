"""Site-level expectations (tagcrawl/audit/expectations.py)."""
from __future__ import annotations

from tagcrawl.audit.config import parse_config
from tagcrawl.audit.expectations import evaluate_expectations, main_scenario
from tagcrawl.audit.limits import AuditLimits
from tests.support.audit_pages import GA, Row, crawl_response, page_result, pixel

U = "https://shop.example"


def _config(expectations, actions=("accept",)):
    return parse_config({"startUrls": [U + "/"], "consentActions": list(actions), "expectations": expectations},
                        AuditLimits())


def _row(path, scenario="accept", pixels=(), status="done"):
    return Row(U + path, scenario, status, page_result(crawl_response(U + path, pixels=pixels)))


def test_main_scenario():
    assert main_scenario(("reject", "accept")) == "accept"
    assert main_scenario(("reject", "none")) == "reject"


def test_account_matters_only_when_given_and_globs_select_pages():
    rows = [_row("/a", pixels=[pixel("ga4", "G-OTHER")]), _row("/b/1", pixels=[pixel(*GA)]), _row("/b/2")]
    any_account, exact, scoped = evaluate_expectations(_config([
        {"type": "vendorOnEveryPage", "vendor": "ga4", "pages": U + "/a|" + U + "/b/1"},
        {"type": "vendorOnEveryPage", "vendor": "ga4", "accountId": GA[1]},
        {"type": "vendorOnEveryPage", "vendor": "ga4", "pages": U + "/b/*"}]), rows)
    assert any_account["passed"] is True and any_account["checked"] == 2
    assert exact["urls"] == [U + "/a", U + "/b/2"] and exact["failures"] == 2
    assert scoped["urls"] == [U + "/b/2"]


def test_only_crawled_pages_of_the_main_scenario_count():
    rows = [_row("/a", "reject"), _row("/b", status="failed"), _row("/c", pixels=[pixel(*GA)])]
    (result,) = evaluate_expectations(_config([{"type": "vendorOnEveryPage", "vendor": "ga4"}],
                                              ("accept", "reject")), rows)
    assert (result["passed"], result["checked"]) == (True, 1)


def test_no_pixel_before_consent_looks_at_every_scenario():
    rows = [_row("/a", "reject", pixels=[pixel(*GA, "before_consent")]), _row("/b")]
    (result,) = evaluate_expectations(_config([{"type": "noPixelBeforeConsent", "pages": "*"}],
                                              ("accept", "reject")), rows)
    assert (result["passed"], result["urls"]) == (False, [U + "/a"])


def test_the_vendor_is_named_by_key_alias_or_the_crawls_display_name():
    rows = [_row("/a", pixels=[pixel("Google Analytics 4", GA[1])]), _row("/b", pixels=[pixel("Meta Pixel", "1")])]
    by_key, by_name, by_alias, other = evaluate_expectations(_config([
        {"type": "vendorOnEveryPage", "vendor": "ga4", "pages": U + "/a"},
        {"type": "vendorOnEveryPage", "vendor": "Google Analytics 4", "pages": U + "/a"},
        {"type": "vendorOnEveryPage", "vendor": "meta", "pages": U + "/b"},
        {"type": "vendorOnEveryPage", "vendor": "ga4", "pages": U + "/b"}]), rows)
    assert by_key["passed"] and by_name["passed"] and by_alias["passed"]
    assert other["urls"] == [U + "/b"]
