"""Work after the page and the report's size (issue 24, docs/security.md "Work
after the deadline, and the report's size"), through real Chrome: hostile pages
of the fixture web (``tests/support/web/sites/heavy.example``) against the
crawl deadline, the decode budget and the report caps.  Each test asserts the
bound (answer time, peak RSS growth of this process from /proc, answer size),
not only the answer.  The pure-Python halves: tests/unit/test_report_bounds_unit.py."""
from __future__ import annotations

import json
import re
import time

import pytest

from tests.support.needs import missing
from tests.support.rss import PeakRss
from tests.support.web import heavy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOKEN = "phc_HeavyFlood00000000000000000000000000000"
#: Peak RSS growth allowed to the crawling process for one hostile crawl.
RSS_LIMIT_MB = 200
DEADLINE_S = 8


@pytest.fixture
def lz_route(fixture_web, npm_packages):
    """``https://heavy.example/lz-payload.txt`` served (tests/support/web/heavy.py), made before the crawl."""
    try:
        heavy.lz_payload(256)
    except LookupError as exc:
        missing(str(exc))
    previous, fixture_web.extra_route = fixture_web.extra_route, heavy.route
    yield
    fixture_web.extra_route = previous


def test_a_posthog_flood_is_answered_within_the_deadline(crawler, lz_route):
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
    beacons = [r for r in outcome.requests if "ver=heavy" in r.url]
    assert len(beacons) == 151  # the first beacon and the 150 heavy ones were all captured
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


MARKED = re.compile(r"…\[truncated ([0-9]+) chars\]\Z")


def _crawl_api(app, api_key, url):
    client = app.test_client()
    with PeakRss() as peak:
        answer = client.post("/api/v1", json={"url": url, "session_id": None}, headers={"x-api-key": api_key})
    stored = client.get(f"/api/v1/crawls/{answer.get_json()['sessionId']}", headers={"x-api-key": api_key})
    return answer, stored, peak


@pytest.mark.postgres
def test_a_20_mb_tc_string_in_13_frames_is_capped(app, api_key):
    """A 20 MiB tcString from __tcfapi in 13 frames (the top document and 12 iframes): the answer
    stays under REPORT_MAX_BYTES (2 MiB), each TC string is cut and marked, the list says what it
    kept, and the stored crawl is the same capped report."""
    answer, stored, peak = _crawl_api(app, api_key, "https://heavy.example/tcf.html?mb=20&frames=13")
    assert answer.status_code == 200
    report = answer.get_json()
    assert report["success"] is True, (report["error"], report["message"])
    assert len(answer.data) < 2 * 1024 * 1024, len(answer.data)
    assert peak.growth_mb < RSS_LIMIT_MB, peak.growth_mb
    entries = [t for t in report["consent"]["tcf"] if t["source"] == "__tcfapi"]
    assert len(entries) == 10  # 13 frames answered; the report keeps 10
    for entry in entries:
        assert len(entry["tc_string"]) <= 8192 + 40 and entry["tc_string"].startswith("CQAAA")
        assert int(MARKED.search(entry["tc_string"]).group(1)) == 20 * 1024 * 1024 - 8192
        assert entry["decoded"] is None and entry["cmp_id"] == 10
    assert "consent.tcf (kept 10 of 13)" in report["message"] and "consent.tcf[0].tc_string" in report["message"]
    assert stored.status_code == 200 and stored.get_json() == report
    print(f"\ntcf: {len(answer.data)} bytes, peak RSS +{peak.growth_mb:.0f} MB")


@pytest.mark.postgres
def test_a_page_that_breaks_the_builtins_is_capped_by_tagcrawl_and_the_answer_fits_a_small_cap(app, api_key):
    """2 MiB TC strings in 13 frames with String/Array.prototype.slice replaced by the page (so the
    in-page cut does nothing) and long frame URLs, under REPORT_MAX_BYTES of 128 KiB: the Python side
    still cuts every string, and the answer is shrunk to the cap (the stored crawl too).  (At 20 MiB a
    frame, ChromeDriver takes seconds to hand each uncut answer over: the crawl deadline bounds that.)"""
    from tests.support.config import reconfigure

    reconfigure(app, {"REPORT_MAX_BYTES": 128 * 1024})
    answer, stored, peak = _crawl_api(app, api_key, "https://heavy.example/tcf.html?mb=2&frames=13&evil=1&pad=3000")
    report = answer.get_json()
    assert report["success"] is True, (report["error"], report["message"])
    assert len(answer.data) <= 128 * 1024, len(answer.data)
    assert peak.growth_mb < RSS_LIMIT_MB, peak.growth_mb
    entries = [t for t in report["consent"]["tcf"] if t["source"] == "__tcfapi"]
    assert entries and all(MARKED.search(t["tc_string"]) for t in entries)
    assert "answer larger than" in report["message"], report["message"]
    assert stored.get_json() == report
    print(f"\nevil tcf: {len(answer.data)} bytes, peak RSS +{peak.growth_mb:.0f} MB, {report['message']!r}")


def test_a_huge_gpp_answer_and_us_privacy_string_are_capped(crawler):
    """__gpp answers a GPP string of a million sections and a million applicableSections; __uspapi a
    1 MiB string: each is cut and marked, the sections list keeps 64 and the message says so."""
    with PeakRss() as peak:
        outcome = crawler("https://heavy.example/gpp.html?sections=1000000&kb=1024")
    report = outcome.response
    assert report["success"] is True, report["error"]
    assert peak.growth_mb < RSS_LIMIT_MB, peak.growth_mb
    gpp = report["consent"]["gpp"]
    assert gpp["gpp_string"].startswith("DBABMA~1YNN~") and MARKED.search(gpp["gpp_string"])
    assert len(gpp["gpp_string"]) <= 8192 + 40
    assert gpp["applicable_sections"] == [i % 22 for i in range(64)]
    assert gpp["us_privacy"] == "1YNN"  # read from the kept part of the GPP string
    assert "GPP applicableSections of frame 0 kept 64 of 1000000" in report["message"]
    assert "consent.gpp.gpp_string" in report["message"]
    parsed = gpp["parsed_sections"]  # 100 sections of 5,000 values: 32 of 254 (the section and its list count)
    assert set(parsed) == {f"s{k}" for k in range(32)} and all(s == {"v": [0] * 254} for s in parsed.values())
    assert "GPP parsedSections of frame 0 cut" in report["message"]
    assert len(json.dumps(report)) < 64 * 1024


def test_a_megabyte_button_label_and_datalayer_value_are_capped(crawler):
    """A consent button whose label is 1 MiB, and a 1 MiB string pushed to the dataLayer: the button
    text is cut and marked (both places it is reported), the dataLayer value is kept cut (a DataLayer
    rule still reads it) and the message says so."""
    rules = [{"rule_id": "7c3c1a36-5f0e-4b8e-9a57-0c6f2f3a7d11", "vendor": "x", "key": "event",
              "value": "big_value", "rule_type": "DataLayer"},
             {"rule_id": "0f3e1e4c-2a54-4f63-8f5f-7d2b8f0c3a22", "vendor": "x", "key": "blob",
              "value": "xxxx*", "rule_type": "DataLayer"}]
    with PeakRss() as peak:
        outcome = crawler("https://heavy.example/banner.html?kb=1024", rules=rules)
    report = outcome.response
    assert report["success"] is True, report["error"]
    assert peak.growth_mb < RSS_LIMIT_MB, peak.growth_mb
    for text in (report["button"]["button_text"], report["consent"]["button_text"]):
        assert text.startswith("Accept all all") and MARKED.search(text) and len(text) <= 1024 + 40, text[:80]
    assert report["consent"]["cmp"] == "OneTrust" and report["consent"]["verified"] is True
    assert [r["success"] for r in report["validationResults"]] == [True, True]
    assert "dataLayer: 1 pushed values cut" in report["message"]
    assert "button.button_text" in report["message"]
    assert len(json.dumps(report)) < 64 * 1024
