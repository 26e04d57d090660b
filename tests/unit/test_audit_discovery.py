"""Site-audit discovery without a network: normalization, scope, robots.txt,
sitemaps (index, gzip, bomb, caps, malformed XML) and ``Discovery`` over an
in-memory ``Fetcher`` (a real implementation of the protocol, serving bytes)."""
from __future__ import annotations

import gzip
from dataclasses import dataclass

import pytest

from tagcrawl.audit.discovery import Discovery, Excluded, FetchResult, Found, Limits
from tagcrawl.audit.discovery.normalize import SESSION_PARAMS, canonical_for, normalize_url
from tagcrawl.audit.discovery.scope import Scope
from tagcrawl.audit.discovery.sitemaps import SitemapError, parse_sitemap, unpack
from tests.support.audit_pages import audit_config

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*locs: str) -> bytes:
    return f"<?xml version='1.0'?><urlset {NS}>{''.join(f'<url><loc>{u}</loc></url>' for u in locs)}</urlset>".encode()


def index(*locs: str) -> bytes:
    rows = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in locs)
    return f"<?xml version='1.0'?><sitemapindex {NS}>{rows}</sitemapindex>".encode()


class MemoryFetcher:
    """``Fetcher`` over a dict ``url -> body`` (404 for others); records the URLs asked."""

    def __init__(self, files: dict):
        self.files = files
        self.asked: list[str] = []

    def get(self, url: str, max_bytes: int) -> FetchResult:
        self.asked.append(url)
        if url not in self.files:
            return FetchResult(404, url)
        body = self.files[url]
        if isinstance(body, int):
            return FetchResult(body, url)
        return FetchResult(200, url, body[:max_bytes], truncated=len(body) > max_bytes)


@dataclass(frozen=True)
class FakeSettings:
    allow_private_targets: bool = False


ROBOTS = b"User-agent: *\nDisallow: /private/\nSitemap: https://shop.example/sm/index.xml\n"


# --- normalization -------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("HTTPS://Shop.Example:443/a/../b?z=1&a=2#top", "https://shop.example/b?a=2&z=1"),
    ("http://shop.example:80", "http://shop.example/"),
    ("https://shop.example/cart;jsessionid=0AB12?x=1", "https://shop.example/cart?x=1"),
    ("https://shop.example/p?PHPSESSID=9&sid=1&SessionId=2&q=socks", "https://shop.example/p?q=socks"),
    ("https://shop.example/p?utm_source=news&gclid=1", "https://shop.example/p?gclid=1&utm_source=news"),
    ("https://shop.example:8443/x", "https://shop.example:8443/x"),
    ("https://münchen.example/ä", "https://xn--mnchen-3ya.example/%C3%A4"),
])
def test_normalization_drops_fragments_session_parameters_and_orders_the_query(raw, expected):
    assert normalize_url(raw) == expected


def test_normalization_resolves_relative_links_and_refuses_other_schemes():
    base = "https://shop.example/dir/page"
    assert normalize_url("../p/1#x", base=base) == "https://shop.example/p/1"
    assert normalize_url("https://") is None and normalize_url("") is None
    for href in ("mailto:a@b.example", "javascript:void(0)", "tel:123", "ftp://shop.example/"):
        assert normalize_url(href, base=base) is None
    assert normalize_url("https://shop.example/" + "a" * 3000) is None  # over URL_MAX: before parsing
    assert {"jsessionid", "phpsessid", "sid", "sessionid"} <= SESSION_PARAMS
    assert not any(p.startswith("utm_") for p in SESSION_PARAMS)


def test_canonical_is_honoured_within_the_registrable_domain_only():
    page = "https://www.shop.example/p/5?color=red"
    assert canonical_for(page, "/p/5") == "https://www.shop.example/p/5"
    assert canonical_for(page, "https://shop.example/p/5") == "https://shop.example/p/5"
    assert canonical_for(page, "https://other.example/p/5") is None
    assert canonical_for(page, None) is None


# --- scope ---------------------------------------------------------------------------------------

def test_scope_reasons_in_order():
    scope = Scope(["https://shop.example/"], include=["*://shop.example/*|*://www.shop.example/*"],
                  exclude=["*/admin/*"])
    assert scope.reason("https://www.shop.example/p") is None
    assert scope.reason("https://blog.shop.example/p") == "include"
    assert scope.reason("https://shop.example/admin/x") == "exclude"
    assert scope.reason("https://other.example/") == "offsite"
    assert scope.reason("http://127.0.0.1/") == "ssrf"
    assert scope.reason("http://metadata.google.internal/computeMetadata/v1/") == "ssrf"
    assert Scope(["https://shop.example/"], allow_private=True).reason("http://10.0.0.5/") == "offsite"


def test_include_globs_match_in_linear_time():
    scope = Scope(["https://shop.example/"], include=["*a*a*a*a*a*a*a*a*b"])
    assert scope.reason("https://shop.example/" + "a" * 2000) == "include"  # RE2: no backtracking


# --- sitemaps ------------------------------------------------------------------------------------

def test_parse_urlset_index_and_text_sitemaps():
    assert parse_sitemap(urlset(" https://shop.example/a ", "https://shop.example/b"), 10) == \
        ("urlset", ["https://shop.example/a", "https://shop.example/b"], False)
    assert parse_sitemap(index("https://shop.example/s1.xml"), 10) == ("sitemapindex", ["https://shop.example/s1.xml"], False)
    assert parse_sitemap(b"https://shop.example/a\n\nhttps://shop.example/b\n", 10)[1] == \
        ["https://shop.example/a", "https://shop.example/b"]
    assert parse_sitemap(urlset(*[f"https://shop.example/{i}" for i in range(5)]), 3) == \
        ("urlset", ["https://shop.example/0", "https://shop.example/1", "https://shop.example/2"], True)


@pytest.mark.parametrize("data, message", [
    (b"<urlset><url><loc>https://shop.example/</loc></urlset>", "malformed XML"),
    (b"<html><body>not a sitemap</body></html>", "not a sitemap"),
    (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><urlset>&lol;</urlset>', "malformed XML"),
])
def test_malformed_or_hostile_xml_is_a_clear_error(data, message):
    with pytest.raises(SitemapError, match=message):
        parse_sitemap(data, 10)


def test_gzip_is_inflated_within_the_cap_and_a_bomb_stops_at_it():
    assert unpack(gzip.compress(urlset("https://shop.example/")), 1000) == urlset("https://shop.example/")
    bomb = gzip.compress(b"\0" * (16 * 1024 * 1024), compresslevel=1)  # 16 MiB of zeros in ~70 KiB
    assert len(bomb) < 100_000
    with pytest.raises(SitemapError, match="larger than 1048576 bytes decompressed"):
        unpack(bomb, 1024 * 1024)
    with pytest.raises(SitemapError, match="corrupt gzip"):
        unpack(b"\x1f\x8b\x08\x00garbage", 1000)


def test_seed_reads_robots_sitemap_lines_an_index_and_a_gzip_sitemap():
    files = {
        "https://shop.example/robots.txt": ROBOTS,
        "https://shop.example/sm/index.xml": index("https://shop.example/sm/a.xml", "https://shop.example/sm/b.xml.gz"),
        "https://shop.example/sm/a.xml": urlset("https://shop.example/", "https://shop.example/p/1",
                                                "https://shop.example/private/x", "https://other.example/"),
        "https://shop.example/sm/b.xml.gz": gzip.compress(urlset("https://shop.example/p/2",
                                                                 "https://shop.example/p/1;jsessionid=abc")),
    }
    found = Discovery(audit_config(), FakeSettings(), MemoryFetcher(files)).seed()
    assert found == [Found("https://shop.example/", 0, "start"), Found("https://shop.example/p/1", 0, "sitemap"),
                     Excluded("https://shop.example/private/x", "robots"),
                     Excluded("https://other.example/", "offsite"), Found("https://shop.example/p/2", 0, "sitemap")]


def test_seed_falls_back_to_sitemap_xml_and_reports_problems_without_crashing():
    files = {"https://shop.example/sitemap.xml": index("https://shop.example/bad.xml", "https://shop.example/gone.xml",
                                                       "http://10.0.0.8/internal.xml"),
             "https://shop.example/bad.xml": b"<urlset><url><loc>x</url>"}
    discovery = Discovery(audit_config(), FakeSettings(), MemoryFetcher(files))
    assert discovery.seed() == [Found("https://shop.example/", 0, "start")]
    problems = {p.url: p.error for p in discovery.problems}
    assert problems["https://shop.example/bad.xml"].startswith("malformed XML")
    assert problems["https://shop.example/gone.xml"] == "HTTP 404"
    assert problems["http://10.0.0.8/internal.xml"].startswith("sitemap not fetched: host 10.0.0.8 is a private")


def test_sitemap_bounds_documents_depth_bytes_and_urls():
    files = {"https://shop.example/robots.txt": b"Sitemap: https://shop.example/i0.xml\n",
             "https://shop.example/i0.xml": index("https://shop.example/i1.xml", "https://shop.example/big.xml",
                                                  "https://shop.example/many.xml"),
             "https://shop.example/i1.xml": index("https://shop.example/i2.xml"),
             "https://shop.example/i2.xml": index("https://shop.example/never.xml"),
             "https://shop.example/big.xml": urlset(*[f"https://shop.example/b/{i}" for i in range(200)]),
             "https://shop.example/many.xml": urlset(*[f"https://shop.example/m/{i}" for i in range(20)])}
    fetcher = MemoryFetcher(files)
    limits = Limits(sitemap_bytes=4000, sitemap_urls=5, index_depth=1)
    discovery = Discovery(audit_config(), FakeSettings(), fetcher, limits)
    urls = [item.url for item in discovery.seed()]
    assert urls == ["https://shop.example/"] + [f"https://shop.example/m/{i}" for i in range(5)]
    problems = {p.url: p.error for p in discovery.problems}
    assert problems["https://shop.example/big.xml"] == "sitemap larger than 4000 bytes"
    assert problems["https://shop.example/many.xml"] == "more than 5 URLs: the rest ignored"
    assert problems["https://shop.example/i1.xml"] == "sitemap index nested deeper than 1: not followed"
    assert "https://shop.example/never.xml" not in fetcher.asked
    few = Discovery(audit_config(), FakeSettings(), MemoryFetcher(files), Limits(sitemaps=2))
    few.seed()
    assert few.walker.fetched == 2


def test_max_pages_and_the_excluded_cap():
    files = {"https://shop.example/sitemap.xml": urlset(*[f"https://shop.example/{i}" for i in range(50)])}
    discovery = Discovery(audit_config(max_pages=10), FakeSettings(), MemoryFetcher(files), Limits(excluded=5))
    items = discovery.seed()
    assert [type(i) for i in items] == [Found] * 10 + [Excluded] * 5
    assert {i.reason for i in items if isinstance(i, Excluded)} == {"limit"}
    assert discovery.sitemaps_cut


def test_links_depth_dedup_canonical_and_robots_switch():
    files = {"https://shop.example/robots.txt": ROBOTS}
    discovery = Discovery(audit_config(max_depth=1), FakeSettings(), MemoryFetcher(files))
    discovery.seed()
    hrefs = ["/p/1", "/p/1#reviews", "/p/1?PHPSESSID=x", "/private/a", "mailto:x@y.example", "/p/5?color=red"]
    assert discovery.links("https://shop.example/", 0, hrefs, canonical="https://shop.example/") == [
        Found("https://shop.example/p/1", 1, "link"), Excluded("https://shop.example/private/a", "robots"),
        Found("https://shop.example/p/5?color=red", 1, "link")]
    # the crawled variant names its canonical: that URL counts as seen, it is not crawled again
    assert discovery.links("https://shop.example/p/5?color=red", 1, ["/p/5", "/p/6"], canonical="/p/5") == [
        Excluded("https://shop.example/p/6", "depth")]
    ignoring = Discovery(audit_config(respect_robots=False), FakeSettings(), MemoryFetcher(files))
    assert ignoring.admit("https://shop.example/private/a") == Found("https://shop.example/private/a", 0, "start")


def test_robots_unreachable_is_disallow_and_absent_is_allow():
    down = Discovery(audit_config(sitemaps=()), FakeSettings(), MemoryFetcher({"https://shop.example/robots.txt": 503}))
    assert down.seed() == [Excluded("https://shop.example/", "robots")]
    assert "RFC 9309" in down.problems[0].error
    absent = Discovery(audit_config(sitemaps=()), FakeSettings(), MemoryFetcher({}))
    assert absent.seed() == [Found("https://shop.example/", 0, "start")]


def test_an_excluded_url_keeps_where_it_was_found():
    files = {"https://shop.example/robots.txt": ROBOTS,
             "https://shop.example/sm.xml": urlset("https://shop.example/private/x", "https://other.example/")}
    discovery = Discovery(audit_config(start_urls=("https://shop.example/", "https://shop.example/private/s"),
                                       sitemaps=("https://shop.example/sm.xml",), max_depth=0),
                          FakeSettings(), MemoryFetcher(files))
    seeded = discovery.seed()
    assert [(i.url, i.reason, i.source) for i in seeded if isinstance(i, Excluded)] == [
        ("https://shop.example/private/s", "robots", "start"), ("https://shop.example/private/x", "robots", "sitemap"),
        ("https://other.example/", "offsite", "sitemap")]
    linked = discovery.links("https://shop.example/", 0, ["/private/a", "/p/9"])
    assert [(i.url, i.reason, i.source) for i in linked] == [
        ("https://shop.example/private/a", "robots", "link"), ("https://shop.example/p/9", "depth", "link")]
