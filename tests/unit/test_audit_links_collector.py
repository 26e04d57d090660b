"""The ``links`` collector's answer is checked again in Python (the page may have
replaced the DOM methods ``links.js`` uses): http(s) only, distinct, capped."""
from __future__ import annotations

from tagcrawl.engine.collectors.links import MAX_CHARS, MAX_LINKS, LinksCollector, PageLinks, read_links


def test_read_links_keeps_http_urls_distinct_and_capped():
    raw = {"links": ["https://a.example/1", "https://a.example/1", "javascript:alert(1)", 7, None,
                     "http://a.example/" + "x" * MAX_CHARS, "http://a.example/2"],
           "canonical": "https://a.example/", "total": 9}
    assert read_links(raw) == PageLinks(["https://a.example/1", "http://a.example/2"], "https://a.example/", 9)
    many = read_links({"links": [f"https://a.example/{i}" for i in range(MAX_LINKS + 500)], "total": 5000})
    assert len(many.links) == MAX_LINKS
    assert read_links({"links": "nope", "canonical": "data:text/html,x"}) == PageLinks([], None, 0)
    assert read_links(None) == PageLinks()


def test_the_collector_notes_a_cut_list():
    collector = LinksCollector()
    collector.found = PageLinks([f"https://a.example/{i}" for i in range(MAX_LINKS)], None, 4000)
    assert collector.notes() == [f"links: kept the first {MAX_LINKS} of 4000 links"]
    collector.found = PageLinks(["https://a.example/"], None, 1)
    assert collector.notes() == []


def test_links_and_canonical_are_answered_only_when_read():
    from tagcrawl.core.schemas.crawl import CrawlResponseSchema
    from tagcrawl.crawl.report import CrawlReport

    plain = CrawlResponseSchema().dump(CrawlReport(session_id=None, url="https://a.example/"))
    assert "links" not in plain and "canonical" not in plain
    audit = CrawlResponseSchema().dump(CrawlReport(session_id=None, url="https://a.example/", links=[],
                                                   canonical=None))
    assert audit["links"] == [] and audit["canonical"] is None
