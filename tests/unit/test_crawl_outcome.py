"""The typed failure kind of a crawl (``crawl/outcome.py``), without Chrome:
a refused target is the page's failure, an unreachable WebDriver (Grid) the
service's; neither shows in the CrawlResponse JSON.  With Chrome (the
deadline, a blocked page, exit statuses): tests/browser/test_cli.py."""
from __future__ import annotations

import pytest

from tagcrawl.crawl.outcome import FailureKind, ServiceFailed, failure_kind, kind_of, one_line, service_answer
from tagcrawl.crawl.context import CrawlFailed
from tagcrawl.crawl.report import CrawlReport
from tagcrawl.crawl.service import run_crawl

from tests.support.config import settings
from tests.support.gunicorn_server import free_port


def _crawl(url: str, **config):
    return run_crawl(settings(config), {"url": url, "session_id": None, "options": None})


def test_a_refused_target_is_a_page_failure():
    outcome = _crawl("http://127.0.0.1/", ALLOW_PRIVATE_TARGETS=False)
    assert failure_kind(outcome.report) is FailureKind.PAGE
    assert outcome.response["success"] is False and "failure" not in outcome.response


def test_an_unreachable_grid_is_a_service_failure():
    outcome = _crawl("https://shop.example/", ALLOW_PRIVATE_TARGETS=True,
                     WEBDRIVER_URL=f"http://127.0.0.1:{free_port()}/wd/hub")
    assert failure_kind(outcome.report) is FailureKind.SERVICE
    assert outcome.response["error"]["message"].startswith("browser unavailable")
    assert "failure" not in outcome.response
    assert outcome.response["error"]["code"] == "grid_unreachable"
    assert service_answer(outcome.report) == (503, {"error": True, "message": outcome.response["error"]["message"],
                                                    "code": "grid_unreachable"}, {"Retry-After": "30"})


def test_a_page_failure_has_no_code_and_no_service_answer():
    outcome = _crawl("http://127.0.0.1/", ALLOW_PRIVATE_TARGETS=False)
    assert "code" not in outcome.response["error"]
    assert service_answer(outcome.report) is None


def test_service_messages_are_one_line_and_codes_are_known():
    failed = ServiceFailed("browser unavailable: Message: session not created\nStacktrace:\n#0 0x55d5 <unknown>",
                           "browser_unavailable")
    assert str(failed) == "browser unavailable: Message: session not created"
    with pytest.raises(ValueError):
        ServiceFailed("x", "no_such_code")
    assert one_line("\n\n  first  \nsecond") == "first"


def test_kinds():
    assert kind_of(ServiceFailed("no browser")) is FailureKind.SERVICE
    assert kind_of(CrawlFailed("navigation failed: net::ERR_NAME_NOT_RESOLVED")) is FailureKind.PAGE
    assert failure_kind(CrawlReport(session_id="s", url="u", success=True)) is None
    blocked = CrawlReport(session_id="s", url="u", success=False)  # ran to the end, not a success
    assert failure_kind(blocked) is FailureKind.PAGE
