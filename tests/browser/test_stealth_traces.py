"""No tagcrawl-specific fingerprint (issue 24 item 6), through real Chrome.

``traces.example`` is a hostile page: ``probe.js`` looks for every trace the
page hooks could leave (globals, accessors, markers on elements, the binding,
non-native ``toString`` of wrapped built-ins, descriptors, stack frames,
timer ids, spied built-ins, a ``dataLayer`` accessor, ``navigator.webdriver``)
plus FingerprintJS BotD, at three moments (while parsing, after load, and at
the crawler's flush, after its consent click), and fires its Meta pixel only
when it finds nothing.  The pixel being reported is the proof.  The negative
control runs the same page in a bare Selenium Chrome with hooks written the
old way (``__tcHooked``, a plain-function ``setTimeout``, a ``dataLayer``
accessor): the probe sees them and the pixel never fires.
"""
from __future__ import annotations

import json

import pytest

from tagcrawl import create_app
from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.crawl.service import run_crawl
from tests.support.config import settings
from tests.support.web.proxy import RecordingProxy

pytestmark = [pytest.mark.browser]

PIXELS = {"load": "777788889999001", "pagehide": "777788889999002"}


def probe_reports(web, start: int, phases=("head", "load", "pagehide"), timeout_s: float = 20) -> dict:
    """The probe's reports (phase -> {findings, botd}) logged since ``start``."""
    for phase in phases:
        assert web.wait_for(lambda e, p=phase: e["path"] == f"/__report/traces-{p}" and web.log.index(e) >= start,
                            timeout_s), f"no {phase} report"
    with web.lock:
        return {e["path"].rsplit("-", 1)[1]: json.loads(e["body"]) for e in web.log[start:]
                if e["path"].startswith("/__report/traces-")}


def test_a_page_hunting_for_crawler_traces_finds_none_and_its_pixel_is_reported(crawler, fixture_web, npm_packages):
    start = len(fixture_web.log)
    outcome = crawler("https://traces.example/")
    seen = probe_reports(fixture_web, start)
    for phase, report in seen.items():
        assert report["findings"] == [], f"{phase}:\n" + "\n".join(report["findings"])
    assert seen["load"]["botd"] == {"bot": False}
    assert outcome.response["success"] is True
    pixels = {p["account_id"]: p["consent"] for p in outcome.response["marketingPixels"] if p["vendor"] == "Meta Pixel"}
    # Fired after load, and at the flush, which came after the consent click.
    assert pixels == {PIXELS["load"]: "before_consent", PIXELS["pagehide"]: "after_accept"}


def test_chrome_connects_to_the_upstream_proxy_with_the_user_agent_of_its_requests(fixture_web, browser, tmp_path):
    """Chrome's CONNECT (through the egress proxy, chained to a country proxy)
    is no DevTools-overridable request: its User-Agent comes from the launch
    switch (``stealth.launch_user_agent``), which must match the page's."""
    proxy = RecordingProxy(fixture_web.port, labels=("de",)).start()
    rules = ", ".join(proxy.chrome_rules("proxy.test") + [f"MAP * 127.0.0.1:{fixture_web.port}", "EXCLUDE localhost"])
    config = create_app(dict(browser, SQLALCHEMY_DATABASE_URI="sqlite://", PROXY_URL="http://{country}.proxy.test:3128",
                             POOL_SIZE=1, CHROME_ARGS=[f"--host-resolver-rules={rules}", "--ignore-certificate-errors",
                                                       "--tagcrawl-test-pool=connect-ua"])).config
    try:
        start = len(fixture_web.log)
        outcome = run_crawl(settings(config), {"url": "https://shop.example/?connect-ua", "session_id": None,
                                               "options": {"country": "DE"}})
        assert outcome.response["success"] is True
        with fixture_web.lock:
            [page] = [e for e in fixture_web.log[start:] if e["query"] == "connect-ua"]
        with proxy.lock:
            connects = [e for e in proxy.log if e["method"] == "CONNECT"]
    finally:
        get_pool(settings(config)).shutdown()
        proxy.stop()
    agent = page["headers"]["User-Agent"]
    assert "Headless" not in agent and "Chrome/" in agent
    assert connects and {e["user_agent"] for e in connects} == {agent}


#: Hooks written the way tagcrawl's were before issue 24: what the probe must catch.
NAIVE_HOOKS = """
Object.defineProperty(window, "__tcHooked", { value: true });
const st = window.setTimeout;
window.setTimeout = function (fn, ms, ...rest) { return st.call(this, fn, ms, ...rest); };
let dl;
Object.defineProperty(window, "dataLayer", { configurable: true, enumerable: true,
                                             get() { return dl; }, set(v) { dl = v; } });
"""


@pytest.mark.slow
def test_the_probe_sees_naive_hooks_and_a_bare_selenium_chrome(fixture_web, browser, npm_packages):
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                *fixture_web.chrome_args()):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NAIVE_HOOKS})
        start = len(fixture_web.log)
        driver.get("https://traces.example/")
        seen = probe_reports(fixture_web, start, phases=("head", "load"))
    finally:
        driver.quit()
    found = "\n".join(seen["load"]["findings"])
    assert "navigator.webdriver is true" in found
    assert "__tcHooked" in found
    assert "setTimeout: Function.prototype.toString.call gives" in found
    assert "global dataLayer is an accessor" in found or "dataLayer is not a data property" in found
    assert "BotD" in found
    with fixture_web.lock:
        assert not [e for e in fixture_web.log[start:] if "777788889999" in e["query"]]  # no pixel
