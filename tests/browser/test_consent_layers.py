"""The consent heuristic's harder banners, end to end through Chrome (issue 27 item 4):
a layer that is itself a shadow host (its innerText is empty), a second layer
opened by "Settings" while the first stays visible, a settings layer whose
purposes are on by default (its "Save" accepts unless they are switched off
first) and a page whose consent library's global is ``CookieConsent``
without being Cookiebot (the new languages: test_consent_languages.py).  All crawls run once per module, two at a time."""
from __future__ import annotations

import pytest

from tests.support.cmp_cases import crawl_all, crawl_settings, pixels, request

pytestmark = pytest.mark.browser

SHADOW_HOST, TWO_LAYERS, TOGGLES, NOT_COOKIEBOT = (
    "consent-shadowhost.example", "consent-twolayer.example", "consent-toggles.example", "consent-ccglobal.example")
PIXEL = {SHADOW_HOST: "710110000000001", TWO_LAYERS: "710120000000001", TOGGLES: "710130000000001",
         NOT_COOKIEBOT: "710140000000001"}


@pytest.fixture(scope="module")
def crawls(fixture_web, tmp_path_factory):
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("layers"))
    config["CRAWL_TIMEOUT_S"] = 60  # two-step refusals on a loaded machine; timing is not under test here
    requests = {}
    for host in PIXEL:
        requests[(host, "accept")] = request(f"https://{host}/")
        requests[(host, "reject")] = request(f"https://{host}/", consentAction="reject")
    return crawl_all(config, requests)


def _cookies(report) -> dict:
    return {c["name"]: c["phase"] for c in report["cookies"]}


@pytest.mark.parametrize("action", ["accept", "reject"])
def test_a_layer_that_is_itself_a_shadow_host_is_read_through_its_shadow_root(action, crawls):
    # <privacy-notice> is the fixed layer; its text and buttons are only in its closed shadow root
    crawled = crawls[(SHADOW_HOST, action)]
    report, consent = crawled.response, crawled.consent
    assert consent.banner and consent.how == "heuristic" and consent.verified, consent
    assert consent.attempts == ["Accept all" if action == "accept" else "Reject all"]
    assert (("Meta Pixel", PIXEL[SHADOW_HOST]) in pixels(report)) is (action == "accept")
    assert _cookies(report)["site_consent"] == f"after_{action}"


def test_after_settings_the_newly_opened_layer_is_scanned_first(crawls):
    # the first layer (accept, settings) stays visible under the second (reject): the rescan
    # takes the second one, so the refusal is clicked there
    crawled = crawls[(TWO_LAYERS, "reject")]
    report, consent = crawled.response, crawled.consent
    assert consent.attempts == ["Cookie settings", "Reject all"], consent
    assert consent.verified and report["consent"]["button_text"] == "Reject all"
    assert ("Meta Pixel", PIXEL[TWO_LAYERS]) not in pixels(report)
    assert _cookies(report)["site_consent"] == "after_reject"


def test_accepting_a_two_layer_banner_uses_its_first_layer(crawls):
    crawled = crawls[(TWO_LAYERS, "accept")]
    assert crawled.consent.attempts == ["Accept all"] and crawled.consent.verified
    assert ("Meta Pixel", PIXEL[TWO_LAYERS]) in pixels(crawled.response)


def test_toggles_on_by_default_are_switched_off_before_save_so_the_refusal_is_stored(crawls):
    crawled = crawls[(TOGGLES, "reject")]
    report, consent = crawled.response, crawled.consent
    assert consent.attempts == ["Manage preferences", "Save my choices"], consent
    # a checkbox, an ARIA switch and a styled switch whose input is hidden; the locked
    # "Strictly necessary" one stays on
    assert consent.unticked == ["Analytics", "Marketing", "Personalisation"]
    assert consent.verified
    cookies = _cookies(report)
    assert cookies["site_consent"] == "after_reject"
    assert not [name for name in cookies if name.startswith("site_optin_")]  # the page stored a refusal
    assert ("Meta Pixel", PIXEL[TOGGLES]) not in pixels(report)


def test_accepting_never_unticks(crawls):
    crawled = crawls[(TOGGLES, "accept")]
    assert crawled.consent.attempts == ["Accept all"] and crawled.consent.unticked == []
    assert ("Meta Pixel", PIXEL[TOGGLES]) in pixels(crawled.response)


@pytest.mark.parametrize("action", ["accept", "reject"])
def test_a_cookieconsent_global_does_not_name_cookiebot(action, crawls):
    crawled = crawls[(NOT_COOKIEBOT, action)]
    report, consent = crawled.response, crawled.consent
    assert consent.banner and consent.how == "heuristic" and consent.verified, consent
    assert consent.cmp is None and report["consent"]["cmp"] is None
    assert consent.attempts == ["Accept all" if action == "accept" else "Only necessary"]
