"""Blocking, end to end in Chrome: bot walls and CAPTCHA walls of the fixture web
are reported, and the traps (an invisible reCAPTCHA v3, an article that says
"Access Denied") are not.  The classifier alone: tests/unit/test_blocking.py."""
from __future__ import annotations

import pytest

from tests.support.cmp_cases import BLOCK_CASES, crawl_all, crawl_settings, request

BLOCKS = [case for case in BLOCK_CASES if case.expected]
TRAPS = [case for case in BLOCK_CASES if not case.expected]


@pytest.fixture(scope="module")
def crawl_config(fixture_web, tmp_path_factory):
    """Settings pointing Chrome at the fixture web, shared by this module's crawls."""
    return crawl_settings(fixture_web, tmp_path_factory.mktemp("crawls"))


@pytest.fixture(scope="module")
def crawls(crawl_config):
    return crawl_all(crawl_config, {case.host: request(case.url) for case in BLOCK_CASES})


@pytest.mark.browser
@pytest.mark.parametrize("case", BLOCKS, ids=lambda case: case.host)
def test_block_page_is_reported(case, crawls):
    report = crawls[case.host].response
    assert report["success"] is False
    assert report["button"] == {"button_text": None, "consent_banner": False, "error_message": case.expected}
    assert report["error"]["error"] is True
    assert report["message"] == report["error"]["message"] and report["message"].startswith("blocked")
    assert crawls[case.host].consent is None  # consent is not attempted on a block page


@pytest.mark.browser
@pytest.mark.parametrize("case", TRAPS, ids=lambda case: case.host)
def test_trap_is_not_a_block(case, crawls):
    report = crawls[case.host].response
    assert report["success"] is True, report
    assert report["error"] is None
    assert report["button"]["error_message"] is None
