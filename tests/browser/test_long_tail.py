"""The long tail through real Chrome (issue 27 items 1 and 2): beacons no catalog entry
describes (the generic detector, tagcrawl/engine/beacons) and every third party attributed
to its organisation (third-party-web, tagcrawl/engine/parties).

Pages (tests/support/web/sites/longtail-*.example): @amplitude/analytics-browser from npm,
unmodified, sending to a self-run collector the catalog does not know; a negative page with
CDN libraries, web fonts, a JSON configuration fetch with a key, a first-party API call and a
CDN image; a vanilla-cookieconsent page that loads the SDK after a refusal anyway.
Storage writes (longtail-storage.example): first-party inline and app.js writes, and a script served
from widget.intercom.io (Intercom in third-party-web) writing localStorage and sessionStorage.
Without the dataset or the detector: tests/unit/test_third_parties.py, test_beacons.py."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

SDK_KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
REFUSED_KEY = "9a8b7c6d5e4f30211203f4e5d6c7b8a9"


def heuristic(report):
    return [p for p in report["marketingPixels"] if p["recognised"] == "heuristic"]


def parties(report):
    return {p["entity"] or p["domains"][0]: p for p in report["thirdParties"]}


def test_an_sdk_on_a_collector_no_catalog_entry_describes_is_a_heuristic_pixel(crawler, npm_packages):
    report = crawler("https://longtail-sdk.example/").response
    assert report["success"] is True, report["error"]
    found = heuristic(report)
    assert [(p["vendor"], p["account_id"], p["consent"], p["organisation"]) for p in found] == [
        ("longtail-cdp.example", SDK_KEY, "no_banner", None)], report["marketingPixels"]
    assert all(p["recognised"] == "catalog" for p in report["marketingPixels"] if p not in found)
    cdp = parties(report)["longtail-cdp.example"]
    assert (cdp["organisation"], cdp["requests"] >= 1, cdp["identifier"], cdp["phase"]) == (None, True, True,
                                                                                             "no_banner")
    assert report["thirdPartyData"] == {"source": "third-party-web", "version": "0.30.0", "loaded": True}


def test_the_detector_is_a_setting(crawler, npm_packages):
    report = crawler("https://longtail-sdk.example/", config={"GENERIC_BEACONS": False}).response
    assert report["success"] is True and heuristic(report) == []


def test_cdn_libraries_fonts_and_config_fetches_are_no_pixels(crawler, npm_packages):
    report = crawler("https://longtail-cdn.example/").response
    assert report["success"] is True, report["error"]
    assert report["marketingPixels"] == []
    got = parties(report)
    assert got["Google Fonts"]["organisation"] == "Google" and got["Google Fonts"]["category"] == "cdn"
    assert got["JSDelivr CDN"]["requests"] >= 2 and got["Unpkg"]["category"] == "cdn"
    assert got["widgetco.example"]["requests"] == 2 and got["widgetco.example"]["identifier"] is False
    assert "longtail-cdn.example" not in got  # the page's own host is no third party


def test_third_parties_of_a_page_with_known_entities(crawler, npm_packages):
    report = crawler("https://sdk-mixpanel.example/").response
    assert report["success"] is True, report["error"]
    mixpanel = parties(report)["Mixpanel"]
    assert (mixpanel["organisation"], mixpanel["category"], mixpanel["identifier"], mixpanel["phase"]) == (
        "Mixpanel", "analytics", True, "no_banner")
    assert mixpanel["domains"] == ["mixpanel.com"] and mixpanel["requests"] >= 1
    assert heuristic(report) == [], "the catalog wins on a vendor it knows"
    assert {p["organisation"] for p in report["marketingPixels"]} == {"Mixpanel"}


def test_a_heuristic_pixel_after_a_refusal_is_a_violation(crawler, npm_packages):
    report = crawler("https://longtail-refused.example/", consentAction="reject").response
    assert report["success"] is True, report["error"]
    consent = report["consent"]
    assert consent["banner"] is True and consent["action"] == "reject", consent
    found = heuristic(report)
    assert [(p["vendor"], p["account_id"], p["consent"]) for p in found] == [
        ("longtail-refused-cdp.example", REFUSED_KEY, "after_reject")], report["marketingPixels"]
    assert {"type": "pixel", "vendor": "longtail-refused-cdp.example", "account_id": REFUSED_KEY,
            "recognised": "heuristic"} in consent["violations"]
    assert not [i for i in consent["before_consent"] if i["type"] == "pixel"]
    assert parties(report)["longtail-refused-cdp.example"]["phase"] == "after_reject"


def test_storage_writes_are_attributed_to_the_writing_scripts_organisation(crawler, npm_packages):
    """localStorage/sessionStorage writes (issue 27 item 1): first-party inline and app.js writes, and a
    third-party script's (widget.intercom.io, Intercom) with a key past the cap; never the values."""
    report = crawler("https://longtail-storage.example/").response
    assert report["success"] is True, report["error"]
    got = {(w["area"], w["key"]): w for w in report["storage"]}
    long_key = "k" * 256 + "…[truncated 44 chars]"
    assert set(got) >= {("local", "fp_inline"), ("local", "fp_cart"), ("session", "fp_session"),
                        ("local", "tp_visitor"), ("session", "tp_session"), ("local", long_key)}, list(got)
    inline, app = got[("local", "fp_inline")], got[("local", "fp_cart")]
    assert inline["script"].startswith("https://longtail-storage.example/") and inline["thirdParty"] is False
    assert app["script"] == "https://longtail-storage.example/app.js" and app["bytes"] == 17
    assert (app["organisation"], app["phase"]) == (None, "no_banner")
    writer = "https://widget.intercom.io/storage-fixture/writer.js"
    for key in (("local", "tp_visitor"), ("session", "tp_session"), ("local", long_key)):
        w = got[key]
        assert (w["script"], w["thirdParty"], w["organisation"], w["category"]) == (
            writer, True, "Intercom", "customer-success"), w
    assert got[("local", "tp_visitor")]["bytes"] == 23  # UTF-8: "é" is two bytes
    assert "secret" not in str(report["storage"]), "values are never reported"
    assert parties(report)["Intercom"]["storageWrites"] == 3
    assert "longtail-storage.example" not in parties(report)
