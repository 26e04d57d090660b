"""Proxy and country: ``PROXY_URL`` (with ``{country}``) per browser context,
and ``options.country`` -> Accept-Language, locale and timezone.

Set-up: ``tests/support/web/proxy.py`` runs one recording proxy listener per exit
"country" (``de``, ``fr``, and ``""`` for the default exit), all forwarding to
the fixture web.  ``PROXY_URL`` is ``http://{country}.proxy.test:3128``, the
shape of a provider with one hostname per exit country; Chrome's
host-resolver rules map ``de.proxy.test`` / ``fr.proxy.test`` /
``proxy.test`` to the listeners (before the fixture web's ``MAP *``), so the
listener that sees a request proves which proxy hostname Chrome was given.
Pages report their timezone and languages with an image beacon
(``geo.example``), recorded in ``fixture_web.log``.

All crawls of this module share one browser (``POOL_SIZE`` 1), so each test
finding only its own listener in use also shows that the proxy belongs to
the crawl's browser context, not to the browser.
"""
from __future__ import annotations

import uuid
from urllib.parse import parse_qs

import pytest

from tagcrawl import create_app
from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.crawl.service import run_crawl

from tests.support.web.proxy import RecordingProxy
from tests.support.config import settings

PROXY_URL = "http://{country}.proxy.test:3128"


@pytest.fixture(scope="module")
def proxy(fixture_web):
    proxy = RecordingProxy(fixture_web.port, labels=("de", "fr", "")).start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="module")
def config(proxy, fixture_web, tmp_path_factory):
    from .conftest import browser_config

    base = browser_config(fixture_web, tmp_path_factory.mktemp("proxy"))
    rules = ", ".join(proxy.chrome_rules("proxy.test") + [f"MAP * 127.0.0.1:{fixture_web.port}", "EXCLUDE localhost"])
    config = create_app(dict(base, SQLALCHEMY_DATABASE_URI="sqlite://", PROXY_URL=PROXY_URL, POOL_SIZE=1,
                             CHROME_ARGS=[f"--host-resolver-rules={rules}", "--ignore-certificate-errors"])).config
    with get_pool(settings(config)).browser():  # start this module's browser outside the first crawl's deadline
        pass
    yield config
    get_pool(settings(config)).shutdown()


class Window:
    """What the proxy listeners and the fixture web saw during one crawl."""

    def __init__(self, proxy, web):
        self.proxy, self.web = proxy, web

    def __enter__(self):
        self._p, self._w = len(self.proxy.log), len(self.web.log)
        return self

    def __exit__(self, *exc):
        with self.proxy.lock:
            self.proxied = self.proxy.log[self._p:]
        with self.web.lock:
            self.served = self.web.log[self._w:]

    def labels(self):
        return {e["label"] for e in self.proxied}


def crawl(config, url, **options):
    outcome = run_crawl(settings(config), {"url": url, "session_id": None, "options": options})
    assert outcome.response["success"] is True, outcome.response
    return outcome.response


def beacon(served, run):
    """The geo.example page's report (timezone, languages) for ``run``."""
    [entry] = [e for e in served if e["path"] == "/__fixture/pixel.gif" and f"page={run}" in e["query"]]
    return {k: v[0] for k, v in parse_qs(entry["query"]).items()}


@pytest.mark.browser
def test_every_host_of_the_page_goes_through_the_country_proxy(config, proxy, fixture_web):
    with Window(proxy, fixture_web) as seen:
        report = crawl(config, "https://shop.example/?proxied", country="DE")
    assert {p["account_id"] for p in report["marketingPixels"]} >= {"1234567890123456", "G-DEMO12345X"}
    assert seen.labels() == {"de"}  # {country} -> "de", only the DE exit was used
    assert {e["method"] for e in seen.proxied} == {"CONNECT"}  # https is tunnelled
    # The page's requests: its document and everything with a Referer (Chrome's
    # own background requests, from outside the crawl's context, have none).
    page_hosts = {e["host"] for e in seen.served if e["query"] == "proxied" or e["headers"].get("Referer")}
    assert {"shop.example", "connect.facebook.net", "www.googletagmanager.com"} <= page_hosts
    # Nothing went around the proxy: each name was in the TLS ClientHello (SNI) of a
    # tunnel through it, as Chrome sent it; the CONNECT itself names only the address
    # the egress proxy checked (here the operator's MAP *), never a name to resolve again.
    assert page_hosts <= {e["sni"] for e in seen.proxied}
    assert {e["target"] for e in seen.proxied} == {f"127.0.0.1:{fixture_web.port}"}


@pytest.mark.browser
def test_country_sets_accept_language_locale_and_timezone(config, proxy, fixture_web):
    run = uuid.uuid4().hex
    with Window(proxy, fixture_web) as seen:
        crawl(config, f"https://geo.example/?{run}", country="DE")
    assert seen.labels() == {"de"}
    [page] = [e for e in seen.served if e["host"] == "geo.example" and e["query"] == run]
    assert page["headers"]["Accept-Language"] == "de-DE,de;q=0.9,en;q=0.8"
    report = beacon(seen.served, run)
    assert report["tz"] == "Europe/Berlin"
    assert report["lang"].startswith("de")
    assert report["langs"].split(",")[0] == "de-DE"
    assert report["locale"] == "de-DE"


@pytest.mark.browser
def test_proxy_false_goes_direct_but_keeps_the_country(config, proxy, fixture_web):
    run = uuid.uuid4().hex
    with Window(proxy, fixture_web) as seen:
        crawl(config, f"https://geo.example/?{run}", country="DE", proxy=False)
    assert seen.proxied == []
    assert beacon(seen.served, run)["tz"] == "Europe/Berlin"


@pytest.mark.browser
def test_plain_http_goes_through_a_tunnel_to_the_checked_address_of_the_lowercase_country_proxy(config, proxy,
                                                                                                fixture_web):
    run = uuid.uuid4().hex
    with Window(proxy, fixture_web) as seen:
        crawl(config, f"http://geo.example/?{run}", country="fr")
    assert seen.labels() == {"fr"}
    # The egress proxy asks the upstream for a tunnel to the address it checked (port 80
    # of the name, mapped here to the fixture web), and sends Chrome's request through it
    # in origin form with its Host: the upstream resolves nothing and rewrites no Host.
    page = [e for e in seen.proxied if (e.get("tunnelled") or {}).get("path") == f"/?{run}"]
    assert [(e["method"], e["target"], e["tunnelled"]["host"]) for e in page] == \
        [("CONNECT", f"127.0.0.1:{fixture_web.port}", "geo.example")]
    assert any(e["proxy_headers"].get("Proxy-Connection") for e in seen.proxied)  # spoken to as a proxy
    report = beacon(seen.served, run)
    assert (report["tz"], report["locale"]) == ("Europe/Paris", "fr-FR")


@pytest.mark.browser
def test_without_country_the_default_exit_is_used_and_no_locale_is_forced(config, proxy, fixture_web):
    run = uuid.uuid4().hex
    with Window(proxy, fixture_web) as seen:
        crawl(config, f"https://geo.example/?{run}")
    assert seen.labels() == {""}  # http://proxy.test:3128
    assert get_pool(settings(config)).stats()["alive"] == 1
    [page] = [e for e in seen.served if e["query"] == run]
    assert not page["headers"]["Accept-Language"].startswith(("de", "fr"))
