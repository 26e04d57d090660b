"""Consent signals decoded (tagcrawl/engine/compliance/signals.py), cookie vendors
(tagcrawl/engine/vendors/cookies.py), phases (engine/compliance/report.py) and Consent
validation rules (crawl/rules.py): no browser."""
from __future__ import annotations

import pytest

from tagcrawl.engine.compliance import report, signals
from tagcrawl.crawl.report import CrawlReport, MarketingPixel
from tagcrawl.core.schemas import CrawlResponseSchema
from tagcrawl.crawl.rules import evaluate_rules
from tagcrawl.engine.vendors import find_vendor
from tagcrawl.engine.vendors.cookies import COOKIE_VENDORS, cookie_vendor_key
from tagcrawl.engine.vendors.types import Hit


@pytest.mark.parametrize("gcs, ad, analytics", [("G100", "denied", "denied"), ("G101", "denied", "granted"),
                                                ("G110", "granted", "denied"), ("G111", "granted", "granted")])
def test_gcs_every_state(gcs, ad, analytics):
    assert signals.decode_gcs(gcs) == {"ad_storage": ad, "analytics_storage": analytics}


@pytest.mark.parametrize("bad", [None, "", "G1", "G10", "G1x1", "X111", "G1111"])
def test_gcs_malformed(bad):
    assert signals.decode_gcs(bad) is None


@pytest.mark.parametrize("letter", sorted(signals.GCD_LETTERS))
def test_gcd_every_letter(letter):
    default, update, state = signals.GCD_LETTERS[letter]
    decoded = signals.decode_gcd(f"13{letter}3{letter}3{letter}3{letter}5")
    assert set(decoded) == set(signals.CONSENT_MODE_SIGNALS)
    assert all(v == {"default": default, "update": update, "state": state} for v in decoded.values())


def test_gcd_signals_in_order_and_gcs_wins_for_storage():
    mode = signals.consent_mode({"gcs": "G110", "gcd": "11p1r1m1n5"})
    assert (mode["ad_storage"], mode["analytics_storage"], mode["ad_user_data"], mode["ad_personalization"]) == (
        "granted", "denied", "denied", "granted")
    assert signals.claims_storage(mode)
    assert signals.consent_mode({"en": "page_view"}) is None
    assert signals.decode_gcd("13x3l3l3l5") is None


def test_us_privacy_and_gpp():
    usp = signals.decode_usp("1YNY")
    assert (usp.notice, usp.opt_out_sale, usp.lspa) == (True, False, True)
    assert signals.decode_usp("1---").notice is None
    assert signals.decode_usp("2YNN") is None and signals.decode_usp("1YN") is None
    gpp = signals.gpp_summary("DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", [2])
    assert gpp["applicable_sections"] == [2] and gpp["sections"] == 1 and gpp["us_privacy"] is None
    assert signals.gpp_summary("DBABTA~1YYN", [6])["us_privacy"] == "1YYN"


def test_tcf_params_of_a_pixel():
    from .test_tcf import IAB_EXAMPLE
    seen = signals.tcf_params({"gdpr": "1", "gdpr_consent": IAB_EXAMPLE})
    assert seen["gdpr"] == "1" and seen["tcf"]["cmp_id"] == 880
    macro = signals.tcf_params({"gdpr": "${GDPR}", "gdpr_consent": "${GDPR_CONSENT_755}"})
    assert macro["tcf"] is None
    assert signals.tcf_params({"id": "1"}) is None


def test_every_cookie_vendor_is_in_the_catalog():
    assert all(find_vendor(key) is not None for _, key in COOKIE_VENDORS)


@pytest.mark.parametrize("name, key", [("_ga", "google_analytics"), ("_ga_ABC123", "google_analytics"),
                                       ("_gcl_au", "google_ads"), ("_fbp", "facebook"), ("_fbc", "facebook"),
                                       ("_ttp", "tiktok"), ("_uetsid", "bing"), ("_uetvid", "bing"),
                                       ("_pin_unauth", "pinterest"), ("ajs_anonymous_id", "segment"),
                                       ("mp_0123abc_mixpanel", "mixpanel"), ("ph_phc_x_posthog", "posthog"),
                                       ("AMP_abc123", "amplitude"), ("_sp_id.1fff", "snowplow"),
                                       ("session", None), ("_gax", None)])
def test_cookie_vendor(name, key):
    assert cookie_vendor_key(name) == key


def _hit(vendor, name, account, ms, **params):
    return Hit(vendor, name, account, params=params, timestamp=ms)


def test_phases_from_the_click_time():
    facts = report.ConsentFacts(banner=True, action="reject", verified=True, choice_ms=1000.0,
                                cookies_at_choice={("_fbp", "shop.example")}, choice_cookies={"site_consent"})
    hits = [_hit("facebook", "Meta Pixel", "1", 500), _hit("google_analytics", "Google Analytics 4", "G-X", 1500),
            _hit("facebook", "Meta Pixel", "1", 2000)]
    pixels = [{"vendor": "Meta Pixel", "account_id": "1"}, {"vendor": "Google Analytics 4", "account_id": "G-X"}]
    cookies = [{"name": "_fbp", "domain": "shop.example", "expires": 4102444800, "session": False},
               {"name": "_ga", "domain": ".shop.example", "expires": -1, "session": True},
               {"name": "IDE", "domain": ".doubleclick.net", "expires": 4102444800, "session": False},
               {"name": "site_consent", "domain": "www.shop.example", "expires": 4102444800, "session": False}]
    built = report.build(pixels, hits, cookies, "https://www.shop.example/p", facts)
    crawl = CrawlReport(session_id=None, url="https://www.shop.example/p", cookies=built.cookies, consent=built.consent,
                        marketing_pixels=[MarketingPixel.of(p, c) for p, c in zip(pixels, built.pixels)])
    response = CrawlResponseSchema().dump(crawl)
    pixels = response["marketingPixels"]
    assert [p["consent"] for p in pixels] == ["before_consent", "after_reject"]
    got = {c["name"]: (c["phase"], c["party"], c["session"], c["vendor"]) for c in response["cookies"]
           if not c["stores_consent"]}
    assert [c["name"] for c in response["cookies"] if c["stores_consent"]] == ["site_consent"]
    assert got == {"_fbp": ("before_consent", "first", False, "Meta Pixel"),
                   "_ga": ("after_reject", "first", True, "Google Analytics 4"),
                   "IDE": ("after_reject", "third", False, find_vendor("floodlight").name)}
    assert response["cookies"][0]["expires"] == "2100-01-01T00:00:00Z"
    violations = response["consent"]["violations"]
    assert {"type": "pixel", "vendor": "Google Analytics 4", "account_id": "G-X"} in violations
    assert len(violations) == 3  # the CMP's own record of the refusal is not one
    items = report.rule_items(crawl)
    rules = [{"rule_id": "a", "vendor": "*", "key": "after_reject", "value": "Google*", "rule_type": "Consent"},
             {"rule_id": "b", "vendor": "*", "key": "before_consent", "value": "facebook", "rule_type": "Consent"},
             {"rule_id": "c", "vendor": "*", "key": "violations", "value": "tiktok|_ttp", "rule_type": "Consent"},
             {"rule_id": "d", "vendor": "*", "key": "after_reject", "value": "IDE", "rule_type": "Consent"},
             {"rule_id": "e", "vendor": "*", "key": "nonsense", "value": "*", "rule_type": "Consent"}]
    results = evaluate_rules(rules, hits, cookies, [], consent=items)
    assert [r["success"] for r in results] == [False, False, True, False, False]


def test_no_banner_and_no_choice():
    assert report.ConsentFacts(banner=False).phase_at(5) == "no_banner"
    assert report.ConsentFacts(banner=True, action="accept").phase_at(5) == "before_consent"
    assert report.ConsentFacts(banner=True, action="accept", choice_ms=1.0).phase_at(5) == "after_accept"


HOSTILE_CMP_ANSWERS = ["abc", {"a": 1}, [1], True, 1e300, -1, "12", None]


@pytest.mark.parametrize("value", HOSTILE_CMP_ANSWERS)
def test_a_cmp_api_answering_anything_never_breaks_the_report(value):
    # What a page's __tcfapi / __uspapi / __gpp answer is the page's choice: whatever it is, the
    # report is built and dumped; the integer and boolean fields take only what fits them.
    frames = [{"url": value, "tcf": {"cmpId": value, "gdprApplies": value, "eventStatus": value, "tcString": value},
               "usp": value, "gpp": {"gppString": value, "applicableSections": value, "parsedSections": value}}]
    facts = report.ConsentFacts(banner=True, action="accept", verified=True, choice_ms=1.0, frames=frames)
    built = report.build([], [], [{"name": "euconsent-v2", "domain": "shop.example", "value": value}],
                         "https://shop.example/", facts)
    response = CrawlResponseSchema().dump(CrawlReport(session_id=None, url="https://shop.example/",
                                                      cookies=built.cookies, consent=built.consent))
    [entry] = [t for t in response["consent"]["tcf"] if t["source"] == "__tcfapi"]
    assert entry["cmp_id"] == (value if isinstance(value, int) and not isinstance(value, bool)
                               else 12 if value == "12" else None)
    assert entry["gdpr_applies"] == (value if isinstance(value, bool) else None)
