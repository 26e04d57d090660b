"""The page hooks' script and messages, timer deadlines, and Chrome's launch
user agent (issue 24 item 6); the browser side is tests/browser/test_stealth_traces.py."""
from __future__ import annotations

import json
import time

import pytest

from tagcrawl.engine.capture.activity import Activity
from tagcrawl.engine.chrome.driver_factory import chrome_options
from tagcrawl.engine.capture.hooks import MAX_MESSAGE_CHARS, PageHooks, timer_update
from tagcrawl.engine.identity.stealth import launch_user_agent
from tests.support.config import settings


def test_every_crawl_gets_its_own_names_and_the_script_names_nothing_of_tagcrawl():
    first, second = PageHooks.new(4000, 10500), PageHooks.new(4000, 10500)
    assert len({first.binding, second.binding}) == 2 and len({first.key, second.key}) == 2
    assert first.binding.isalnum() and first.binding[0].isalpha() and len(first.binding) == 16
    for placeholder in ("__KEY__", "__SOURCE__", "__BINDING__", "__HORIZON__", "__LATE__"):
        assert placeholder not in first.script
    assert "__tc" not in first.script and "tagcrawl" not in first.script.lower()
    assert f'"{first.binding}"' in first.script and f'"{first.key}"' in first.script
    assert first.script.rstrip().endswith(f"//# sourceURL={first.source}")
    assert "HORIZON = 4000, LATE = 10500" in first.script


def test_only_this_crawls_binding_is_read_and_payloads_are_bounded():
    hooks = PageHooks.new(4000, 10500)
    call = lambda payload, name=hooks.binding: hooks.message({"name": name, "payload": payload})  # noqa: E731
    assert call('{"w": "a", "t": 120, "l": 0}') == {"w": "a", "t": 120, "l": 0}
    assert call('{"dl": {"event": "x"}}', name="__tcActivity") is None  # another binding
    assert call("not json") is None
    assert call(json.dumps({"dl": "x" * MAX_MESSAGE_CHARS})) is None  # over the cap: not parsed
    assert hooks.api() == (f'(Function.prototype.toString["{hooks.key}"] '  # core-js 3 replaces toString
                           f'|| Storage.prototype.setItem["{hooks.key}"])')
    assert hooks.is_item({"name": hooks.binding, "payload": '{"dl":{"event":"x"}}'})
    assert not hooks.is_item({"name": hooks.binding, "payload": '{"dlCut":3}'})
    assert timer_update({"w": "a", "t": 120, "l": 5000}) == ("a", 120, 5000)
    assert timer_update({"w": 1, "t": -5, "l": 10**12}) == (None, 0, 86_400_000)  # clamped
    assert timer_update({"t": "soon"}) == (None, 0, 0) and timer_update({"dom": 1}) is None


@pytest.mark.slow
def test_a_pending_timer_holds_the_quiet_wait_until_it_is_due_then_counts_as_activity():
    activity = Activity()
    with activity.cond:
        activity._last_activity -= 10  # long quiet before
        activity.note_timers(("s", "doc"), 300, 0)
    assert not activity.idle(0)
    started = time.monotonic()
    assert activity.wait_quiet(200, 5000) is True
    elapsed = time.monotonic() - started
    assert 0.5 <= elapsed < 3  # due at 0.3 s, then the 0.2 s quiet window; woken by the deadline, no event
    assert activity.idle(0)


def test_late_timers_count_only_for_the_late_banner_search():
    activity = Activity()
    with activity.cond:
        activity._last_activity -= 10
        activity.note_timers(("s", "doc"), 0, 60_000)
    assert activity.idle(0) is True
    assert activity.idle(0, include_late=True) is False
    with activity.cond:
        activity.note_timers(("s", "doc"), 0, 0)  # cleared (clearTimeout, pagehide)
    assert activity.idle(0, include_late=True) is True


def _fake_chrome(tmp_path, output: str, status: int = 0) -> str:
    script = tmp_path / "chrome"
    script.write_text(f"#!/bin/sh\necho '{output}'\nexit {status}\n")
    script.chmod(0o755)
    return str(script)


def test_launch_user_agent_is_chromes_own_without_headless(tmp_path):
    binary = _fake_chrome(tmp_path, "Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)")
    agent = launch_user_agent(binary)
    assert agent == ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/156.0.0.0 Safari/537.36")
    assert launch_user_agent(_fake_chrome(tmp_path / "..", "no version here", 1)) is None
    assert launch_user_agent(str(tmp_path / "missing")) is None


def test_the_user_agent_switch_yields_to_an_operator_one():
    agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0"
    base = {"EGRESS_PROXY_URL": "off", "CHROME_ARGS": []}
    args = chrome_options(settings(base), agent).arguments
    assert f"--user-agent={agent}" in args
    own = chrome_options(settings(dict(base, CHROME_ARGS=["--user-agent=Operator/1"])), agent).arguments
    assert [a for a in own if a.startswith("--user-agent=")] == ["--user-agent=Operator/1"]
    assert not [a for a in chrome_options(settings(base)).arguments if a.startswith("--user-agent=")]
