"""The page outcome's bounds without Chrome (``engine/capture/document.py``,
``crawl/report_caps.py``): the main document's hops as CDP reports them, the
chain bounded at ``REDIRECTS_MAX``, URLs capped, a later navigation that fails
restoring the shown document.  With Chrome: tests/browser/test_page_outcome.py."""
from __future__ import annotations

from tagcrawl.core.truncation import REDIRECTS_MAX, URL_MAX
from tagcrawl.crawl.report import CrawlReport, RedirectHop
from tagcrawl.crawl.service import CrawlOutcome
from tagcrawl.engine.capture.document import MainDocument


def test_hops_come_from_redirect_responses_of_the_same_request():
    doc = MainDocument()
    key = ("s", "1")
    doc.started(key, "https://a.example/")
    doc.started(key, "https://b.example/", {"url": "https://a.example/", "status": 301})
    doc.started(key, "https://c.example/", {"url": "https://b.example/", "status": 302})
    doc.answered(key, {"status": 404, "headers": {}})
    assert (doc.status, doc.url, doc.error) == (404, "https://c.example/", None)
    assert [(h.url, h.status) for h in doc.redirects] == [("https://a.example/", 301), ("https://b.example/", 302)]


def test_the_chain_is_bounded_and_urls_are_capped():
    doc = MainDocument()
    key = ("s", "1")
    long_url = "https://a.example/" + "x" * (2 * URL_MAX)
    doc.started(key, long_url)
    for n in range(REDIRECTS_MAX + 5):
        doc.started(key, long_url, {"url": long_url, "status": 302})
    assert len(doc.redirects) == REDIRECTS_MAX and doc.redirects_dropped == 5
    assert len(doc.url) < URL_MAX + 40 and doc.url.endswith("chars]")
    assert all(len(h.url) < URL_MAX + 40 for h in doc.redirects)


def test_a_failed_later_navigation_restores_the_shown_document():
    doc = MainDocument()
    doc.started(("s", "1"), "https://a.example/")
    doc.started(("s", "1"), "https://b.example/", {"url": "https://a.example/", "status": 301})
    doc.answered(("s", "1"), {"status": 200, "headers": {}})
    doc.started(("s", "2"), "https://elsewhere.example/download")  # the page navigates on its own
    assert doc.url == "https://elsewhere.example/download" and doc.redirects == []
    doc.failed(("s", "2"), "net::ERR_ABORTED")
    assert (doc.status, doc.url, doc.error) == (200, "https://b.example/", None)
    assert [h.status for h in doc.redirects] == [301]


def test_the_answer_caps_final_url_and_hops():
    long_url = "https://a.example/" + "y" * (URL_MAX + 100)
    report = CrawlReport(session_id="5d0c5f0e-8c1e-4a55-9d1e-0a4b7e2f8d11", url="https://a.example/",
                         page_status=200, final_url=long_url,
                         redirects=[RedirectHop(url=long_url, status=301)]
                         + [RedirectHop(url="https://b.example/", status=302)] * (REDIRECTS_MAX + 2))
    response = CrawlOutcome(report=report).response
    assert response["pageStatus"] == 200
    assert response["finalUrl"].startswith(long_url[:URL_MAX]) and response["finalUrl"].endswith("chars]")
    assert len(response["redirects"]) == REDIRECTS_MAX
    assert response["redirects"][0]["status"] == 301 and response["redirects"][0]["url"].endswith("chars]")
    assert f"redirects (kept {REDIRECTS_MAX} of {REDIRECTS_MAX + 3})" in response["message"]
