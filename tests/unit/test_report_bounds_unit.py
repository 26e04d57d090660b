"""Work after the page and the report's size, without Chrome (issue 24; docs/security.md "Work after
the deadline, and the report's size"): the truncation convention, the answer's byte cap, the
matching loop's deadline, decode budget and hit cap, the rules' deadline, and the collectors'
caps.  Through real Chrome: tests/browser/test_report_bounds.py."""
from __future__ import annotations

import json
import random
import re
import time
from concurrent.futures import Future

import pytest

from tagcrawl.core import truncation
from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.consent.signals import bounded, notes
from tagcrawl.engine.collectors.datalayer import DataLayerCollector
from tagcrawl.engine.collectors.network import NetworkCollector
from tagcrawl.crawl.report import CrawlReport
from tagcrawl.crawl.report_caps import MIN_REPORT_BYTES, cap_response
from tagcrawl.crawl.rules import evaluate_rules, evaluate_rules_until
from tagcrawl.crawl.service import CrawlOutcome
from tagcrawl.engine.compliance import report as compliance
from tagcrawl.engine.vendors import Hit, Request, match_within, pixels_from_hits
from tagcrawl.engine.vendors import bounded as bounded_matching
from tagcrawl.engine.vendors import request_context
from tagcrawl.engine.vendors.request_context import RequestContext, candidates, own_entries
from tagcrawl.engine.vendors import CATALOG
from tests.unit.test_collectors import FakeCDP, _attach

MARKED = re.compile(r"…\[truncated ([0-9]+) chars\]\Z")
TOKEN = "phc_HeavyFlood00000000000000000000000000000"


# -- the convention --------------------------------------------------------------------------------

def test_a_cut_string_keeps_its_head_and_says_how_much_went():
    assert truncation.cut("abc", 3) == "abc" and truncation.cut(None, 3) is None and truncation.cut(7, 1) == 7
    cut = truncation.cut("x" * 10_000, 100)
    assert cut == "x" * 100 + "…[truncated 9900 chars]" and truncation.is_cut(cut)
    assert truncation.cut(cut, 100) is cut  # cut once, never twice (the page's cut is kept too)
    page_cut = "y" * 100 + "…[truncated 5 chars]"
    assert truncation.cut(page_cut, 100) == page_cut
    assert truncation.cut(cut, 10) == "x" * 10 + "…[truncated 9990 chars]"  # cut again: counted from the original


def test_a_json_value_from_the_page_is_bounded_in_strings_nodes_and_depth():
    value, changed = truncation.cap_json({"event": "e", "blob": "x" * (1 << 20)})
    assert changed and value["event"] == "e" and MARKED.search(value["blob"]) and len(value["blob"]) < 4200
    wide, changed = truncation.cap_json(list(range(50_000)))
    assert changed and len(wide) < truncation.JSON_NODES_MAX
    deep = current = []
    for _ in range(100):
        current.append([])
        current = current[0]
    capped, changed = truncation.cap_json(deep)
    assert changed and json.dumps(capped).count("[") <= truncation.JSON_DEPTH_MAX
    assert truncation.cap_json({"a": [1, "b", None]}) == ({"a": [1, "b", None]}, False)


def test_fit_cuts_the_longest_strings_first_then_halves_lists_and_stays_valid_json():
    doc = {"keep": "k", "big": "b" * 100_000, "small": "s" * 300, "items": [{"n": i} for i in range(100)]}
    done = truncation.fit(doc, 5_000)
    assert done == ["big"] and doc["small"] == "s" * 300 and len(doc["items"]) == 100
    assert truncation.json_size(doc) <= 5_000
    doc = {"items": [{"n": "v" * 200} for i in range(1000)], "other": "o"}
    done = truncation.fit(doc, 20_000)
    assert truncation.json_size(doc) <= 20_000 and done[-1].startswith("items (kept ") and doc["other"] == "o"
    doc = {"sessionId": "s", "a": {"b": ["x" * 10] * 10_000}, "c": 1}
    assert truncation.fit(doc, 200) == ["a.b (kept 9 of 10000)"] and truncation.json_size(doc) <= 200
    doc = {"sessionId": "s", "a": {f"k{i}": i for i in range(5000)}, "c": 1}
    assert truncation.fit(doc, 200, keep=("sessionId",)) == ["a (removed)"] and doc["a"] is None
    assert doc == {"sessionId": "s", "a": None, "c": 1}


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_fit_meets_any_cap_on_random_documents(seed):
    rng = random.Random(seed)

    def value(depth):
        kind = rng.choice("sldn" if depth < 3 else "sn")
        if kind == "s":
            return "".join(rng.choice("aé\"\\\u2028😀x") for _ in range(rng.choice([1, 50, 5000])))
        if kind == "l":
            return [value(depth + 1) for _ in range(rng.randint(0, 12))]
        if kind == "d":
            return {f"k{i}": value(depth + 1) for i in range(rng.randint(0, 8))}
        return rng.choice([None, 1, 2.5, True])

    doc = {f"k{i}": value(0) for i in range(8)}
    cap = rng.choice([4_000, 20_000, 100_000])
    started = time.monotonic()
    truncation.fit(doc, cap)
    assert time.monotonic() - started < 2
    assert truncation.json_size(doc) <= cap
    assert json.loads(json.dumps(doc)) == doc


# -- the report's caps -----------------------------------------------------------------------------

def _hostile_report() -> dict:
    big, url = "C" * (20 << 20), "https://heavy.example/" + "p" * 100_000
    entry = {"source": "__tcfapi", "frame": url, "cmp_id": 1, "event_status": "e" * 5000, "gdpr_applies": True,
             "tc_string": big, "decoded": None}
    pixel = {"vendor": "V" * 5000, "account_id": "a", "page": url, "warnings": ["w"] * 50, "consent": "no_banner"}
    return {"sessionId": "2f1e7f60-3f0c-4c2a-9d0e-4b7a5b2b8c01", "url": url, "success": True,
            "button": {"button_text": "b" * (1 << 20), "consent_banner": True, "error_message": None},
            "marketingPixels": [pixel] * 1500, "message": "consent accept clicked",
            "cookies": [{"name": "n" * 5000, "domain": "d"}] * 2000,
            "consent": {"tcf": [entry] * 13, "button_text": "b" * (1 << 20),
                        "gpp": {"gpp_string": "DBA" + "~1YNN" * 100_000, "applicable_sections": list(range(10_000)),
                                "sections": 100_000, "us_privacy": None},
                        "violations": [{"type": "cookie", "vendor": None, "name": "n", "domain": "d"}] * 3000}}


def test_every_page_string_and_list_is_capped_and_named_in_the_message():
    doc = cap_response(_hostile_report(), 2 * 1024 * 1024)
    assert truncation.json_size(doc) <= 2 * 1024 * 1024
    tcf = doc["consent"]["tcf"]
    mark = MARKED.search(tcf[0]["tc_string"])
    assert len(tcf) == 10 and mark.start() + int(mark.group(1)) == 20 << 20  # counted from the original
    assert len(tcf[0]["frame"]) <= 4096 + 40 and len(tcf[0]["event_status"]) <= 1024 + 40
    assert len(doc["button"]["button_text"]) <= 1064 and len(doc["consent"]["button_text"]) <= 1064
    assert len(doc["marketingPixels"]) == 1000 and len(doc["marketingPixels"][0]["warnings"]) == 20
    assert len(doc["cookies"]) == 1000 and len(doc["consent"]["violations"]) == 1000
    assert doc["consent"]["gpp"]["applicable_sections"] == list(range(64))
    assert MARKED.search(doc["consent"]["gpp"]["gpp_string"]) and MARKED.search(doc["url"])
    message = doc["message"]
    assert message.startswith("consent accept clicked; report truncated (docs/api.md): url, button.button_text")
    assert "marketingPixels (kept 1000 of 1500)" in message or "more" in message
    assert len(message) <= truncation.MESSAGE_MAX + 40


@pytest.mark.slow
@pytest.mark.parametrize("cap", [MIN_REPORT_BYTES, 300_000, 2 * 1024 * 1024])
def test_the_answer_fits_its_byte_cap_with_room_for_the_screenshot_host(cap):
    doc = cap_response(_hostile_report(), cap)
    assert truncation.json_size(doc) <= cap - 2 * 8192
    assert doc["sessionId"] and doc["success"] is True and doc["url"].startswith("https://heavy.example/")


def test_a_crawl_outcome_is_capped_once_when_it_is_made():
    report = CrawlReport(session_id="2f1e7f60-3f0c-4c2a-9d0e-4b7a5b2b8c01", url="https://heavy.example/",
                         success=True)
    report.button.button_text = "b" * 5000
    outcome = CrawlOutcome(report=report, report_max_bytes=MIN_REPORT_BYTES)
    assert MARKED.search(outcome.response["button"]["button_text"])
    assert outcome.response["message"] == "report truncated (docs/api.md): button.button_text"


@pytest.mark.slow
def test_the_compliance_report_of_many_hits_and_pixels_is_linear():
    hits = [Hit(vendor_key="facebook", vendor_name="Meta Pixel", account_id=str(10**14 + i % 10_000), timestamp=i)
            for i in range(bounded_matching.MAX_HITS)]
    pixels = pixels_from_hits(hits)
    started = time.monotonic()
    built = compliance.build(pixels, hits, [], "https://shop.example/", compliance.ConsentFacts())
    assert len(built.pixels) == len(pixels) == 10_000
    assert time.monotonic() - started < 2  # pixels x hits had been 2 x 10^8 comparisons


# -- matching within the deadline and the decode budget -------------------------------------------

def _posthog(n: int, size: int) -> list[Request]:
    return [Request(url=f"https://us.i.posthog.com/e/?compression=lz64&k={k}", method="POST",
                    post_data="data=" + "!" * size, resource_type="fetch",  # no decoder's alphabet: fails fast
                    headers={"Content-Type": "application/x-www-form-urlencoded"}) for k in range(n)]


def test_matching_stops_at_the_deadline_and_says_how_far_it_got():
    ticks = iter(range(1000))
    run = bounded_matching.match_within(bounded_matching_compiled(), _posthog(150, 10), deadline=37,
                                        budget_bytes=1 << 30, clock=lambda: next(ticks))
    assert run.stopped == "deadline" and run.looked_at == 37 and run.total == 150
    assert run.notes() == ["deadline reached while matching: 37 of 150 requests matched"]
    assert len(run.hits) == 37 and {h.vendor_key for h in run.hits} == {"posthog"}
    late = match_within(_posthog(3, 10), time.monotonic() - 1, 1 << 30)
    assert late.hits == [] and late.notes() == ["deadline reached while matching: 0 of 3 requests matched"]


def bounded_matching_compiled():
    from tagcrawl.engine.vendors import _COMPILED
    return _COMPILED


def test_past_the_decode_budget_a_request_is_matched_on_its_shape_only():
    first = Request(url="https://us.i.posthog.com/e/", method="POST", resource_type="fetch",
                    post_data=json.dumps({"event": "$pageview", "properties": {"token": TOKEN}}))
    reqs = [first] + _posthog(10, 256 * 1024)
    run = match_within(reqs, time.monotonic() + 60, budget_bytes=1024 * 1024)
    assert run.stopped is None and run.looked_at == 11
    assert run.shape_only == 7 and run.decoded_bytes <= 1024 * 1024  # the first and 3 heavy ones decoded
    assert [(h.vendor_key, h.account_id) for h in run.hits][:1] == [("posthog", TOKEN)]
    assert len(run.hits) == 11 and all(h.account_id is None for h in run.hits[4:])  # still recognised
    assert run.notes() == ["decode budget of 1 MiB reached: 7 requests matched on their URL's host and path "
                           "only (no account id or event)"]


def test_the_hits_of_a_crawl_are_capped(monkeypatch):
    monkeypatch.setattr(bounded_matching, "MAX_HITS", 1200)
    batch = json.dumps({"batch": [{"event": "e", "properties": {"token": TOKEN}}] * 500})
    reqs = [Request(url="https://us.i.posthog.com/batch/", method="POST", post_data=batch)] * 6
    run = match_within(reqs, time.monotonic() + 60, 1 << 30)
    assert run.stopped == "hits" and len(run.hits) == 1200 and run.looked_at == 3
    assert run.notes()[0].startswith("hit cap reached while matching")


def test_the_candidates_of_one_request_hold_a_bounded_number_of_parameters(monkeypatch):
    # the items share the request's 2,000 parameters (never copied); their own 22 each are what is counted
    monkeypatch.setattr(request_context, "CANDIDATE_ENTRIES_MAX", 5000)
    query = "&".join(f"p{i}=v" for i in range(2000))
    props = {"token": TOKEN, **{f"k{i}": i for i in range(20)}}
    body = json.dumps({"batch": [{"event": "e", "properties": props}] * 500})
    ctx = RequestContext(Request(url=f"https://us.i.posthog.com/batch/?{query}", method="POST", post_data=body))
    pattern = next(p for v in CATALOG if v.key == "posthog" for p in v.patterns if p.split == "json:batch")
    found = candidates(ctx, pattern)
    own = sum(own_entries(c.params) for c in found)
    assert 1 < len(found) < 500 and 2000 + own <= 5000 + 22


# -- rules within the deadline ---------------------------------------------------------------------

def test_rules_stop_at_the_deadline_and_say_how_many_were_evaluated():
    rules = [{"rule_id": str(i), "vendor": "*", "key": "x", "value": "*", "rule_type": "Cookie"} for i in range(3)]
    cookies = [{"name": "x", "value": "y"}]
    assert [r["success"] for r in evaluate_rules(rules, [], cookies, [])] == [True] * 3
    results, evaluated = evaluate_rules_until(rules, [], cookies, [], deadline=time.monotonic() - 1)
    assert evaluated == 0 and [r["success"] for r in results] == [False] * 3


# -- the collectors' caps --------------------------------------------------------------------------

def _hub(collector):
    hub = NetworkCapture(collectors=[collector])
    hub.bind(FakeCDP())
    _attach(hub)
    return hub


def test_the_requests_collector_keeps_bodies_up_to_the_capture_cap():
    collector = NetworkCollector()
    hub = _hub(collector)
    collector.max_bytes = 3 * (1 << 20) + 1000
    for k in range(5):
        hub.on_event("Network.requestWillBeSent", {
            "requestId": str(k), "type": "Fetch", "wallTime": 1.0, "documentURL": "https://a.example/" + "p" * 9000,
            "request": {"url": f"https://a.example/e?k={k}", "method": "POST", "postData": "d" * (2 << 20)}}, "S1")
    kept = collector.get_data(None)
    assert [len(r.post_data or "") for r in kept] == [1 << 20] * 3 + [0, 0]  # each body at most 1 MiB
    assert MARKED.search(kept[0].frame_url) and len(kept[0].frame_url) < 4200
    assert collector.notes() == ["capture cap of 3146728 bytes reached: 2 requests kept without their body and "
                                 "headers, URL cut to 4096 characters"]


class BodyCDP(FakeCDP):
    """Answers ``Network.getRequestPostData`` with a 2 MiB body."""

    def send(self, method, params=None, session_id=None):
        future = super().send(method, params, session_id)
        if method == "Network.getRequestPostData":
            future = Future()
            future.set_result({"result": {"postData": "b" * (2 << 20)}})
        return future


def test_a_body_fetched_later_is_cut_and_counted_against_the_capture_cap():
    collector = NetworkCollector()
    hub = NetworkCapture(collectors=[collector])
    hub.bind(BodyCDP())
    _attach(hub)
    collector.max_bytes = (1 << 20) + 5000
    for k in range(2):
        hub.on_event("Network.requestWillBeSent", {"requestId": str(k), "type": "Fetch", "wallTime": 1.0, "request": {
            "url": f"https://a.example/e?k={k}", "method": "POST", "hasPostData": True}}, "S1")
    kept = collector.get_data(None)
    assert [len(r.post_data or "") for r in kept] == [1 << 20, 0]
    assert collector.notes() == [f"capture cap of {(1 << 20) + 5000} bytes reached: 1 request bodies fetched later "
                                 "not kept"]


def test_the_datalayer_collector_caps_values_and_pushes():
    collector = DataLayerCollector()
    hub = _hub(collector)
    push = lambda value: hub.on_event("Runtime.bindingCalled",
                                      {"name": hub.hooks.binding, "payload": json.dumps({"dl": value})}, "S1")
    push({"event": "big", "blob": "x" * (1 << 20)})
    for n in range(1200):
        push({"event": n})
    kept = collector.get_data(None)
    assert len(kept) == 1000 and kept[0]["event"] == "big" and MARKED.search(kept[0]["blob"])
    assert collector.notes() == ["dataLayer: 1 pushed values cut (docs/api.md)",
                                 "dataLayer: 201 items not kept (more than 1000 per crawl, more than 1,000 per document, "
                                 "or over 1 MiB)"]


def test_consent_signals_are_bounded_whatever_the_script_returned():
    answer = {"url": "u", "tcf": {"tcString": "C" * (5 << 20), "cmpId": 1}, "usp": None,
              "gpp": {"gppString": "DBA", "applicableSections": list(range(100_000)), "applicableSectionsCount": 10**6}}
    capped = bounded(answer)
    assert len(capped["tcf"]["tcString"]) <= 8192 + 40 and len(capped["gpp"]["applicableSections"]) < 300
    assert bounded("not a dict") is None
    assert notes([capped])[0].startswith("consent signals: GPP applicableSections of frame 0 kept ")
