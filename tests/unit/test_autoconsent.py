"""autoconsent without Chrome: the pinned rule base is read and filtered per
frame, the collector answers its protocol within its bounds, and the stored
choice is what a click wrote, whatever its name."""
import json
from concurrent.futures import Future
from types import SimpleNamespace

import pytest

from tagcrawl.core.settings import Settings
from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.collectors import autoconsent as ac
from tagcrawl.engine.collectors.autoconsent_rules import load
from tagcrawl.engine.consent.auto import cmp_name
from tagcrawl.engine.consent.stored import MAX_STORED, StoredChoice, written

BASE = load()
needs_package = pytest.mark.skipif(BASE is None, reason="npm/node_modules not installed (make install)")


class FakeCDP:
    closed = False

    def __init__(self, value=True):
        self.sent, self.value = [], value

    def send(self, method, params=None, session_id=None):
        self.sent.append((method, params, session_id))
        future = Future()
        future.set_result({"result": {"value": self.value}})
        return future


@needs_package
def test_the_rule_base_is_the_pinned_package_with_opt_in_steps():
    assert BASE.version == "16.23.0" and len(BASE.rules) > 700
    assert "autoconsentReceiveMessage" in BASE.script
    top = {r["name"] for r in BASE.rules_for("https://shop.example/", True)}
    assert "PrimeBox CookieBar" in top and all("optIn" in r.data or "optOut" in r.data for r in BASE.rules)
    assert not any(r.data.get("cosmetic") for r in BASE.rules)
    frame = {r["name"] for r in BASE.rules_for("https://shop.example/", False)}
    assert "PrimeBox CookieBar" not in frame  # a main-frame rule
    specific = next(r for r in BASE.rules if r.site_specific and r.pattern is not None)
    assert not specific.admits("https://unrelated.invalid/", specific.main)
    assert BASE.popup_selectors("PrimeBox CookieBar") == ["#cookie-bar .cb-enable,#cookie-bar .cb-disable,"
                                                          "#cookie-bar .cb-policy"]
    assert BASE.popup_selectors("no such rule") == []


def test_a_missing_package_turns_autoconsent_off(tmp_path):
    assert load(str(tmp_path)) is None


def _collector(settings: Settings, value=True):
    collector = ac.AutoconsentCollector()
    hub = NetworkCapture(collectors=[collector])
    hub.bind(FakeCDP(value))
    collector.init(SimpleNamespace(settings=settings))
    return collector, hub


def _world(collector, hub, context=7, frame="F1", session="S1"):
    hub.on_event("Runtime.executionContextCreated", {"context": {"id": 1, "auxData": {
        "isDefault": True, "frameId": frame}}}, session)
    hub.on_event("Runtime.executionContextCreated", {"context": {"id": context, "name": collector.world,
                                                                 "auxData": {"frameId": frame}}}, session)


def _message(collector, hub, message, context=7, session="S1"):
    payload = message if isinstance(message, str) else json.dumps(message)
    hub.on_event("Runtime.bindingCalled", {"name": collector.binding, "payload": payload,
                                           "executionContextId": context}, session)


@pytest.mark.slow
@needs_package
def test_the_collector_injects_into_an_isolated_world_and_answers_init():
    collector, hub = _collector(Settings())
    commands = collector.add_target(SimpleNamespace(type="iframe", session="S1"))
    assert [m for m, _ in commands] == ["Runtime.addBinding", "Page.addScriptToEvaluateOnNewDocument"]
    assert commands[0][1]["executionContextName"] == commands[1][1]["worldName"] == collector.world
    assert collector.add_target(SimpleNamespace(type="worker", session="S2")) == []
    _world(collector, hub)
    _message(collector, hub, {"type": "init", "url": "https://shop.example/", "top": True})
    method, params, session = hub.cdp.sent[-1]
    assert (method, params["contextId"], session) == ("Runtime.evaluate", 7, "S1")
    assert '"autoAction": null' in params["expression"] and "PrimeBox CookieBar" in params["expression"]
    _message(collector, hub, {"type": "cmpDetected", "cmp": "PrimeBox CookieBar"})
    assert collector.detecting() and collector.popup() is None
    _message(collector, hub, {"type": "popupFound", "cmp": "PrimeBox CookieBar"})
    frame = collector.popup()
    assert frame.top and frame.popup == "PrimeBox CookieBar" and not collector.detecting()
    collector.act(frame, "reject")
    assert '"type": "optOut"' in hub.cdp.sent[-1][1]["expression"]
    _message(collector, hub, {"type": "optOutResult", "cmp": "PrimeBox CookieBar", "result": True, "label": "No"})
    assert (frame.result, frame.label) == (True, "No")
    assert collector.popup_shown(frame, 1.0) is True


@needs_package
def test_evals_run_in_the_page_world_of_the_same_frame_within_bounds():
    collector, hub = _collector(Settings())
    _world(collector, hub)
    _message(collector, hub, {"type": "init", "url": "https://shop.example/", "top": True})
    _message(collector, hub, {"type": "eval", "id": "e1", "code": "(() => !!window.Cookiebot)()"})
    evaluate, answer = hub.cdp.sent[-2], hub.cdp.sent[-1]
    assert (evaluate[1]["contextId"], evaluate[1]["timeout"], evaluate[1]["returnByValue"]) == (1, 1000, True)
    assert '"evalResp"' in answer[1]["expression"] and '"result": true' in answer[1]["expression"]
    assert answer[1]["contextId"] == 7
    _message(collector, hub, {"type": "eval", "id": "e2", "code": "x" * (ac.MAX_EVAL_CHARS + 1)})
    assert hub.cdp.sent[-1][1]["contextId"] == 7 and '"result": false' in hub.cdp.sent[-1][1]["expression"]


@needs_package
def test_messages_past_the_bounds_and_from_other_worlds_are_dropped():
    collector, hub = _collector(Settings())
    _world(collector, hub)
    before = len(hub.cdp.sent)
    _message(collector, hub, {"type": "init", "url": "https://x.example/", "top": True}, context=99)  # not our world
    _message(collector, hub, "{" + " " * ac.MAX_MESSAGE_CHARS + "}")
    assert len(hub.cdp.sent) == before and not collector.frames
    assert collector.dropped == 2 and collector.notes()


def test_autoconsent_off_injects_nothing():
    collector, _hub = _collector(Settings(autoconsent=False))
    assert not collector.available
    assert collector.add_target(SimpleNamespace(type="page", session="S1")) == []


def test_the_stored_choice_is_what_the_click_wrote_whatever_its_name():
    before = {"cookies": {("zq_pref", "shop.example"): None, ("_fbp", "shop.example"): "1"},
              "storage": {"keep": "1"}, "session": {}, "host": "shop.example"}
    before["cookies"].pop(("zq_pref", "shop.example"))
    after = {"cookies": {("zq_pref", "shop.example"): "r0", ("_fbp", "shop.example"): "1",
                         ("_ga", ".shop.example"): "GA1.1", ("uid", ".tracker.example"): "9"},
             "storage": {"keep": "1", "zq.v": "n"}, "session": {"zq.s": "1"}, "host": "shop.example"}
    assert written(before, after) == [StoredChoice("cookie", "zq_pref", "shop.example"),
                                      StoredChoice("localStorage", "zq.v"), StoredChoice("sessionStorage", "zq.s")]
    many = dict(after, storage={f"k{i}": "v" for i in range(100)})
    assert len(written(before, many)) == MAX_STORED


def test_the_cmp_is_named_by_the_most_specific_rule():
    assert cmp_name("onetrust", "cmp", "OneTrust") == "OneTrust"
    assert cmp_name("PrimeBox CookieBar", "heuristic", None) == "PrimeBox CookieBar"
    assert cmp_name("PrimeBox CookieBar", "tcf", "TCF CMP 10") == "PrimeBox CookieBar"
    assert cmp_name("auto_SE_shop.example_abc", "tcf", "TCF CMP 10") == "TCF CMP 10"
