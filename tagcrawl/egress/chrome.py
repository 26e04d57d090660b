"""Chrome's side of containment: switches that close the doors a proxy cannot
watch, and the wiring of Chrome to the egress proxy.

Each switch and the attack it stops is listed in docs/security.md.
"""
from __future__ import annotations

from .policy import EgressPolicy
from .rules import split_rules
from .server import get_egress

#: Doors closed in Chrome itself, whatever the proxy does.
CONTAINMENT_SWITCHES = (
    # HTTP/3 and WebTransport run over QUIC (UDP), which no HTTP proxy carries.
    "--disable-quic",
    # WebRTC: no UDP that does not go through the proxy (no STUN/TURN-UDP, no
    # host candidates); TURN over TCP goes through the proxy and is filtered.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--enforce-webrtc-ip-permission-check",
    # Loopback goes through the proxy too: Chrome bypasses proxies for
    # localhost/127.0.0.1/[::1] unless told "<-loopback>".
    "--proxy-bypass-list=<-loopback>",
    # No DNS prefetch / preconnect from Chrome's predictor.
    "--dns-prefetch-disable",
)
#: Features turned off: speculation rules (prefetch and prerender, with their
#: activation), NoState prefetch (<link rel=prerender>), the private prefetch proxy.
CONTAINMENT_FEATURES = ("SpeculationRules", "Prerender2", "PrefetchUseContentRefactor", "NoStatePrefetch",
                        "PrefetchProxy", "SpeculationRulesPrefetchFuture")
#: Blink features turned off: the ``<script type=speculationrules>`` parser itself.
CONTAINMENT_BLINK_FEATURES = ("SpeculationRules",)


def _merge_list_switch(args: list[str], switch: str, extra: tuple[str, ...]) -> list[str]:
    """One ``switch=a,b,c`` from every occurrence plus ``extra``: Chrome reads
    only the last occurrence of a switch, so several would drop all but one."""
    values: list[str] = []
    rest = []
    for arg in args:
        if arg.startswith(switch + "="):
            values += [v for v in arg[len(switch) + 1:].split(",") if v]
        else:
            rest.append(arg)
    values += extra
    return rest + [f"{switch}={','.join(dict.fromkeys(values))}"]


def egress_mode(config: dict) -> str:
    """"owned" (tagcrawl starts its proxy), "shared" (``TAGCRAWL_EGRESS_PROXY_URL``)
    or "off" (``TAGCRAWL_EGRESS_PROXY_URL=off``: no proxy; unsafe, for benches)."""
    url = (config.get("EGRESS_PROXY_URL") or "").strip()
    return "owned" if not url else "off" if url.lower() == "off" else "shared"


def policy_for(config: dict) -> EgressPolicy:
    """The policy of ``config``: its Chrome host-resolver rules and ALLOW_PRIVATE_TARGETS."""
    return EgressPolicy(split_rules(config.get("CHROME_ARGS", ())).rules,
                        bool(config.get("ALLOW_PRIVATE_TARGETS", False)))


def owned_egress(config: dict):
    """This process's EgressServer for ``config`` (started on first use)."""
    return get_egress(policy_for(config), config.get("EGRESS_LISTEN") or "127.0.0.1",
                      config.get("EGRESS_HOST") or None)


def chrome_args(config: dict, args) -> list[str]:
    """The final switch list for a crawl browser.

    Args:
        config: settings (``EGRESS_PROXY_URL``, ``CHROME_ARGS``, ...).
        args: base switches followed by ``TAGCRAWL_CHROME_ARGS``.
    Returns:
        ``args`` with the containment switches added and ``--disable-features``
        merged into one; unless the egress proxy is off, ``--proxy-server``
        points at it and ``--host-resolver-rules`` is taken out (the proxy
        applies the rules; left in Chrome, ``MAP *`` would also remap the
        proxy's own address).
    """
    mode = egress_mode(config)
    args = list(args)
    if mode == "owned":
        args = split_rules(args).others + [f"--proxy-server={owned_egress(config).proxy_url(None)}"]
    elif mode == "shared":
        args = split_rules(args).others + [f"--proxy-server={config['EGRESS_PROXY_URL']}"]
    args = [a for a in args if not a.startswith("--proxy-bypass-list=")] + list(CONTAINMENT_SWITCHES)
    args = _merge_list_switch(args, "--disable-features", CONTAINMENT_FEATURES)
    return _merge_list_switch(args, "--disable-blink-features", CONTAINMENT_BLINK_FEATURES)


def context_proxy(config: dict, upstream: str | None) -> str | None:
    """``proxyServer`` for one crawl's browser context.

    Args:
        upstream: the crawl's country proxy (``emulation.proxy_for``) or None.
    Returns:
        The owned proxy's route to ``upstream``; the shared proxy (which does
        its own chaining, so ``upstream`` is not used); ``upstream`` itself
        when the egress proxy is off.
    """
    mode = egress_mode(config)
    if mode == "owned":
        return owned_egress(config).proxy_url(upstream)
    if mode == "shared":
        return config["EGRESS_PROXY_URL"]
    return upstream
