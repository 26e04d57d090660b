"""What the page answered, in the report (issue 26 item 1): the main
document's HTTP status (``pageStatus``), the URL it ended at (``finalUrl``) and
its HTTP redirect chain (``redirects``).  A 4xx/5xx page is ``success: false``
with an error naming the status, and still reports its pixels and cookies.
The fixture pages: ``/__fixture/error-page`` and ``/__fixture/redirect-as``
(tests/support/web/behaviours.py).  The service side (503/504) is
tests/browser/test_service_outcome.py.
"""
from __future__ import annotations

from urllib.parse import quote

import pytest

from tagcrawl.core.truncation import REDIRECTS_MAX

PIXEL = "1234567890123456"


def _meta(report: dict) -> list[str]:
    return [p["account_id"] for p in report["marketingPixels"] if p["vendor"] and "Meta" in p["vendor"]]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("status", [404, 500])
def test_an_error_page_is_a_page_failure_that_still_reports_its_tags(crawler, status):
    from tagcrawl.crawl.outcome import FailureKind, failure_kind

    url = f"https://errors.example/__fixture/error-page?status={status}&id={PIXEL}"
    outcome = crawler(url)
    report = outcome.response
    assert report["success"] is False
    assert report["error"] == {"error": True, "message": f"the page answered HTTP {status}"}
    assert report["pageStatus"] == status and report["finalUrl"] == url and report["redirects"] == []
    assert _meta(report) == [PIXEL]  # error pages carry tags too
    assert report["cookies"] is not None and report["cookiesAfter"] is not None
    assert failure_kind(outcome.report) is FailureKind.PAGE


@pytest.mark.timeout(120)
def test_a_redirect_chain_across_hosts_is_reported_hop_by_hop(crawler):
    final = "https://shop.example/"
    second = f"https://hop-b.example/__fixture/redirect-as?code=302&to={quote(final, safe='')}"
    first = f"https://hop-a.example/__fixture/redirect-as?code=301&to={quote(second, safe='')}"
    report = crawler(first).response
    assert report["success"] is True, report["error"]
    assert report["url"] == first
    assert report["pageStatus"] == 200 and report["finalUrl"] == final
    assert report["redirects"] == [{"url": first, "status": 301}, {"url": second, "status": 302}]
    assert report["marketingPixels"]  # the final page's tags


@pytest.mark.timeout(120)
def test_a_plain_page_has_status_200_and_no_redirects(crawler):
    report = crawler("https://plain.example/").response
    assert report["success"] is True, report["error"]
    assert (report["pageStatus"], report["finalUrl"], report["redirects"]) == (200, "https://plain.example/", [])


@pytest.mark.timeout(120)
def test_a_redirect_loop_reports_the_bounded_chain(crawler):
    report = crawler("https://loop.example/__fixture/redirect-loop").response
    assert report["success"] is False and "ERR_TOO_MANY_REDIRECTS" in report["error"]["message"]
    assert report["pageStatus"] is None
    assert 1 <= len(report["redirects"]) <= REDIRECTS_MAX
    assert {hop["status"] for hop in report["redirects"]} == {302}


@pytest.mark.timeout(120)
def test_a_refused_connection_has_no_page_status(crawler):
    from tests.support.gunicorn_server import free_port

    report = crawler(f"http://localhost:{free_port()}/").response  # localhost is not mapped to the fixture web
    assert report["success"] is False and "navigation failed" in report["error"]["message"]
    assert report["pageStatus"] is None
