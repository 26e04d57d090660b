"""Reject by the text heuristic, in every language it knows: each site banner
of tests/support/cmp_cases.py (LANGUAGE_BANNERS) is refused with its own reject label,
the refusal is verified (banner gone, ``site_consent=denied`` stored) and the
pixel gated on consent never fires.  Plus the scanner's vocabulary checks."""
from __future__ import annotations

import pytest

from tagcrawl.engine.consent import rules as consent_rules

from tests.support.cmp_cases import CMP_CASES, LANGUAGE_BANNERS, crawl_all, crawl_settings, pixels, request


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


# -- the emulated CMPs (tests/support/cmp_cases.py): their real markup's refuse button --------
def _reject_label(case):
    """The label of the CMP markup's refuse button, as emulate.js wires it, or None."""
    import re

    from tests.support.web.cmp_pages import markup

    if case.mount == "frame":
        return None
    match = re.search(r"<(?:button|a)\b[^>]*>\s*((?:Reject|Decline|Deny|Refuse|Only necessary|I decline|"
                      r"Continue without)[^<]*)<", markup(case), re.IGNORECASE)
    return " ".join(match.group(1).split()) if match else None


REJECTABLE = [case for case in CMP_CASES if _reject_label(case)]


@pytest.fixture(scope="module")
def cmp_rejects(fixture_web, tmp_path_factory):
    config = crawl_settings(fixture_web, tmp_path_factory.mktemp("cmp-reject"))
    return crawl_all(config, {case.slug: request(case.url, consentAction="reject") for case in REJECTABLE})


def test_most_emulated_cmps_have_a_refuse_button():
    assert len(REJECTABLE) >= 25


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("case", REJECTABLE, ids=lambda case: case.slug)
def test_known_cmp_refusal_is_found_clicked_and_verified(case, cmp_rejects):
    crawled = cmp_rejects[case.slug]
    consent = crawled.response["consent"]
    assert (consent["cmp"], consent["verified"], consent["button_text"]) == (
        case.name, True, _reject_label(case)), crawled.consent
    assert ("Meta Pixel", case.pixel) not in pixels(crawled.response)
