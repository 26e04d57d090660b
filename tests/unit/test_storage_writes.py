"""Storage writes (issue 27 item 1): the hooks' messages (engine/collectors/storage.py), their
attribution to the writing script's organisation (engine/parties/storage.py, attribution.py) and
the caps.  Through real Chrome: tests/browser/test_long_tail.py::test_storage_writes_*."""
from __future__ import annotations

import json
import threading

from tagcrawl.core.schemas.crawl import CrawlResponseSchema
from tagcrawl.crawl.report import CrawlReport
from tagcrawl.crawl.report_caps import cap_response
from tagcrawl.engine.collectors.storage import KEY_MAX, MAX_WRITES, StorageCollector, StorageWrite, script_url, write_of
from tagcrawl.engine.parties.attribution import attribute
from tagcrawl.engine.parties.entities import Entity, EntityIndex
from tagcrawl.engine.parties.hosts import Party
from tagcrawl.engine.parties.storage import attribute_writes

PAGE = "https://shop.example/"
INDEX = EntityIndex(loaded=True, version="test", exact={}, wildcard={
    "intercom.io": Entity("Intercom", "Intercom", "customer-success")})


def _phase(ms: float) -> str:
    return "before_consent" if ms < 1000 else "after_reject"


def _write(key="k", script="https://widget.intercom.io/w.js", area="local", size=3, t=10.0) -> StorageWrite:
    return StorageWrite(area=area, key=key, bytes=size, script=script, timestamp=t)


def test_the_script_url_is_read_from_a_v8_stack_frame():
    assert script_url("    at set (https://a.example/x/app.js?v=2:10:5)") == "https://a.example/x/app.js?v=2"
    assert script_url("    at https://cdn.example/sdk.min.js:1:2041") == "https://cdn.example/sdk.min.js"
    assert script_url("    at eval (eval at load (https://a.example/l.js:3:9), <anonymous>:1:1)") == (
        "https://a.example/l.js")
    assert script_url("    at <anonymous>:1:1") is None
    assert script_url("") is None and script_url(None) is None
    assert script_url("    at https://a.example/" + "p" * 5000 + ".js:1:1") is None  # past the frame's cap


def test_a_hooks_message_becomes_a_write_and_a_long_key_ends_with_the_mark():
    w = write_of({"st": {"a": "session", "k": "cart", "n": 17, "f": "    at https://a.example/a.js:1:1",
                         "t": 1700000000000}})
    assert w == StorageWrite("session", "cart", 17, "https://a.example/a.js", 1700000000000.0)
    cut = write_of({"st": {"a": "local", "k": "k" * KEY_MAX, "l": 300, "n": 1, "f": "", "t": 1}})
    assert cut.key == "k" * KEY_MAX + "…[truncated 44 chars]" and cut.script is None
    longer = write_of({"st": {"a": "local", "k": "x" * 1000, "n": 1}})  # a page-forged message: cut here too
    assert longer.key.startswith("x" * KEY_MAX) and longer.key.endswith("…[truncated 744 chars]")
    assert write_of({"st": {"a": "cookie", "k": "x"}}) is None and write_of({"st": {"a": "local", "k": 5}}) is None
    assert write_of({"dl": {}}) is None and write_of(None) is None
    assert write_of({"st": {"a": "local", "k": "x", "n": -5, "t": "soon"}}).bytes == 0


class _Hub:
    def __init__(self):
        self.cond = threading.Condition()

    @staticmethod
    def message(params):
        return json.loads(params["payload"])


def _bind(collector, payload, session="S1"):
    collector.events["Runtime.bindingCalled"]({"name": "b", "payload": json.dumps(payload)}, session)


def test_the_collector_keeps_at_most_max_writes_and_counts_the_rest():
    collector = StorageCollector()
    collector.attach(_Hub())
    for i in range(MAX_WRITES + 3):
        _bind(collector, {"st": {"a": "local", "k": f"k{i}", "n": 1, "f": "", "t": i}})
    _bind(collector, {"stCut": 4})
    _bind(collector, {"stCut": 6})  # a running count per document: 6 in all, not 10
    _bind(collector, {"dl": {"st": 1}})  # a dataLayer item is no write
    data = collector.get_data(None)
    assert len(data) == MAX_WRITES and data[0].key == "k0"
    assert collector.dropped == 3 + 6
    assert collector.notes() == [f"storage: 9 writes not kept (more than {MAX_WRITES} per crawl or 500 per document)"]


def test_writes_are_attributed_to_the_script_hosts_organisation():
    party = Party(PAGE, INDEX)
    writes = [_write("tp", t=10), _write("fp", script="https://shop.example/app.js", t=2000),
              _write("cdn", script="https://static.shop.example/x.js"), _write("eval", script=None)]
    got = {e.key: e for e in attribute_writes(writes, party, _phase)}
    tp = got["tp"]
    assert (tp.third_party, tp.organisation, tp.entity, tp.category, tp.phase) == (
        True, "Intercom", "Intercom", "customer-success", "before_consent")
    assert (got["fp"].third_party, got["fp"].organisation, got["fp"].phase) == (False, None, "after_reject")
    assert got["cdn"].third_party is False and got["eval"].third_party is False and got["eval"].script is None


def test_third_parties_count_the_writes_of_their_scripts():
    class Req:
        url, frame_url, timestamp = "https://widget.intercom.io/w.js", PAGE, 5.0

    writes = [_write("a"), _write("b", area="session"), _write("fp", script="https://shop.example/app.js"),
              _write("new", script="https://tracker.unknown-co.example/t.js")]
    result = attribute([Req()], [], [], PAGE, INDEX, _phase, writes)
    by = {p.entity or p.domains[0]: p for p in result.parties}
    assert by["Intercom"].storage_writes == 2 and by["Intercom"].requests == 1
    assert by["unknown-co.example"].storage_writes == 1 and by["unknown-co.example"].requests == 0
    assert "shop.example" not in by


def test_the_storage_list_is_dumped_capped_and_declared():
    report = CrawlReport(session_id="s", url=PAGE)
    party = Party(PAGE, INDEX)
    report.storage = attribute_writes([_write(f"k{i}") for i in range(MAX_WRITES)], party, _phase)
    dumped = CrawlResponseSchema().dump(report)
    first = dumped["storage"][0]
    assert first == {"area": "local", "key": "k0", "bytes": 3, "script": "https://widget.intercom.io/w.js",
                     "thirdParty": True, "organisation": "Intercom", "entity": "Intercom",
                     "category": "customer-success", "phase": "before_consent"}
    dumped["storage"][1] = dict(first, key="z" * 400)
    dumped["storage"].append(first)
    capped = cap_response(dumped, 1 << 24)
    assert len(capped["storage"]) == MAX_WRITES and "storage (kept 500 of 501)" in capped["message"]
    assert capped["storage"][1]["key"] == "z" * 256 + "…[truncated 144 chars]"
    assert CrawlResponseSchema().dump(CrawlReport(session_id="s", url=PAGE))["storage"] is None
