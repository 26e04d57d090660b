"""Known CMPs, end to end: each CMP's real DOM (the ``fixture`` of its
tagcrawl/engine/consent/cmps/<slug>.json, tests/support/web/cmps/<slug>.html) is found,
its accept button clicked and the click verified, and the pixel gated behind
consent fires.  All crawls run once per module, two at a time."""
from __future__ import annotations

import pytest

from tagcrawl.engine.consent.result import BANNER_HIDDEN, TCF_COMPLETE, Evidence
from tagcrawl.engine.consent.rules import CMPS

from tests.support.cmp_cases import CMP_CASES, crawl_all, crawl_settings, pixels, request

pytestmark = pytest.mark.browser
BY_SLUG = {case.slug: case for case in CMP_CASES}
NO_CLICK = ("sourcepoint", "usercentrics", "transcend")  # iframe, open and closed shadow root


@pytest.fixture(scope="module")
def crawl_config(fixture_web, tmp_path_factory):
    """Settings pointing Chrome at the fixture web, shared by this module's crawls."""
    return crawl_settings(fixture_web, tmp_path_factory.mktemp("crawls"))


@pytest.fixture(scope="module")
def crawls(crawl_config):
    requests = {case.slug: request(case.url) for case in CMP_CASES}
    requests.update({f"no-click-{slug}": request(BY_SLUG[slug].url, byPassConsent=False) for slug in NO_CLICK})
    return crawl_all(crawl_config, requests)


def test_every_known_cmp_has_a_fixture():
    assert len(CMPS) >= 40
    assert sorted(case.name for case in CMP_CASES) == sorted(cmp.name for cmp in CMPS)


@pytest.mark.parametrize("case", CMP_CASES, ids=lambda case: case.slug)
def test_cmp_banner_is_accepted_and_the_gated_pixel_fires(case, crawls):
    crawled = crawls[case.slug]
    report = crawled.response
    assert report["success"] is True, report
    assert report["button"] == {"button_text": case.accept_text, "consent_banner": True, "error_message": None}
    assert ("Meta Pixel", case.pixel) in pixels(report)
    assert report["cookiesAfter"] > report["cookiesBefore"]
    assert report["message"] is None  # the click was verified
    assert (crawled.consent.cmp, crawled.consent.how) == (case.name, "cmp")


@pytest.mark.parametrize("case", CMP_CASES, ids=lambda case: case.slug)
def test_cmp_click_is_verified_by_what_the_cmp_stored(case, crawls):
    consent = crawls[case.slug].consent
    expected = {BANNER_HIDDEN, *(Evidence("cookie", name) for name in case.cookies),
                *(Evidence("storage", key) for key in case.storage)}
    if case.tcf:
        expected.add(TCF_COMPLETE)
    assert consent.clicked and consent.verified
    assert expected <= set(consent.evidence)


@pytest.mark.parametrize("slug", NO_CLICK)
def test_without_bypass_consent_the_cmp_banner_is_reported_but_not_clicked(slug, crawls):
    case, crawled = BY_SLUG[slug], crawls[f"no-click-{slug}"]
    report = crawled.response
    assert report["button"] == {"button_text": case.accept_text, "consent_banner": True, "error_message": None}
    assert not crawled.consent.clicked
    assert ("Meta Pixel", case.pixel) not in pixels(report)
    assert report["cookiesAfter"] == report["cookiesBefore"]
