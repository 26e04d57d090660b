"""Real pages: vendors' and CMP authors' own code from npm, run in real Chrome.

- tagcrawl presents as a regular Chrome (navigator.webdriver false, Client
  Hints with brands, locale from the country) in the page, a cross-site
  frame and a worker; FingerprintJS BotD reports no bot.  A bare Selenium
  Chrome is seen as a bot by the same code (the negative).
- 8 analytics SDKs send their own beacons and are reported with account ids.
- 6 consent libraries, in 6 languages, gate SDKs with their own mechanisms:
  with consent the SDKs fire, without it they do not.
- The flush delivers what an SDK queued; quiet-waiting is not fooled by what
  SDKs keep running; per-phase timings go out as ``Server-Timing``.
"""
from __future__ import annotations

import gzip
import json

import pytest
from tests.support.config import settings

pytestmark = [pytest.mark.browser]


def accounts(outcome) -> set[tuple[str, str | None]]:
    return {(h.vendor_key, h.account_id) for h in outcome.hits}


def vendors(outcome) -> set[str]:
    return {h.vendor_key for h in outcome.hits}


def crawl_logged(crawler, web, url, **options):
    """Crawl ``url``; returns (outcome, the fixture-web requests made during the crawl)."""
    start = len(web.log)
    outcome = crawler(url, **options)
    with web.lock:
        return outcome, web.log[start:]


def reports(entries) -> dict[str, dict]:
    """The stealth probe's reports (/__report/<where>) by where."""
    return {e["path"].rsplit("/", 1)[1]: dict(json.loads(e["body"]), headers=e["headers"])
            for e in entries if e["path"].startswith("/__report/")}


# -- look like a person's Chrome ---------------------------------------------------------
def test_page_frame_and_worker_see_a_regular_chrome_and_botd_sees_no_bot(crawler, fixture_web, npm_packages):
    start = len(fixture_web.log)
    outcome = crawler("https://stealth.example/", country="DE")
    assert outcome.response["success"] is True
    for where in ("page", "frame", "worker", "botd"):
        assert fixture_web.wait_for(lambda e, w=where: e["path"] == f"/__report/{w}" and
                                    fixture_web.log.index(e) >= start, 20), where
    seen = reports(fixture_web.log[start:])
    assert seen["botd"]["result"] == {"bot": False}
    for where in ("page", "frame", "worker"):
        report = seen[where]
        assert "Headless" not in report["userAgent"] and "Headless" not in report["appVersion"]
        assert report.get("webdriver") is not True  # false in documents; workers have no such property
        assert report["languages"][0] == "de-DE"
        assert report["headers"]["Accept-Language"].startswith("de-DE")
        assert report["automation"] == []
        brands = {b["brand"]: b["version"] for b in report["hints"]["brands"]}
        assert "Google Chrome" in brands and "Chromium" in brands and "HeadlessChrome" not in brands
        full = {b["brand"]: b["version"] for b in report["hints"]["high"]["fullVersionList"]}
        assert full["Google Chrome"].count(".") == 3 and full["Google Chrome"].startswith(brands["Google Chrome"] + ".")
        assert report["hints"]["platform"] == "Linux"
        assert report["timezone"] == "Europe/Berlin"
    assert seen["page"]["webdriver"] is False and seen["frame"]["webdriver"] is False
    sec_ch_ua = seen["page"]["headers"]["sec-ch-ua"]
    assert '"Google Chrome"' in sec_ch_ua and "Headless" not in sec_ch_ua


@pytest.mark.slow
def test_a_bare_selenium_chrome_is_a_bot_to_the_same_code(fixture_web, browser, npm_packages):
    """The negative: ChromeDriver's defaults, no tagcrawl.  BotD, posthog-js and
    vanilla-cookieconsent all notice, so the positive tests above prove something."""
    from selenium import webdriver
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    base = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage")
    for arg in (*base, *fixture_web.chrome_args()):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options)
    try:
        start = len(fixture_web.log)
        driver.get("https://stealth.example/")
        entry = fixture_web.wait_for(lambda e: e["path"] == "/__report/botd" and fixture_web.log.index(e) >= start, 20)
        assert json.loads(entry["body"])["result"]["bot"] is True
        driver.get("https://sdk-posthog.example/")
        assert driver.execute_script("return navigator.webdriver") is True
        assert driver.execute_script("return posthog._is_bot()") is True  # posthog-js drops every event
        driver.get("https://npm-vanilla.example/")
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window._ccRun === true"))
        banner = driver.execute_async_script(
            "const done = arguments[0];"
            "const check = () => setTimeout(() => done(!!document.querySelector('#cc-main .cm')), 0);"
            "document.readyState === 'complete' ? check() : addEventListener('load', check);")
        assert banner is False  # hideFromBots: no banner for navigator.webdriver
    finally:
        driver.quit()


# -- analytics SDKs sending their own beacons ----------------------------------------------
SDK_PAGES = [
    # (page host, vendor key, account id, (beacon host, beacon path prefix))
    ("sdk-posthog.example", "posthog", "phc_FixtureProjectToken0123456789abcdefGHIJ", ("eu.i.posthog.com", "/e/")),
    ("sdk-mixpanel.example", "mixpanel", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", ("api-js.mixpanel.com", "/track")),
    ("sdk-amplitude.example", "amplitude", "a1b2c3d4e5f60718293a4b5c6d7e8f90", ("api2.amplitude.com", "/2/httpapi")),
    ("sdk-segment.example", "segment", "FxSegWriteKey0123456789abcdefAB", ("api.segment.io", "/v1/t")),
    ("sdk-snowplow.example", "snowplow", "fixture-shop",
     ("collector.snowplow-fixture.example", "/com.snowplowanalytics.snowplow/tp2")),
    ("sdk-rudderstack.example", "rudderstack", "2FxRudderWriteKey0123456789a",
     ("fixtureshop.dataplane.rudderstack.com", "/v1/")),
    ("sdk-plausible.example", "plausible", "sdk-plausible.example", ("plausible.io", "/api/event")),
    ("sdk-mparticle.example", "mparticle", "us1-0a1b2c3d4e5f60718293a4b5c6d7e8f9", ("jssdks.mparticle.com", "/v3/JS/")),
]


@pytest.mark.slow
@pytest.mark.parametrize("host,vendor,account,beacon", SDK_PAGES, ids=[p[1] for p in SDK_PAGES])
def test_real_sdk_beacons_are_reported(crawler, fixture_web, npm_packages, host, vendor, account, beacon):
    outcome, log = crawl_logged(crawler, fixture_web, f"https://{host}/")
    assert outcome.response["success"] is True
    assert any(e["host"] == beacon[0] and e["path"].startswith(beacon[1]) and e["method"] == "POST" for e in log)
    assert (vendor, account) in accounts(outcome)


# -- consent libraries gating SDKs ---------------------------------------------------------
CMP_PAGES = [
    # (page host, accept button text, [(vendor key, account id, beacon host)])
    ("npm-vanilla.example", "Aceptar todo",
     [("posthog", "phc_VanillaShopToken0123456789abcdefGHIJKL", "eu.i.posthog.com"),
      ("snowplow", "tienda-vanilla", "collector.snowplow-fixture.example")]),
    ("npm-klaro.example", "Das ist ok", [("mixpanel", "9a8b7c6d5e4f30211203f4e5d6c7b8a9", "api-js.mixpanel.com"),
                                         ("plausible", "npm-klaro.example", "plausible.io")]),
    ("npm-tarteaucitron.example", "Tout accepter",
     [("amplitude", "b2c3d4e5f60718293a4b5c6d7e8f90a1", "api2.amplitude.com")]),
    ("npm-osano.example", "Accetta i cookie", [("segment", "FxOsanoWriteKey0123456789abcdefA", "api.segment.io")]),
    ("npm-orejime.example", "Aanvaarden",
     [("rudderstack", "2FxOrejimeWriteKey012345678", "orejimeshop.dataplane.rudderstack.com")]),
    ("npm-cookieseu.example", "Aceitar",
     [("mparticle", "us1-1b2c3d4e5f60718293a4b5c6d7e8f90a", "jssdks.mparticle.com")]),
]


@pytest.mark.slow
@pytest.mark.parametrize("host,button,gated", CMP_PAGES, ids=[p[0].split(".")[0] for p in CMP_PAGES])
def test_real_cmp_banner_is_accepted_and_the_sdks_it_gates_fire(crawler, fixture_web, npm_packages, host, button,
                                                                 gated):
    outcome, log = crawl_logged(crawler, fixture_web, f"https://{host}/")
    assert outcome.response["button"]["consent_banner"] is True
    assert outcome.response["button"]["button_text"] == button
    for vendor, account, beacon_host in gated:
        assert any(e["host"] == beacon_host for e in log), beacon_host
        assert (vendor, account) in accounts(outcome)


@pytest.mark.slow
@pytest.mark.parametrize("host,button,gated", CMP_PAGES, ids=[p[0].split(".")[0] for p in CMP_PAGES])
def test_real_cmp_without_consent_the_gated_sdks_stay_silent(crawler, fixture_web, npm_packages, host, button, gated):
    outcome, log = crawl_logged(crawler, fixture_web, f"https://{host}/", byPassConsent=False)
    assert outcome.response["button"]["consent_banner"] is True
    for vendor, _account, beacon_host in gated:
        assert not any(e["host"] == beacon_host for e in log), beacon_host
        assert vendor not in vendors(outcome)


# -- flush, quiet, timings -------------------------------------------------------------------
def _posthog_events(entry) -> list[str]:
    body = entry["body"]
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    try:
        batch = json.loads(body)
    except ValueError:
        return []
    return [event.get("event") for event in (batch if isinstance(batch, list) else batch.get("batch", [batch]))]


def test_flush_delivers_what_an_sdk_queued_for_later(crawler, fixture_web, npm_packages):
    """posthog-js sends its queue every 30 s, or when the page is hidden or left: the
    queued event arrives through the crawl's flush, and the screenshots still work."""
    outcome, log = crawl_logged(crawler, fixture_web, "https://flush-posthog.example/", screenShots=True)
    assert outcome.response["success"] is True and outcome.response["screenShotUrls"]
    sent = [event for e in log if e["host"] == "eu.i.posthog.com" for event in _posthog_events(e)]
    assert "queued_until_leave" in sent
    assert ("posthog", "phc_FlushFixtureToken0123456789abcdefGHIJKL") in accounts(outcome)
    assert outcome.timings.phases["flush"] > 0


def test_polls_heartbeats_streams_and_endless_requests_do_not_hold_the_quiet_wait(browser):
    from tagcrawl.engine.capture.hub import NetworkCapture
    from tagcrawl.engine.collectors import standard
    from tagcrawl.engine.chrome.pool import get_pool
    from tagcrawl.engine.chrome.session import CrawlSession

    with get_pool(settings(browser)).browser() as handle:
        found = standard()
        capture = NetworkCapture(collectors=found)
        with CrawlSession(handle, capture) as session:
            session.driver.get("https://busy-sdk.example/")
            assert capture.wait_quiet(400, 60_000) is True  # quiet, not the cap
        assert any("555566667777888" in r.url for r in found.requests.get_data(None))


def test_server_timing_header_carries_the_phases(client, api_key, npm_packages):
    reply = client.post("/api/v1", json={"url": "https://plain.example/", "session_id": None},
                        headers={"x-api-key": api_key})
    assert reply.status_code == 200 and reply.get_json()["success"] is True
    timing = {part.split(";")[0].strip() for part in reply.headers["Server-Timing"].split(",")}
    assert {"navigate", "quiet", "probe", "consent", "flush", "collect", "report"} <= timing
