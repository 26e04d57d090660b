"""Containment: a hostile page cannot reach an internal listener with any browser feature.

Real Chrome, ``TAGCRAWL_ALLOW_PRIVATE_TARGETS`` off, the fixture web reached
by operator mapping (``MAP * 127.0.0.1:<port>, EXCLUDE localhost``, honoured
by the egress proxy).  ``tests/support/web/victims.py`` listens on 127.0.0.1 and [::1]
(TCP and UDP, one port) and records every connection and datagram; each
attack of ``sites/attack.example/attacks.js`` aims at it by IP literal and by
``localhost``, and the victim must record nothing.

Two layer sets are run: everything (egress proxy, Chrome settings, the
Fetch-domain guard), and the same without the Fetch-domain guard, which shows
that the proxy and Chrome's settings hold on their own.  Controls show the
attacks are real: with private targets allowed the same pages do reach the
victim through the proxy, and without the profile preferences STUN and
same-origin speculation do happen.
"""
from __future__ import annotations

import uuid

import pytest

from tagcrawl import create_app
from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.crawl.service import run_crawl

from tests.support.web.victims import Victim
from tests.support.config import settings

pytestmark = pytest.mark.browser

#: Attacks that report "done" to the fixture web once they have had their go;
#: the others navigate away (the crawl's end is their end).
SIGNALLED = ("redirect", "websocket", "stun", "turn_udp", "turn_tcp", "webtransport", "iframe", "worker",
             "import_scripts", "service_worker")
SPECULATION = ("prefetch", "prerender", "link_prefetch", "prefetch_redirect", "prerender_redirect")
HOSTS = ("127.0.0.1", "[::1]", "localhost")


@pytest.fixture(scope="module")
def victim():
    victim = Victim().start()
    yield victim
    victim.stop()


def make_config(web, tmp_path_factory, marker: str, **settings) -> dict:
    from .conftest import browser_config

    base = browser_config(web, tmp_path_factory.mktemp("containment"))
    return create_app(dict(base, SQLALCHEMY_DATABASE_URI="sqlite://", POOL_SIZE=1,
                           CHROME_ARGS=base["CHROME_ARGS"] + [f"--tagcrawl-test-pool={marker}"],
                           **settings)).config


@pytest.fixture(scope="module")
def guarded(fixture_web, tmp_path_factory):
    config = make_config(fixture_web, tmp_path_factory, "containment-guarded", ALLOW_PRIVATE_TARGETS=False)
    yield config
    get_pool(settings(config)).shutdown()


@pytest.fixture(scope="module")
def proxy_only(fixture_web, tmp_path_factory):
    """Private targets refused, the Fetch guard off: the egress proxy and Chrome's settings alone."""
    config = make_config(fixture_web, tmp_path_factory, "containment-proxy-only", ALLOW_PRIVATE_TARGETS=False,
                         FETCH_GUARD="off")
    yield config
    get_pool(settings(config)).shutdown()


@pytest.fixture(scope="module")
def allowed(fixture_web, tmp_path_factory):
    config = make_config(fixture_web, tmp_path_factory, "containment-allowed", ALLOW_PRIVATE_TARGETS=True)
    yield config
    get_pool(settings(config)).shutdown()


def attack(config, web, victim, name: str, host: str, require_done: bool = True):
    """Crawl the attack page; returns (what the victim recorded, the crawl response).
    ``require_done``: the attack must have reported "done" (it ran to its end)."""
    run = uuid.uuid4().hex
    before = len(victim.hits())
    outcome = run_crawl(settings(config), {"url": f"https://attack.example/?attack={name}&host={host}&port={victim.port}"
                                        f"&run={run}", "session_id": None})
    if name in SIGNALLED and require_done:
        assert web.wait_for(lambda e: e["path"] == "/__done" and f"run={run}" in e["query"], timeout_s=15), \
            f"the {name} attack never reported done"
    return victim.hits()[before:], outcome.response


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("name", SPECULATION + SIGNALLED)
def test_attack_does_not_reach_the_internal_listener(guarded, fixture_web, victim, name, host):
    hits, _response = attack(guarded, fixture_web, victim, name, host)
    assert hits == []


@pytest.mark.slow
@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("name", SPECULATION + SIGNALLED)
def test_proxy_and_chrome_settings_hold_without_the_fetch_guard(proxy_only, fixture_web, victim, name, host):
    # TAGCRAWL_FETCH_GUARD=off: no request pauses in the Fetch domain (the default,
    # "auto", pauses only documents behind the proxy: test_attack_does_not_reach_...).
    hits, _response = attack(proxy_only, fixture_web, victim, name, host)
    assert hits == []


def test_a_crawl_target_that_redirects_inside_never_reaches_it(guarded, fixture_web, victim):
    before = len(victim.hits())
    inside = f"http://127.0.0.1:{victim.port}/metadata"
    outcome = run_crawl(settings(guarded), {"url": f"https://attack.example/__fixture/redirect?to={inside}",
                                  "session_id": None})
    assert outcome.response["success"] is False
    assert victim.hits()[before:] == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ("websocket", "iframe", "worker", "import_scripts", "service_worker", "redirect",
                                  "turn_tcp", "link_prefetch"))
def test_control_with_private_targets_allowed_the_same_attack_gets_through(allowed, fixture_web, victim, name):
    """The attack pages work: when the policy lets loopback through, the
    victim sees the connection, through the egress proxy (TCP)."""
    before = len(victim.hits())
    attack(allowed, fixture_web, victim, name, "localhost", require_done=False)  # an unanswered TURN never ends
    assert victim.wait_for(lambda log: any(h["proto"] == "tcp" for h in log[before:]), timeout_s=15)


def _speculated(web, run):
    with web.lock:
        return [e["headers"].get("Sec-Purpose") for e in web.log if e["path"] == "/__speculated" and run in e["query"]]


@pytest.mark.parametrize("action", ("prefetch", "prerender"))
def test_speculation_rules_do_not_prefetch_or_prerender(guarded, fixture_web, victim, action):
    """Same-origin speculation (which a proxy does not prevent): the only
    request for the URL is the navigation, no ``Sec-Purpose`` one."""
    run = uuid.uuid4().hex
    run_crawl(settings(guarded), {"url": f"https://attack.example/?attack=same_origin_{action}&run={run}&host=x&port=1",
                        "session_id": None})
    assert _speculated(fixture_web, run) == [None]


@pytest.mark.slow
def test_control_without_the_profile_prefs_stun_and_speculation_happen(fixture_web, victim, tmp_path_factory,
                                                                       monkeypatch):
    """What the prefs stop: without them (proxy still on) STUN reaches the
    victim over UDP and same-origin speculation prefetches."""
    from tagcrawl.engine.chrome import driver_factory

    monkeypatch.setattr(driver_factory, "CONTAINMENT_PREFS", {})
    config = make_config(fixture_web, tmp_path_factory, "containment-noprefs", ALLOW_PRIVATE_TARGETS=False)
    try:
        before = len(victim.hits())
        attack(config, fixture_web, victim, "stun", "127.0.0.1", require_done=False)  # unanswered STUN: no "done"
        assert victim.wait_for(lambda log: any(h["proto"] == "udp" for h in log[before:]), timeout_s=15)
        run = uuid.uuid4().hex
        run_crawl(settings(config), {"url": f"https://attack.example/?attack=same_origin_prefetch&run={run}&host=x&port=1",
                           "session_id": None})
        assert "prefetch" in _speculated(fixture_web, run)
    finally:
        get_pool(settings(config)).shutdown()
