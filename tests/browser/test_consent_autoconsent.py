"""DuckDuckGo autoconsent's rule base as the first source of CMP rules, and
the stored choice (what the consent click wrote), through real Chrome.

- ``npm-cookiebar.example``: jquery-cookiebar 1.0.5 from npm, a library
  tagcrawl's own ``cmps/*.json`` do not know and autoconsent has a rule for
  ("PrimeBox CookieBar"): accept and reject are found, made by autoconsent,
  verified by tagcrawl, and the CMP is named by autoconsent's rule.
- ``plain.example``: no CMP: autoconsent finds nothing, nothing fails.
- ``consent-oddstore.example``: a site's own banner that stores the refusal
  under a cookie and a localStorage key no pattern knows: the refusal is
  verified by what the click wrote, and that cookie is not a violation.
- With ``AUTOCONSENT`` off, the same CMP page goes through tagcrawl's own rules.
All crawls run once per module, two at a time."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tagcrawl.engine.consent.result import BANNER_HIDDEN
from tests.support.cmp_cases import Crawled, crawl_settings, request
from tests.support.config import settings

pytestmark = [pytest.mark.browser]

CMP = "PrimeBox CookieBar"
MIXPANEL = ("Mixpanel", "5c4d3e2f1a0b99887766554433221100")
ODD_TAG = ("Meta Pixel", "333333333333333")


def _crawl_all(config: dict, requests: dict) -> dict:
    """``run_crawl`` for each ``{key: (request, setting overrides)}``, two at a
    time; each result also keeps its autoconsent collector (``.auto``)."""
    from tagcrawl.crawl import service, steps

    real, local = steps.handle_consent, threading.local()

    def recording(*args, **kwargs):
        local.auto = kwargs.get("auto")
        local.consent = real(*args, **kwargs)
        return local.consent

    def crawl(item):
        crawl_request, overrides = item
        local.consent = local.auto = None
        outcome = service.run_crawl(settings(dict(config, **overrides)), crawl_request)
        crawled = Crawled(outcome.response, local.consent)
        crawled.auto = local.auto
        return crawled

    steps.handle_consent = recording
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = {key: pool.submit(crawl, item) for key, item in requests.items()}
            return {key: future.result() for key, future in futures.items()}
    finally:
        steps.handle_consent = real


@pytest.fixture(scope="module")
def crawls(fixture_web, npm_packages, tmp_path_factory):
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("autoconsent"))
    cookiebar, odd = "https://npm-cookiebar.example/", "https://consent-oddstore.example/"
    return _crawl_all(config, {
        "accept": (request(cookiebar, consentAction="accept"), {}),
        "reject": (request(cookiebar, consentAction="reject"), {}),
        "none": (request(cookiebar, byPassConsent=False), {}),
        "plain": (request("https://plain.example/", consentAction="reject"), {}),
        "odd": (request(odd, consentAction="reject"), {}),
        "off": (request(cookiebar, consentAction="reject"), {"AUTOCONSENT": False}),
    })


def pixels(response: dict) -> dict:
    return {(p["vendor"], p["account_id"]): p["consent"] for p in response["marketingPixels"]}


def test_autoconsent_accepts_a_cmp_only_it_knows_and_tagcrawl_verifies(crawls):
    crawled = crawls["accept"]
    consent, report = crawled.consent, crawled.response
    assert (consent.rules, consent.clicked, consent.verified) == ("autoconsent", True, True), consent
    assert BANNER_HIDDEN in consent.evidence
    assert report["consent"]["cmp"] == CMP and report["consent"]["button_text"] == "Jag godkänner"
    assert pixels(report)[MIXPANEL] == "after_accept"  # the library's gated SDK fired
    assert {"type": "cookie", "name": "cb-enabled", "domain": "npm-cookiebar.example"} in \
        report["consent"]["stored_choice"]
    assert report["message"] is None


def test_autoconsent_rejects_and_the_refusal_is_verified_by_what_it_wrote(crawls):
    crawled = crawls["reject"]
    consent, report = crawled.consent, crawled.response
    assert (consent.rules, consent.verified, report["consent"]["cmp"]) == ("autoconsent", True, CMP), consent
    assert report["consent"]["button_text"] == "Nej tack"
    assert [s["name"] for s in report["consent"]["stored_choice"]] == ["cb-enabled"]
    assert MIXPANEL not in pixels(report)
    assert report["consent"]["violations"] == []
    assert next(c for c in report["cookies"] if c["name"] == "cb-enabled")["stores_consent"] is True


def test_without_a_click_autoconsent_only_reports_the_cmp(crawls):
    crawled = crawls["none"]
    assert (crawled.response["consent"]["cmp"], crawled.consent.clicked) == (CMP, False)
    assert crawled.response["button"]["consent_banner"] is True
    assert MIXPANEL not in pixels(crawled.response)


def test_on_a_page_without_cmp_autoconsent_finds_nothing_and_nothing_fails(crawls):
    crawled = crawls["plain"]
    assert crawled.auto is not None and crawled.auto.available
    frames = list(crawled.auto.frames.values())
    assert frames and frames[0].top  # it ran in the page (isolated world) and was answered
    assert not any(f.detected or f.popup for f in frames)
    assert (crawled.consent.banner, crawled.consent.clicked) == (False, False)
    assert crawled.response["success"] is True and crawled.response["message"] is None


def test_a_refusal_stored_under_unknown_names_is_verified_and_is_no_violation(crawls):
    crawled = crawls["odd"]
    consent, report = crawled.consent, crawled.response
    assert consent.verified and consent.rules == "tagcrawl", consent
    assert report["consent"]["button_text"] == "Reject all"
    stored = {(s["type"], s["name"]) for s in report["consent"]["stored_choice"]}
    assert stored == {("cookie", "zq_pref"), ("localStorage", "zq.v")}
    assert not any(v.get("name") == "zq_pref" for v in report["consent"]["violations"])
    assert {"type": "pixel", "vendor": ODD_TAG[0], "account_id": ODD_TAG[1]} in report["consent"]["violations"]


def test_autoconsent_off_leaves_the_choice_to_tagcrawls_own_rules(crawls):
    crawled = crawls["off"]
    assert crawled.auto is not None and not crawled.auto.available and not crawled.auto.frames
    assert crawled.consent.rules == "tagcrawl"
    assert crawled.response["consent"]["cmp"] != CMP
