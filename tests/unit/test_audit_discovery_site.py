"""``Discovery`` against a generated fixture site (tests/support/web/audit_site.py),
its fetches through the egress proxy tagcrawl owns, with the fixture web's
``--host-resolver-rules`` in ``TAGCRAWL_CHROME_ARGS`` (no browser, no database)."""
from __future__ import annotations

import time

import pytest

from tagcrawl.audit.discovery import Discovery, Excluded, Found
from tagcrawl.audit.discovery.fetcher import ProxyFetcher, ca_bundle
from tests.support.config import settings
from tests.support.web.audit_site import set_version, truth
from tests.support.web.server import HERE
from tests.support.audit_pages import audit_config

HOST = "site-20.example"


@pytest.fixture
def site(fixture_web):
    conf = settings({"CHROME_ARGS": fixture_web.chrome_args()})  # private targets NOT allowed
    fetcher = ProxyFetcher(conf)
    t = truth(HOST)
    config = audit_config((t["start"],), include=tuple(t["include"]), exclude=tuple(t["exclude"]))
    yield Discovery(config, conf, fetcher), t, fixture_web
    fetcher.close()


def test_seed_finds_exactly_the_start_and_sitemap_urls(site):
    discovery, t, web = site
    mark = web.mark()
    items = discovery.seed()
    found = [i.url for i in items if isinstance(i, Found)]
    excluded = {i.url: i.reason for i in items if isinstance(i, Excluded)}
    expected = [u for u in t["sitemapPages"] if t["excluded"].get(u) is None]
    assert found == expected and len(found) == len(set(found))  # the jsessionid twin is /p/3 once
    assert excluded == {f"http://{HOST}/private/account": "robots"}
    assert items[0] == Found(t["start"], 0, "start")
    assert {i.source for i in items[1:] if isinstance(i, Found)} == {"sitemap"}
    assert discovery.problems == []
    asked = [e["path"] for e in web.log[mark:] if e["host"] == HOST]
    assert asked == ["/robots.txt", "/sitemap_index.xml", "/sitemaps/pages-1.xml", "/sitemaps/pages-2.xml.gz"]


def test_links_of_the_home_page(site):
    discovery, t, _ = site
    discovery.seed()
    items = discovery.links(t["start"], 0, t["links"]["/"] + t["bannerLinks"])
    assert items == [Found(f"http://{HOST}/gone-2", 1, "link")] + [
        Excluded(url, reason) for url, reason in t["excluded"].items() if reason != "robots"] + [
        Found(f"http://{HOST}/cookie-policy", 1, "link")]
    deeper = discovery.links(f"http://{HOST}/p/0", 0, t["links"]["/p/0"])
    assert deeper == [Found(f"http://{HOST}/deep/1", 1, "link")]
    for depth, path in ((1, "/deep/1"), (2, "/deep/2")):
        discovery.links(f"http://{HOST}{path}", depth, t["links"][path])
    assert set(t["pages"]) <= discovery.seen  # every page of the site, the deep ones included


def test_version_2_drops_the_gone_page_from_the_sitemap(site):
    discovery, _, web = site
    set_version(web, HOST, 2)
    try:
        urls = {i.url for i in discovery.seed()}
    finally:
        set_version(web, HOST, 1)
    assert truth(HOST, 2)["changes"]["gone"] not in urls


def test_fetches_verify_tls_against_the_configured_bundle(site, monkeypatch):
    _, _, web = site
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(HERE / "fixture.crt"))
    assert ca_bundle() == str(HERE / "fixture.crt")
    fetcher = ProxyFetcher(settings({"CHROME_ARGS": web.chrome_args()}))
    # the fixture certificate names no host: a verified fetch of https://site-20.example fails, and says so
    result = fetcher.get(f"https://{HOST}/robots.txt", 1000)
    assert result.status is None and result.error.startswith("TLS verification failed")
    fetcher.close()


def test_the_egress_proxy_refuses_an_internal_sitemap(fixture_web):
    conf = settings({"CHROME_ARGS": fixture_web.chrome_args()})
    fetcher = ProxyFetcher(conf)
    result = fetcher.get("http://127.0.0.1:9/sitemap.xml", 1000)  # an IP literal: never mapped, checked
    fetcher.close()
    assert result.status is None and "egress proxy" in result.error


@pytest.mark.slow  # inflates 16 MiB
def test_hostile_sitemaps_are_problems_not_crashes(fixture_web):
    conf = settings({"CHROME_ARGS": fixture_web.chrome_args()})
    base = f"http://{HOST}/hostile/"
    config = audit_config((f"http://{HOST}/",), sitemaps=tuple(base + n for n in (
        "bomb.xml.gz", "malformed.xml", "entities.xml")))
    fetcher = ProxyFetcher(conf)
    discovery = Discovery(config, conf, fetcher)
    assert discovery.seed() == [Found(f"http://{HOST}/", 0, "start")]
    fetcher.close()
    problems = {p.url: p.error for p in discovery.problems}
    assert problems[base + "bomb.xml.gz"] == "sitemap larger than 16777216 bytes decompressed"
    assert problems[base + "malformed.xml"].startswith("malformed XML: mismatched tag")
    assert problems[base + "entities.xml"].startswith("malformed XML: DTDForbidden")


@pytest.mark.slow  # waits for a read timeout
def test_fetches_are_bounded_in_bytes_redirects_and_time(fixture_web):
    conf = settings({"CHROME_ARGS": fixture_web.chrome_args()})
    fetcher = ProxyFetcher(conf, read_timeout_s=1.0, total_s=3.0)
    endless = fetcher.get("http://plain.example/__fixture/endless", 100_000)
    assert endless.truncated and len(endless.body) == 100_000 and endless.error is None
    loop = fetcher.get("http://plain.example/__fixture/redirect-loop", 1000)
    assert loop.status is None and loop.error == "more than 5 redirects"
    started = time.monotonic()
    hang = fetcher.get("http://plain.example/__fixture/hang", 1000)
    assert hang.status is None and "timed out" in hang.error.lower()
    assert time.monotonic() - started < 1.0 + 5  # the read timeout, not the fixture's 60 s
    fetcher.close()
