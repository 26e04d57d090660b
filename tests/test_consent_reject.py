"""Reject by the text heuristic, in every language it knows: each site banner
of tests/cmp_cases.py (LANGUAGE_BANNERS) is refused with its own reject label,
the refusal is verified (banner gone, ``site_consent=denied`` stored) and the
pixel gated on consent never fires.  Plus the scanner's vocabulary checks."""
from __future__ import annotations

import pytest

from tagcrawl.browser import consent_rules

from .cmp_cases import LANGUAGE_BANNERS, crawl_all, crawl_settings, pixels, request


@pytest.fixture(scope="module")
def crawls(fixture_web, tmp_path_factory):
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("reject"))
    return crawl_all(config, {b.lang: request(b.url, consentAction="reject") for b in LANGUAGE_BANNERS})


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("banner", LANGUAGE_BANNERS, ids=lambda b: b.lang)
def test_reject_in_every_language(banner, crawls):
    crawled = crawls[banner.lang]
    report = crawled.response
    assert report["consent"]["action"] == "reject"
    assert report["consent"]["verified"] is True, crawled.consent
    assert report["consent"]["button_text"] == banner.reject
    assert crawled.consent.attempts == [banner.reject]  # never the settings or accept button
    assert ("Meta Pixel", banner.pixel) not in pixels(report)
    assert {c["name"]: c["phase"] for c in report["cookies"]}["site_consent"] == "after_reject"


def test_reject_vocabulary_covers_every_language_of_the_heuristic():
    assert set(consent_rules.LANGUAGES) <= set(consent_rules.ACCEPT_PHRASES)
    assert {b.lang for b in LANGUAGE_BANNERS} >= {"en", "de", "fr", "es", "it", "ja", "zh"}
    assert not {w for w in consent_rules.SAVE_WORDS if w in consent_rules.REJECT_WORDS}
