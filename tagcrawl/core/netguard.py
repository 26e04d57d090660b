"""SSRF guard: refuse crawl and webhook targets on internal networks.

A URL is refused when it is not http(s), or when its host is, or resolves
to, a loopback, private (RFC 1918 / ULA), link-local, CGNAT (100.64/10),
unspecified, multicast or reserved address, or a cloud metadata name.  The
crawler checks the URL before navigating and again for every request the page
makes (redirects included) through the Fetch domain.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import threading
from urllib.parse import urlsplit

from cachetools import TTLCache, cached

from tagcrawl.core.hosts import canonical_host  # noqa: F401  (re-exported: the guard's reading of a host)

#: How long a host's addresses are remembered, seconds.
RESOLVE_TTL_S = 60
CGNAT = ipaddress.ip_network("100.64.0.0/10")
METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data", "metadata.azure.internal"}
METADATA_ADDRESSES = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254"),
                      ipaddress.ip_address("100.100.100.200")}
NAT64 = ipaddress.ip_network("64:ff9b::/96")
#: What browsers strip from a URL before parsing it (WHATWG URL standard).
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_TAB_NEWLINE = re.compile(r"[\t\n\r]")


class UnresolvableHost(Exception):
    """The host name does not resolve (DNS failure)."""


def address_reason(address: ipaddress._BaseAddress) -> str | None:
    """Why ``address`` is internal ("loopback", "private", ...), or None.

    An IPv6 address that carries an IPv4 one (IPv4-mapped ``::ffff:a.b.c.d``,
    6to4 ``2002::/16``, NAT64 ``64:ff9b::/96``) is judged by that IPv4 address.
    """
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour or (
            ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) if address in NAT64 else None)
        if embedded is not None:
            address = embedded
    if address in METADATA_ADDRESSES:
        return "cloud metadata"
    checks = (("loopback", address.is_loopback), ("link-local", address.is_link_local),
              ("unspecified", address.is_unspecified), ("multicast", address.is_multicast),
              ("CGNAT", isinstance(address, ipaddress.IPv4Address) and address in CGNAT),
              ("private", address.is_private), ("reserved", address.is_reserved))
    return next((name for name, hit in checks if hit), None)


@cached(TTLCache(maxsize=4096, ttl=RESOLVE_TTL_S), lock=threading.Lock())
def _resolve(host: str) -> tuple[str, ...]:
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnresolvableHost(host) from exc
    return tuple(sorted({info[4][0] for info in infos}))


def scheme_and_host(url: str) -> tuple[str, str]:
    """Scheme and canonical host of ``url`` read the way Chrome reads it:
    leading/trailing controls and spaces and every tab/newline dropped, "\\"
    taken as "/" in http(s) URLs.  The host is "" for other schemes.

    Raises:
        ValueError: a malformed URL or host.
    """
    url = _TAB_NEWLINE.sub("", url.strip(_C0_AND_SPACE))
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return parts.scheme, ""
    if "\\" in url:
        parts = urlsplit(url.replace("\\", "/"))
    return parts.scheme, canonical_host(parts.hostname or "")


def resolve(host: str) -> tuple[str, ...]:
    """Addresses of ``host`` (cached ``RESOLVE_TTL_S`` seconds).  Raises UnresolvableHost (not cached)."""
    return _resolve(host)


def name_reason(host: str) -> str | None:
    """Why the host *name* alone is internal (a cloud metadata or ``.internal``
    name, ``localhost``), as a refusal message; None otherwise.  ``host`` is
    canonical (lower case, no trailing dot).  Shared by this guard and the
    egress proxy (``engine/egress/policy.py``)."""
    if host in METADATA_HOSTS or host.endswith(".internal"):
        return f"host {host} is a cloud metadata/internal name"
    if host == "localhost" or host.endswith(".localhost"):
        return f"host {host} is loopback"
    return None


def url_refusal(url: str, allow_private: bool = False, require_resolvable: bool = False) -> str | None:
    """Return why ``url`` must not be fetched, or None when it may be.

    Args:
        url: absolute URL.
        allow_private: ``TAGCRAWL_ALLOW_PRIVATE_TARGETS``; skips the address checks.
        require_resolvable: refuse a host name that does not resolve (webhook
            URLs: ``keys create --webhook-url``, ``keys set-webhook``), even
            with ``allow_private``.
    Returns:
        A human-readable reason ("host 10.0.0.5 is a private address",
        "host x.example does not resolve"), or None.  Without
        ``require_resolvable`` a host that does not resolve is not refused: the
        browser will fail to load it as well, and report that.
    """
    try:
        scheme, host = scheme_and_host(url)
    except ValueError:
        return "malformed URL"
    if scheme not in ("http", "https"):
        return f"scheme {scheme or '(none)'!r} is not http(s)"
    if not host:
        return "URL has no host"
    reason = None if allow_private else name_reason(host)
    if reason:
        return reason
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        if allow_private and not require_resolvable:
            return None
        try:
            addresses = [ipaddress.ip_address(a.split("%")[0]) for a in resolve(host)]
        except UnresolvableHost:
            return f"host {host} does not resolve" if require_resolvable else None
    if allow_private:
        return None
    for address in addresses:
        reason = address_reason(address)
        if reason:
            return f"host {host} is a {reason} address ({address})" if str(address) != host \
                else f"host {host} is a {reason} address"
    return None
