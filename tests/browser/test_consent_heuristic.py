"""Banners no CMP rule knows, end to end: the multilingual text heuristic,
the TCF layer, late banners, shadow roots, cross-site iframes, and the
buttons that must never be clicked (reject, subscribe, policy links, age
gates).  All crawls run once per module, two at a time."""
from __future__ import annotations

import pytest

from tagcrawl.engine.consent.result import BANNER_HIDDEN, TCF_COMPLETE

from tests.support.cmp_cases import LANGUAGE_BANNERS, crawl_all, crawl_settings, pixels, request

pytestmark = pytest.mark.browser

#: Full crawls for these languages; tests/browser/test_consent_scanner.py checks every
#: phrase of every language in one page.
CRAWLED_LANGUAGES = ("en", "de", "fr", "es", "it", "pl", "sv", "el", "ru", "tr", "ja", "zh")
BANNERS = [b for b in LANGUAGE_BANNERS if b.lang in CRAWLED_LANGUAGES]

#: host -> (button text, how the banner was found, pixel id of the page).
SPECIAL = {
    "consent-late2.example": ("Accept", "heuristic", "710000000000001"),
    "consent-late6.example": ("Accept", "heuristic", "710010000000001"),
    "consent-reject-first.example": ("Accept all", "heuristic", "710020000000001"),
    "consent-or-pay.example": ("Accept cookies", "heuristic", "710030000000001"),
    "consent-shadow.example": ("Accetta tutto", "heuristic", "710040000000001"),
    "consent-iframe.example": ("Allow all", "heuristic", "710050000000001"),
    "consent-dialog.example": ("Aceitar", "heuristic", "710060000000001"),
    "consent-tcf.example": ("Agree", "tcf", "710070000000001"),
}
#: host -> pixel id; the page's banner-like layer must not be clicked.
NEGATIVE = {
    "consent-newsletter.example": "710080000000001",
    "consent-footer.example": "710090000000001",
    "consent-agegate.example": "710100000000001",
}


@pytest.fixture(scope="module")
def crawl_config(fixture_web, tmp_path_factory):
    """Settings pointing Chrome at the fixture web, shared by this module's crawls."""
    return crawl_settings(fixture_web, tmp_path_factory.mktemp("crawls"))


@pytest.fixture(scope="module")
def crawls(crawl_config):
    requests = {b.lang: request(b.url) for b in BANNERS}
    requests.update({host: request(f"https://{host}/") for host in [*SPECIAL, *NEGATIVE]})
    requests["no-click"] = request("https://consent-en.example/", byPassConsent=False)
    requests["no-banner"] = request("https://plain.example/")
    return crawl_all(crawl_config, requests)


@pytest.mark.parametrize("banner", BANNERS, ids=lambda b: b.lang)
def test_custom_banner_is_accepted_in_its_language(banner, crawls):
    crawled = crawls[banner.lang]
    report = crawled.response
    assert report["success"] is True, report
    assert report["button"] == {"button_text": banner.accept, "consent_banner": True, "error_message": None}
    assert ("Meta Pixel", banner.pixel) in pixels(report)
    assert report["cookiesAfter"] > report["cookiesBefore"]
    assert crawled.consent.how == "heuristic" and crawled.consent.verified


@pytest.mark.parametrize("host", SPECIAL)
def test_special_banner_is_found_accepted_and_verified(host, crawls):
    text, how, pixel = SPECIAL[host]
    crawled = crawls[host]
    report = crawled.response
    assert report["button"] == {"button_text": text, "consent_banner": True, "error_message": None}
    assert ("Meta Pixel", pixel) in pixels(report)
    assert crawled.consent.how == how
    assert crawled.consent.verified and report["message"] is None


def test_a_banner_drawn_after_the_page_went_quiet_is_awaited_by_dom_change(crawls):
    # drawn by a 6 s timer, beyond the network-quiet horizon: the consent step
    # scanned, waited for the page to change, and scanned again
    assert crawls["consent-late6.example"].consent.rounds > 1


def test_a_page_without_banner_is_scanned_once_and_not_held(crawls):
    crawled = crawls["no-banner"]
    assert crawled.response["button"] == {"button_text": None, "consent_banner": False, "error_message": None}
    assert crawled.consent.rounds == 1  # nothing pending: no wait for a late banner


def test_tcf_cmp_without_cookie_words_is_found_and_verified_by_useractioncomplete(crawls):
    consent = crawls["consent-tcf.example"].consent
    assert consent.cmp == "TCF CMP 999"
    assert consent.evidence == [TCF_COMPLETE]  # its UI stays, it stores nothing


def test_banner_in_cross_site_iframe_is_verified_by_the_frame_going_away(crawls):
    assert BANNER_HIDDEN in crawls["consent-iframe.example"].consent.evidence


@pytest.mark.parametrize("host", NEGATIVE)
def test_newsletter_policy_links_and_age_gates_are_never_clicked(host, crawls):
    crawled = crawls[host]
    report = crawled.response
    assert report["success"] is True
    assert report["button"] == {"button_text": None, "consent_banner": False, "error_message": None}
    assert not crawled.consent.clicked
    assert ("Meta Pixel", NEGATIVE[host]) not in pixels(report)
    assert report["cookiesAfter"] == report["cookiesBefore"]


def test_policy_links_are_not_followed(crawls, fixture_web):
    assert crawls["consent-footer.example"].response["success"] is True
    followed = [e["path"] for e in fixture_web.requests_to("consent-footer.example") if e["path"] != "/"]
    assert not [path for path in followed if "cookie" in path or "privacy" in path]


def test_without_bypass_consent_a_custom_banner_is_reported_but_not_clicked(crawls):
    report = crawls["no-click"].response
    assert report["button"] == {"button_text": "Accept all cookies", "consent_banner": True, "error_message": None}
    assert not crawls["no-click"].consent.clicked
    assert report["marketingPixels"] == []
    assert report["cookiesAfter"] == report["cookiesBefore"]
