"""Work after the page and the report's size (issue 24, docs/security.md "Work
after the deadline, and the report's size"), through real Chrome: hostile pages
of the fixture web (``tests/support/web/sites/heavy.example``) against the
crawl deadline, the decode budget and the report caps.  Each test asserts the
bound (answer time, peak RSS growth of this process from /proc, answer size),
not only the answer.  The pure-Python halves: tests/unit/test_report_bounds_unit.py."""
from __future__ import annotations

import re
import time

import pytest

from tests.support.rss import PeakRss

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOKEN = "phc_HeavyFlood00000000000000000000000000000"
#: Peak RSS growth allowed to the crawling process for one hostile crawl.
RSS_LIMIT_MB = 200
DEADLINE_S = 8


def test_a_posthog_flood_is_answered_within_the_deadline(crawler, npm_packages):
    """150 PostHog beacons with a 256 KB lz-string ``data=``: answered within deadline + 2 s,
    with what was matched, saying what was cut; a correct crawl right after."""
    normal = crawler("https://heavy.example/posthog.html?n=0").response  # the browser is started: not timed
    assert [(p["vendor"], p["account_id"]) for p in normal["marketingPixels"]] == [("PostHog", TOKEN)], normal
    config = {"CRAWL_TIMEOUT_S": DEADLINE_S}
    started = time.monotonic()
    with PeakRss() as peak:
        outcome = crawler("https://heavy.example/posthog.html?n=150&kb=256", config=config)
    took = time.monotonic() - started
    report = outcome.response
    assert took <= DEADLINE_S + 2, (took, report["message"], outcome.timings.summary())
    assert peak.growth_mb < RSS_LIMIT_MB, peak.growth_mb
    assert report["success"] is True, report["error"]
    heavy = [r for r in outcome.requests if "ver=heavy" in r.url]
    assert len(heavy) == 151  # the first beacon and the 150 heavy ones were all captured
    assert ("PostHog", TOKEN) in [(p["vendor"], p["account_id"]) for p in report["marketingPixels"]]
    message = report["message"] or ""
    cut = re.search(r"deadline reached while matching: ([0-9]+) of ([0-9]+) requests matched", message)
    assert cut or "decode budget of 16 MiB reached" in message, message
    if cut:
        assert 1 <= int(cut.group(1)) < int(cut.group(2)) == len(outcome.requests)
    print(f"\nflood: {took:.1f} s, peak RSS +{peak.growth_mb:.0f} MB, {message!r}; {outcome.timings.summary()}")

    after = crawler("https://heavy.example/posthog.html?n=0").response
    assert after["success"] is True and after["message"] is None, after
    assert [(p["vendor"], p["account_id"]) for p in after["marketingPixels"]] == [("PostHog", TOKEN)]
