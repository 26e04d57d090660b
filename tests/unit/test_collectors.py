"""The collector interface without Chrome: the capture hub dispatches CDP events
and target setup to every collector, and one failing collector stops neither
the hub nor the others (tracker-radar-collector's rule)."""
from concurrent.futures import Future

from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.collectors import standard
from tagcrawl.engine.collectors.base import Collector
from tagcrawl.crawl.steps import SEQUENCE
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
    hub = NetworkCapture(collectors=standard(guard=lambda url: None, page_max_bytes=10))
    hub.bind(FakeCDP())
    _attach(hub)
    _request(hub, "https://a.example/p.gif")
    assert [r.url for r in hub.snapshot()] == ["https://a.example/p.gif"]
    assert ("Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}, "S1") in hub.cdp.sent
    assert {c.name for c in hub.collectors} == {"requests", "datalayer", "cookies", "page_size", "dialogs", "ssrf"}
    assert not hub.failures


def test_every_step_is_timed_under_a_server_timing_phase():
    assert {step.phase for step in SEQUENCE} <= set(PHASES)
    assert [step.phase for step in SEQUENCE][:2] == ["navigate", "quiet"] and SEQUENCE[-1].phase == "collect"
