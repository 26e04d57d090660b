"""The crawl of a generated audit site's page (the audit runner's internal ``COLLECT_LINKS``) reports its
links and canonical URL (``links`` / ``canonical``, for site-audit discovery), and ``Discovery.links``
turns them into exactly the expected pages and exclusions; a plain crawl of the page has neither field."""
from __future__ import annotations


from tagcrawl.audit.discovery import Discovery, Excluded, Found
from tests.support.web.audit_site import truth
from tests.support.audit_pages import audit_config

HOST = "site-18.example"


class NoFetch:
    """No sitemaps and no robots.txt in this test: a fetch is a failure."""

    def get(self, url, max_bytes):
        raise AssertionError(f"unexpected fetch of {url}")


def test_a_crawl_returns_the_links_and_canonical_that_discovery_reads(crawler):
    t = truth(HOST)
    report = crawler(t["start"], links=True).response
    assert report["success"] is True, report["error"]
    base = f"http://{HOST}"
    expected = [h if "://" in h else base + h for h in t["links"]["/"] if not h.startswith("mailto:")]
    expected += t["bannerLinks"]
    assert report["links"] == expected  # absolute, in document order, http(s) only
    assert report["canonical"] == base + "/"
    config = audit_config((t["start"],), sitemaps=(), respect_robots=False, include=tuple(t["include"]),
                          exclude=tuple(t["exclude"]))

    class Guarded:
        allow_private_targets = False

    items = Discovery(config, Guarded(), NoFetch()).links(report["finalUrl"], 0, report["links"], report["canonical"])
    found = [i.url for i in items if isinstance(i, Found)]
    assert found == [f"{base}/p/{i}" for i in range(6)] + [f"{base}/gone-2", f"{base}/cookie-policy"]
    assert {i.url: i.reason for i in items if isinstance(i, Excluded)} == {
        url: reason for url, reason in t["excluded"].items() if reason != "robots"}


def test_a_plain_crawl_has_no_links_nor_canonical(crawler):
    report = crawler(truth(HOST)["start"]).response
    assert report["success"] is True, report["error"]
    assert "links" not in report and "canonical" not in report
