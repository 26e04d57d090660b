"""GPP through real Chrome (issue 26): a US CMP on the IAB's own @iabgpp/cmpapi with the usnat and usca
sections (``cc-gpp-us.example``) is read through its ``__gpp('ping')`` answer, whose ``parsedSections`` is
reported and agrees with tagcrawl's own decoding of the same string; a page with no GPP API and only a GPP
string, in a cookie (``cc-gpp-cookie.example``) or in a pixel's ``gpp``/``gpp_sid`` parameters
(``cc-gpp-pixel.example``), has that string decoded (tests/support/web/compliance_pages.py)."""
from __future__ import annotations

import pytest

from tests.support.cmp_cases import crawl_all, crawl_settings, request
from tests.support.web import npm_cdn
from tests.support.web.compliance_pages import GPP_STRING

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def crawls(fixture_web, npm_packages, tmp_path_factory):
    if npm_cdn.package_version("@iabgpp/cmpapi") is None:
        pytest.skip("@iabgpp/cmpapi not installed: run `make npm-fixtures`")
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("gpp"))
    requests = {"accept": request("https://cc-gpp-us.example/", consentAction="accept"),
                "reject": request("https://cc-gpp-us.example/", consentAction="reject"),
                "cookie": request("https://cc-gpp-cookie.example/", consentAction="none"),
                "pixel": request("https://cc-gpp-pixel.example/", consentAction="none")}
    return {key: crawled.response for key, crawled in crawl_all(config, requests).items()}


def _without_flags(section: dict) -> dict:
    """A decoded section without the ``...Included`` flags that @iabgpp/cmpapi's parsedSections lacks."""
    return {k: v for k, v in section.items() if not k.endswith("SegmentIncluded")}


@pytest.mark.parametrize("action, opted_out", [("accept", 2), ("reject", 1)])
def test_the_cmps_parsed_sections_are_reported(crawls, action, opted_out):
    report = crawls[action]
    assert report["success"] is True, (report["error"], report["message"], report["timeTaken"])
    assert report["consent"]["verified"] is True, report["consent"]
    gpp = report["consent"]["gpp"]
    assert (gpp["source"], gpp["applicable_sections"], gpp["section_ids"]) == ("__gpp", [7, 8], [7, 8])
    parsed = gpp["parsed_sections"]
    assert set(parsed) == {"usnat", "usca"}
    usnat, usca = parsed["usnat"], parsed["usca"]
    assert (usnat["Version"], usnat["SharingNotice"], usnat["SaleOptOutNotice"], usnat["MspaCoveredTransaction"]) == (
        2, 1, 1, 2)
    assert (usnat["SaleOptOut"], usnat["SharingOptOut"], usnat["TargetedAdvertisingOptOut"]) == (opted_out,) * 3
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["KnownChildSensitiveDataConsents"]) == (
        opted_out, opted_out, [1, 2])
    assert len(usnat["SensitiveDataProcessing"]) == 16 and usnat["Gpc"] is False
    # tagcrawl's decoding of the CMP's own string says what the CMP's own parsedSections says
    assert {name: _without_flags(section) for name, section in gpp["decoded"].items()} == parsed
    assert gpp["decode_error"] is None
    assert "GPP parsedSections" not in (report["message"] or "")


def test_without_a_gpp_api_the_cookie_string_is_decoded(crawls):
    gpp = crawls["cookie"]["consent"]["gpp"]
    assert (gpp["source"], gpp["gpp_string"], gpp["parsed_sections"]) == ("cookie OTGPPConsent", GPP_STRING, None)
    assert (gpp["section_ids"], gpp["applicable_sections"], gpp["decode_error"]) == ([7, 8], [], None)
    usnat, usca = gpp["decoded"]["usnat"], gpp["decoded"]["usca"]
    assert (usnat["SharingNotice"], usnat["SaleOptOutNotice"], usnat["SaleOptOut"]) == (1, 1, 1)
    assert usnat["SensitiveDataProcessing"] == [2] + [0] * 15
    assert (usnat["Gpc"], usnat["GpcSegmentIncluded"]) == (True, True)
    assert (usca["SaleOptOutNotice"], usca["SaleOptOut"], usca["SharingOptOut"], usca["MspaCoveredTransaction"]) == (
        1, 1, 2, 2)


def test_without_a_gpp_api_or_cookie_the_pixels_string_is_decoded(crawls):
    report = crawls["pixel"]
    gpp = report["consent"]["gpp"]
    assert (gpp["source"], gpp["gpp_string"], gpp["applicable_sections"]) == ("pixel Meta Pixel", GPP_STRING, [7, 8])
    assert gpp["decoded"]["usnat"]["SaleOptOut"] == 1 and gpp["decoded"]["usca"]["SharingOptOut"] == 2
    assert ("Meta Pixel", "333333333333333") in {(p["vendor"], p["account_id"]) for p in report["marketingPixels"]}
