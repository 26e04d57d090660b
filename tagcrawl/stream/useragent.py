"""What the stored record keeps about the browser: UA families and an IP prefix.

- ``client_ip(environ, trusted)``: the client address that werkzeug's
  ``ProxyFix(x_for=trusted)`` gives the app (``create_app`` installs it for
  ``TRUSTED_PROXIES``; requests then read ``request.remote_addr``).
- ``ip_prefix(addr)``: the address cut to its /24 (IPv4) or /48 (IPv6)
  network; the full address is never stored.
- ``browser_info(user_agent)``: ua-parser's families and versions, and
  ``is_bot``, memoized per User-Agent string.
"""
from __future__ import annotations

import ipaddress
import re
from collections import namedtuple
from functools import lru_cache

import ua_parser
from werkzeug.middleware.proxy_fix import ProxyFix

UA_MAX = 512
IPV4_PREFIX = 24
IPV6_PREFIX = 48

#: Browser metadata of one User-Agent.  Strings are cut to the column sizes
#: (families 64, versions 32 characters); missing parts are None.
BrowserInfo = namedtuple("BrowserInfo", "browser_family browser_version os_family os_version device_family is_bot")

_BOT_RE = re.compile(r"bot\b|bot/|crawl|spider|slurp|headlesschrome|lighthouse|phantomjs", re.IGNORECASE)


def client_ip(environ: dict, trusted: int) -> str | None:
    """The client address of a request.

    Args:
        environ: the WSGI environ.
        trusted: how many proxies in front of the app append to
            ``X-Forwarded-For`` (``TRUSTED_PROXIES``); 0 ignores the header.
    Returns:
        the address as a string, or None.
    """
    if trusted <= 0:
        return environ.get("REMOTE_ADDR")
    seen: dict = {}
    ProxyFix(lambda env, start_response: seen.update(env) or [], x_for=trusted)(dict(environ), None)
    return seen.get("REMOTE_ADDR")


@lru_cache(maxsize=4096)
def ip_prefix(addr: str | None) -> str | None:
    """``"203.0.113.77"`` -> ``"203.0.113.0/24"``; ``"2001:db8:1:2::1"`` ->
    ``"2001:db8:1::/48"``; IPv4-mapped IPv6 counts as IPv4; None if invalid
    (memoized: a client sends many events)."""
    if not addr:
        return None
    text = addr.strip()
    if text.startswith("[") and "]" in text:  # "[v6]:port"
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # "v4:port"
        text = text.split(":", 1)[0]
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = IPV4_PREFIX if ip.version == 4 else IPV6_PREFIX
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def _version(*parts) -> str | None:
    parts = [p for p in parts if p]
    return ".".join(parts)[:32] if parts else None


def _cut(value: str | None, size: int = 64) -> str | None:
    return value[:size] if value else None


@lru_cache(maxsize=4096)
def browser_info(user_agent: str | None) -> BrowserInfo:
    """Parse a User-Agent header with ua-parser (memoized).

    Returns:
        BrowserInfo; ``is_bot`` is true for ua-parser's "Spider" devices and
        for crawler / headless-browser signatures.
    """
    if not user_agent:
        return BrowserInfo(None, None, None, None, None, False)
    result = ua_parser.parse(user_agent[:UA_MAX])
    agent, os_, device = result.user_agent, result.os, result.device
    device_family = device.family if device else None
    is_bot = device_family == "Spider" or bool(_BOT_RE.search(user_agent))
    return BrowserInfo(
        _cut(agent.family) if agent else "Other",
        _version(agent.major, agent.minor, agent.patch) if agent else None,
        _cut(os_.family) if os_ else "Other",
        _version(os_.major, os_.minor, os_.patch, os_.patch_minor) if os_ else None,
        _cut(device_family) or "Other",
        is_bot,
    )
