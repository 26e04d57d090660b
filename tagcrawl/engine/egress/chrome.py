"""Chrome's side of containment: switches that close the doors a proxy cannot
watch, and the wiring of Chrome to the egress proxy.

Each switch and the attack it stops is listed in docs/security.md.
"""
from __future__ import annotations

from tagcrawl.engine.egress.flow import Limits
from tagcrawl.engine.egress.policy import EgressPolicy
from tagcrawl.engine.egress.rules import split_rules
from tagcrawl.engine.egress.server import get_egress
from tagcrawl.core.settings import Settings

#: Switches of every crawl browser, whatever the proxy does.  Each was tried
#: against Chromium 156 by tests/browser/test_containment.py (docs/security.md).
CONTAINMENT_SWITCHES = (
    # Loopback goes through the proxy too: Chrome bypasses proxies for
    # localhost/127.0.0.1/[::1] unless told "<-loopback>".
    "--proxy-bypass-list=<-loopback>",
    # No HTTP/3 (QUIC over UDP, which no HTTP proxy carries) for page requests.
    # WebTransport ignores it; the proxy is what stops WebTransport.
    "--disable-quic",
    # Chromium 156 ignores this switch (STUN still leaves without the prefs
    # below); kept for the builds that read it.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    # No DNS prefetch from Chrome's predictor (lookups only, never a connection).
    "--dns-prefetch-disable",
)
#: Profile preferences (ChromeOptions ``prefs``), inherited by every browser
#: context created over CDP:
#: - WebRTC may use proxied transports only: STUN and TURN over UDP never
#:   leave, TURN over TCP goes through the egress proxy and is filtered;
#: - network prediction "never" (2): no speculation-rules prefetch or
#:   prerender, no preconnect.  ``--disable-features`` names
#:   (Prerender2, SpeculationRulesPrefetchFuture, ...) did not stop them.
CONTAINMENT_PREFS = {"webrtc": {"ip_handling_policy": "disable_non_proxied_udp",
                                "multiple_routes_enabled": False, "nonproxied_udp_enabled": False},
                     "net": {"network_prediction_options": 2}}


def egress_mode(settings: Settings) -> str:
    """"owned" (tagcrawl starts its proxy), "shared" (``TAGCRAWL_EGRESS_PROXY_URL``)
    or "off" (``TAGCRAWL_EGRESS_PROXY_URL=off``: no proxy; unsafe, for benches)."""
    url = (settings.egress_proxy_url or "").strip()
    return "owned" if not url else "off" if url.lower() == "off" else "shared"


def policy_for(settings: Settings) -> EgressPolicy:
    """The policy of ``settings``: its Chrome host-resolver rules and ``allow_private_targets``."""
    return EgressPolicy(split_rules(settings.chrome_args).rules, settings.allow_private_targets)


def owned_egress(settings: Settings):
    """This process's EgressServer for ``settings`` (started on first use)."""
    return get_egress(policy_for(settings), settings.egress_listen, settings.egress_host, Limits.of(settings))


def chrome_args(settings: Settings, args) -> list[str]:
    """The final switch list for a crawl browser.

    Args:
        settings: ``egress_proxy_url``, ``chrome_args``, ...
        args: base switches followed by ``TAGCRAWL_CHROME_ARGS``.
    Returns:
        ``args`` with the containment switches added; unless the egress proxy is off, ``--proxy-server``
        points at it and ``--host-resolver-rules`` is taken out (the proxy
        applies the rules; left in Chrome, ``MAP *`` would also remap the
        proxy's own address).
    """
    mode = egress_mode(settings)
    args = list(args)
    if mode == "owned":
        args = split_rules(args).others + [f"--proxy-server={owned_egress(settings).proxy_url(None)}"]
    elif mode == "shared":
        args = split_rules(args).others + [f"--proxy-server={settings.egress_proxy_url}"]
    return [a for a in args if not a.startswith("--proxy-bypass-list=")] + list(CONTAINMENT_SWITCHES)


def context_proxy(settings: Settings, upstream: str | None) -> str | None:
    """``proxyServer`` for one crawl's browser context.

    Args:
        upstream: the crawl's country proxy (``emulation.proxy_for``) or None.
    Returns:
        The owned proxy's route to ``upstream``; the shared proxy (which does
        its own chaining, so ``upstream`` is not used); ``upstream`` itself
        when the egress proxy is off.
    """
    mode = egress_mode(settings)
    if mode == "owned":
        return owned_egress(settings).proxy_url(upstream)
    if mode == "shared":
        return settings.egress_proxy_url
    return upstream
