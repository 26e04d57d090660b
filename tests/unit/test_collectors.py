"""The collector interface without Chrome: the capture hub dispatches CDP events
and target setup to every collector, and one failing collector stops neither
the hub nor the others (tracker-radar-collector's rule)."""
import time
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace

import pytest

from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.collectors import Collectors, CookieCollector, DialogGuard, NetworkCollector, standard
from tagcrawl.engine.collectors.base import Collector
from tagcrawl.crawl.collect import Collect
from tagcrawl.crawl.steps import SEQUENCE, CookiesBefore, Navigate, Screenshot
from tagcrawl.crawl.timing import PHASES


class FakeCDP:
    """Records the commands sent; every reply is an empty result."""

    closed = False

    def __init__(self):
        self.sent = []

    def send(self, method, params=None, session_id=None):
        self.sent.append((method, params, session_id))
        future = Future()
        future.set_result({"result": {}})
        return future


class Broken(Collector):
    name = "broken"

    def __init__(self):
        super().__init__()
        self.events = {"Network.requestWillBeSent": self._boom}

    def _boom(self, params, session):
        raise RuntimeError("boom")

    def add_target(self, target):
        raise RuntimeError("no setup")


class Counting(Collector):
    name = "counting"

    def __init__(self):
        super().__init__()
        self.seen, self.targets = [], []
        self.events = {"Network.requestWillBeSent": lambda p, s: self.seen.append(p["request"]["url"])}

    def add_target(self, target):
        self.targets.append(target)
        return [("Counting.enable", {"type": target.type})]


def _attach(hub, session="S1", kind="page"):
    hub.on_event("Target.attachedToTarget", {"sessionId": session, "waitingForDebugger": True,
                                             "targetInfo": {"type": kind, "targetId": "T1", "url": "about:blank"}},
                 None)


def _request(hub, url, request_id="1", session="S1"):
    hub.on_event("Network.requestWillBeSent", {"requestId": request_id, "type": "Image", "wallTime": 1.0,
                                               "request": {"url": url, "method": "GET"}}, session)


def test_a_failing_collector_loses_only_its_own_part():
    broken, counting = Broken(), Counting()
    hub = NetworkCapture(collectors=[broken, counting])
    hub.bind(FakeCDP())
    _attach(hub)
    _request(hub, "https://a.example/p.gif")
    assert counting.seen == ["https://a.example/p.gif"]
    assert [t.type for t in counting.targets] == ["page"]
    assert ("Counting.enable", {"type": "page"}, "S1") in hub.cdp.sent
    assert hub.cdp.sent[-1][0] == "Runtime.runIfWaitingForDebugger"  # the target still resumes
    assert set(hub.failures) == {"broken"} and "no setup" in hub.failures["broken"]
    assert hub.request_count() == 1


def test_every_target_kind_gets_the_collectors_commands():
    counting = Counting()
    hub = NetworkCapture(collectors=[counting])
    hub.bind(FakeCDP())
    for n, kind in enumerate(["page", "iframe", "worker", "shared_worker", "service_worker"]):
        _attach(hub, f"S{n}", kind)
    assert [t.type for t in counting.targets] == ["page", "iframe", "worker", "shared_worker", "service_worker"]


def test_the_standard_collectors_record_requests_and_guard_pages():
    found = standard(guard=lambda url: None, page_max_bytes=10, links=True)
    hub = NetworkCapture(collectors=found)
    hub.bind(FakeCDP())
    _attach(hub)
    _request(hub, "https://a.example/p.gif")
    assert [r.url for r in found.requests.get_data(None)] == ["https://a.example/p.gif"]
    assert ("Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}, "S1") in hub.cdp.sent
    assert {c.name for c in hub.collectors} == {"requests", "datalayer", "cookies", "page_size", "dialogs", "ssrf",
                                                  "autoconsent", "storage", "links"}
    assert not hub.failures


def test_every_step_is_timed_under_a_server_timing_phase():
    assert {step.phase for step in SEQUENCE} <= set(PHASES)
    assert [step.phase for step in SEQUENCE][:2] == ["navigate", "quiet"] and SEQUENCE[-1].phase == "collect"


def test_the_hub_is_what_collectors_see_and_they_import_nothing_of_it():
    from tagcrawl.engine.collectors import Hub

    hub = NetworkCapture(collectors=standard())
    assert isinstance(hub, Hub)
    assert all(c.hub is hub for c in hub.collectors)
    collectors_dir = Path(__file__).resolve().parents[2] / "tagcrawl" / "engine" / "collectors"
    for module in collectors_dir.glob("*.py"):
        assert "engine.capture" not in module.read_text(), module.name


def test_collectors_are_typed_attributes_and_the_absent_ones_are_skipped():
    found = standard(links=True)
    assert isinstance(found.requests, NetworkCollector) and isinstance(found.dialogs, DialogGuard)
    assert found.ssrf is None and found.screenshots is None
    assert [c.name for c in found] == ["requests", "datalayer", "cookies", "page_size", "dialogs", "autoconsent",
                                       "storage", "links"]
    assert standard().links is None  # the links only in the crawls of audit pages
    assert [c.name for c in Collectors(dialogs=None, page_size=None, autoconsent=None, storage=None, links=None)] == [
        "requests", "datalayer", "cookies"]
    assert list(Collectors.none()) == []


def _context(found):
    from tagcrawl.crawl.context import CrawlContext
    from tagcrawl.crawl.report import CrawlReport
    from tests.support.config import settings

    session = SimpleNamespace(capture=SimpleNamespace(cdp=FakeCDP()))
    return CrawlContext(settings=settings({}), request={"url": "https://a.example/"}, options={"screenShots": True},
                        deadline=time.monotonic() + 60, report=CrawlReport(session_id="s", url="https://a.example/"),
                        session=session, collectors=found)


def test_steps_without_a_collector_lose_its_part_and_nothing_else():
    ctx = _context(Collectors.none())
    for step in (CookiesBefore(), Screenshot("before"), Screenshot("after"), Collect()):
        step.run(ctx)
    assert Navigate._refused(ctx) is None
    assert ctx.collected and (ctx.requests, ctx.datalayer, ctx.cookies) == ([], [], [])
    assert ctx.report.cookies_before is None and ctx.report.cookies_after is None and ctx.report.screenshots is None
    assert not ctx.failures and not ctx.notes


def test_a_collectors_reading_goes_to_its_typed_report_field():
    class Cookies(CookieCollector):
        def snapshot(self, ctx, moment):
            return 3 if moment == "before" else None

    ctx = _context(Collectors.none())
    ctx.collectors.cookies = Cookies()
    CookiesBefore().run(ctx)
    assert ctx.report.cookies_before == 3


def test_the_session_is_used_in_a_with_block_its_opening_and_closing_timed():
    from tagcrawl.crawl.timing import PhaseTimings

    class Session:
        def __init__(self):
            self.calls = []

        def __enter__(self):
            self.calls.append("open")
            return self

        def __exit__(self, *exc):
            self.calls.append(("close", exc[0]))

    timings, session = PhaseTimings(), Session()
    with timings.around("browser", session) as entered:
        assert entered is session and session.calls == ["open"]
    assert session.calls == ["open", ("close", None)] and "browser" in timings.phases
    failing = Session()
    with pytest.raises(KeyError):
        with timings.around("browser", failing):
            raise KeyError("step")
    assert failing.calls == ["open", ("close", KeyError)]


def test_the_fetch_guard_pauses_only_documents_behind_the_egress_proxy():
    from tagcrawl.core.settings import Settings
    from tagcrawl.crawl.context import CrawlContext
    from tagcrawl.crawl.service import _collectors
    from tagcrawl.engine.collectors.guards import FETCH_ENABLE, FETCH_ENABLE_DOCUMENTS

    def guard_commands(**overrides):
        ctx = CrawlContext.__new__(CrawlContext)
        ctx.settings, ctx.failures, ctx.options, ctx.request = Settings(**overrides), [], {}, {}
        ctx.deadline = time.monotonic() + 30
        guard = _collectors(ctx).ssrf
        return None if guard is None else guard.add_target(None)

    assert guard_commands() == [FETCH_ENABLE_DOCUMENTS]  # owned proxy, "auto"
    assert guard_commands(fetch_guard="all") == [FETCH_ENABLE]
    assert guard_commands(egress_proxy_url="off") == [FETCH_ENABLE]  # no proxy: every request pauses
    assert guard_commands(egress_proxy_url="off", fetch_guard="off") == [FETCH_ENABLE]  # never unguarded
    assert guard_commands(fetch_guard="off") is None
    assert guard_commands(allow_private_targets=True) is None
    with pytest.raises(ValueError, match="TAGCRAWL_FETCH_GUARD"):
        Settings(fetch_guard="some")
    assert FETCH_ENABLE_DOCUMENTS[1]["patterns"] == [{"urlPattern": "*", "resourceType": "Document",
                                                      "requestStage": "Request"}]
