"""Consent compliance through real Chrome, on the real CMP libraries
(tests/support/web/compliance_pages.py): every page fires a Meta Pixel before any
choice, a TikTok Pixel only on consent to marketing, and a Google tag on any
choice (the tag that ignores a refusal).  Each page is crawled with accept
and with reject; both must end verified.  All crawls run once per module."""
from __future__ import annotations

import pytest

from tagcrawl.engine.compliance import tcf
from tagcrawl.engine.consent.result import BANNER_HIDDEN

from tests.support.cmp_cases import crawl_all, crawl_settings, request
from tests.support.web import npm_cdn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CMPS = {"cc-vanilla.example": ("CookieConsent v3 (orestbida)", "Accept all", "Reject all"),
        "cc-klaro.example": ("Klaro", "That's ok", "I decline"),
        "cc-tarteaucitron.example": ("tarteaucitron", "OK, accept all", "Deny all cookies"),
        "cc-osano.example": ("cookieconsent (Osano open source)", "Allow cookies", "Decline"),
        "cc-orejime.example": ("Orejime", "Accept", "Decline"),
        "cc-tcf.example": ("TCF CMP 300", "Accept all", "Reject all"),
        "cc-vanilla-layered.example": ("CookieConsent v3 (orestbida)", "Accept all", "Reject all"),
        "cc-frame.example": (None, "Alle akzeptieren", "Alle ablehnen"),  # site banner, cross-site iframe
        "cc-closed-shadow.example": (None, "Tout accepter", "Continuer sans accepter")}
#: @iabgpp/cmpapi joined the pinned npm packages later: a checkout installed before needs `make npm-fixtures`.
GPP_INSTALLED = npm_cdn.package_version("@iabgpp/cmpapi") is not None
if GPP_INSTALLED:
    CMPS["cc-gpp.example"] = (None, "Accept", "Do not sell my personal information")
BEFORE = ("Meta Pixel", "111111111111111")
ACCEPTED = ("TikTok Pixel", "CACCEPT0000000000001")
IGNORES = ("Google Analytics 4", "G-IGNORE01")


@pytest.fixture(scope="module")
def crawls(fixture_web, npm_packages, tmp_path_factory):
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("compliance"))
    requests = {(host, action): request(f"https://{host}/", consentAction=action)
                for host in CMPS for action in ("accept", "reject")}
    requests[("cc-decoy.example", "accept")] = request("https://cc-decoy.example/")  # byPassConsent default
    requests[("cc-gcm.example", "accept")] = request("https://cc-gcm.example/", consentAction="accept")
    requests[("cc-vanilla.example", "none")] = request("https://cc-vanilla.example/", byPassConsent=False)
    requests[("cc-nostore.example", "reject")] = request("https://cc-nostore.example/", consentAction="reject")
    return crawl_all(config, requests)


def phases(report: dict) -> dict:
    return {(p["vendor"], p["account_id"]): p["consent"] for p in report["marketingPixels"]}


def cookie_phases(report: dict) -> dict:
    return {c["name"]: c["phase"] for c in report["cookies"]}


@pytest.mark.parametrize("host", CMPS)
def test_accept_is_verified_and_every_pixel_and_cookie_has_its_phase(host, crawls):
    cmp, accept_text, _ = CMPS[host]
    report = crawls[(host, "accept")].response
    assert report["success"] is True, report
    consent = report["consent"]
    assert (consent["cmp"], consent["action"], consent["button_text"], consent["verified"]) == (
        cmp, "accept", accept_text, True)
    expected = {BEFORE: "before_consent", ACCEPTED: "after_accept", IGNORES: "after_accept"}
    assert expected.items() <= phases(report).items()
    cookies = cookie_phases(report)
    assert (cookies["_fbp"], cookies["_ga"]) == ("before_consent", "after_accept")
    assert consent["violations"] == []
    assert {"type": "pixel", "vendor": "Meta Pixel", "account_id": BEFORE[1]} in consent["before_consent"]
    fbp = next(c for c in report["cookies"] if c["name"] == "_fbp")
    assert (fbp["vendor"], fbp["party"], fbp["session"]) == ("Meta Pixel", "first", False)


@pytest.mark.parametrize("host", CMPS)
def test_reject_is_verified_and_the_tag_that_ignores_it_is_a_violation(host, crawls):
    cmp, _, reject_text = CMPS[host]
    report = crawls[(host, "reject")].response
    consent = report["consent"]
    assert (consent["cmp"], consent["action"], consent["button_text"], consent["verified"]) == (
        cmp, "reject", reject_text, True), crawls[(host, "reject")].consent
    found = phases(report)
    assert found[BEFORE] == "before_consent" and found[IGNORES] == "after_reject"
    assert ACCEPTED not in found  # the CMP kept the gated tag off
    assert {"type": "pixel", "vendor": IGNORES[0], "account_id": IGNORES[1]} in consent["violations"]
    assert any(v["type"] == "cookie" and v["name"] == "_ga" and v["vendor"] == "Google Analytics 4"
               for v in consent["violations"])
    assert report["message"] is None
    stored = [c for c in report["cookies"] if c["stores_consent"]]
    assert stored and all(c["phase"] == "after_reject" or host == "cc-tarteaucitron.example" for c in stored)
    assert not {c["name"] for c in stored} & {v.get("name") for v in consent["violations"]}


def test_reject_in_a_second_layer(crawls):
    consent = crawls[("cc-vanilla-layered.example", "reject")].consent
    assert consent.attempts == ["Manage preferences", "Reject all"]
    assert consent.verified and BANNER_HIDDEN in consent.evidence


def test_a_decoy_sharing_the_accept_selector_is_tried_then_the_fallback_accepts(crawls):
    crawled = crawls[("cc-decoy.example", "accept")]
    assert crawled.consent.attempts == ["", "Agree and Proceed"]  # "More options" has no text of its own
    report = crawled.response
    assert report["consent"]["verified"] is True
    assert report["button"]["button_text"] == "Agree and Proceed"
    assert phases(report)[ACCEPTED] == "after_accept"
    assert report["message"] is None


def test_without_a_choice_everything_is_before_consent(crawls):
    report = crawls[("cc-vanilla.example", "none")].response
    assert report["consent"]["action"] == "none" and report["consent"]["verified"] is False
    assert set(phases(report).values()) == {"before_consent"}
    assert not crawls[("cc-vanilla.example", "none")].consent.clicked


def test_tcf_cmp_string_is_read_from_tcfapi_and_decoded(crawls):
    accepted = crawls[("cc-tcf.example", "accept")].response["consent"]["tcf"]
    api = next(t for t in accepted if t["source"] == "__tcfapi")
    assert (api["cmp_id"], api["event_status"], api["gdpr_applies"]) == (300, "useractioncomplete", True)
    decoded = tcf.decode(api["tc_string"])
    assert api["decoded"] == decoded.summary()
    assert (decoded.cmp_id, decoded.policy_version, decoded.vendor_list_version) == (300, 5, 150)
    assert decoded.purpose_consents == list(range(1, 12)) and decoded.vendor_consents == [1, 2, 755, 793]
    refused = crawls[("cc-tcf.example", "reject")].response["consent"]["tcf"]
    decoded = tcf.decode(next(t for t in refused if t["source"] == "__tcfapi")["tc_string"])
    assert decoded.purpose_consents == [] and decoded.vendor_consents == []
    cookie = next(t for t in refused if t["source"] == "cookie euconsent-v2")
    assert cookie["decoded"]["purposes"] == []


def test_pixels_carrying_gdpr_consent_are_decoded(crawls):
    pixel = next(p for p in crawls[("cc-tcf.example", "accept")].response["marketingPixels"]
                 if p["account_id"] == "222222222222222")
    assert pixel["tcf"]["gdpr"] == "1"
    assert pixel["tcf"]["tcf"]["cmp_id"] == 300 and pixel["tcf"]["tcf"]["vendors"] == [1, 2, 755, 793]


def test_consent_mode_states_per_google_pixel_and_granted_storage_before_consent_is_flagged(crawls):
    report = crawls[("cc-gcm.example", "accept")].response
    by_id = {p["account_id"]: p for p in report["marketingPixels"]}
    ga = by_id["G-CMODE0001"]["consent_mode"]
    assert [(s["phase"], s["ad_storage"], s["analytics_storage"]) for s in ga] == [
        ("before_consent", "denied", "denied"), ("after_accept", "granted", "granted")]
    mixed = by_id["G-CMODE0002"]["consent_mode"][0]
    assert (mixed["ad_storage"], mixed["analytics_storage"], mixed["ad_user_data"], mixed["ad_personalization"]) == (
        "denied", "granted", "denied", "granted")
    assert report["consent"]["granted_before_consent"] == [
        {"vendor": "Google Ads", "account_id": "AW-123456789", "gcs": "G111", "gcd": "13t3t3t3t5"}]


def test_a_refusal_that_is_not_stored_is_not_verified_but_still_sets_the_phases(crawls):
    crawled = crawls[("cc-nostore.example", "reject")]
    consent = crawled.response["consent"]
    assert (consent["verified"], consent["button_text"]) == (False, "Decline")
    assert crawled.consent.evidence == [BANNER_HIDDEN]
    assert phases(crawled.response)[IGNORES] == "after_reject"
    assert {"type": "pixel", "vendor": IGNORES[0], "account_id": IGNORES[1]} in consent["violations"]


@pytest.mark.skipif(not GPP_INSTALLED, reason="@iabgpp/cmpapi not installed: run `make npm-fixtures`")
def test_gpp_cmp_us_privacy_section_is_read_through_gpp_ping(crawls):
    accepted = crawls[("cc-gpp.example", "accept")].response["consent"]
    refused = crawls[("cc-gpp.example", "reject")].response["consent"]
    assert accepted["gpp"]["applicable_sections"] == [6]
    assert (accepted["gpp"]["us_privacy"], refused["gpp"]["us_privacy"]) == ("1YNN", "1YYN")
    assert refused["us_privacy"] == {"string": "1YYN", "notice": True, "opt_out_sale": True, "lspa": False}
