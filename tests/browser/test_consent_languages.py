"""Site banners in the languages the heuristic learnt for issue 27 (Welsh,
Catalan, Estonian, Irish, Latvian, Maltese, Brazilian Portuguese) and the
"accept only necessary" refusal (Turkish "Sadece zorunlu çerezleri kabul et",
Welsh "Derbyn cwcis hanfodol yn unig"), accepted and refused through Chrome
(tests/support/cmp_cases.py NEW_LANGUAGE_BANNERS).  Every language file's
phrasing is also checked through the scanner in test_consent_scanner.py."""
from __future__ import annotations

import pytest

from tests.support.cmp_cases import NEW_LANGUAGE_BANNERS, crawl_all, crawl_settings, pixels, request

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def crawls(fixture_web, tmp_path_factory):
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("languages"))
    config["CRAWL_TIMEOUT_S"] = 60  # a loaded machine; timing is not under test here
    requests = {(b.site, action): request(b.url, consentAction=action)
                for b in NEW_LANGUAGE_BANNERS for action in ("accept", "reject")}
    return crawl_all(config, requests)


@pytest.mark.parametrize("banner", NEW_LANGUAGE_BANNERS, ids=lambda b: b.site)
def test_banner_in_a_new_language_is_accepted(banner, crawls):
    crawled = crawls[(banner.site, "accept")]
    report = crawled.response
    assert report["button"] == {"button_text": banner.accept, "consent_banner": True, "error_message": None}
    assert crawled.consent.how == "heuristic" and crawled.consent.verified
    assert ("Meta Pixel", banner.pixel) in pixels(report)


@pytest.mark.parametrize("banner", NEW_LANGUAGE_BANNERS, ids=lambda b: b.site)
def test_banner_in_a_new_language_is_refused_with_its_own_label(banner, crawls):
    crawled = crawls[(banner.site, "reject")]
    report = crawled.response
    assert report["consent"]["verified"] is True, crawled.consent
    assert crawled.consent.attempts == [banner.reject]  # never the settings or accept button
    assert ("Meta Pixel", banner.pixel) not in pixels(report)
    assert {c["name"]: c["phase"] for c in report["cookies"]}["site_consent"] == "after_reject"


def test_the_new_languages_include_welsh_and_turkish_accept_only_necessary():
    sites = {b.site: b for b in NEW_LANGUAGE_BANNERS}
    assert sites["tr-zorunlu"].reject == "Sadece zorunlu çerezleri kabul et"
    assert sites["cy-hanfodol"].reject == "Derbyn cwcis hanfodol yn unig"
    assert {"cy", "pt-br", "ca", "et", "ga", "lv", "mt"} <= {b.lang for b in NEW_LANGUAGE_BANNERS}
