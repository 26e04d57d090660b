"""Whitelist patterns and request origins of the stream (no database).

A pattern is a host name, ``example.com`` (that host only), or a wildcard,
``*.example.com`` (any subdomain of example.com, at any depth, but not
example.com itself).  Hosts and patterns are canonical (``hosts.canonical_host``:
UTS #46, A-labels, lower-case, no trailing dot).  Scheme and port of an
origin are not part of the check.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from tagcrawl.core.hosts import canonical_host
from tagcrawl.core.registrable import EXTRACT, registrable_domain  # noqa: F401 (registrable_domain: public here)

_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")


def normalize_host(host: str) -> str:
    """``hosts.canonical_host`` of ``host`` (surrounding spaces dropped), "" when invalid."""
    try:
        return canonical_host((host or "").strip())
    except ValueError:
        return ""


def normalize_pattern(pattern: str) -> str:
    """Validate and normalize a whitelist pattern.

    Args:
        pattern: ``example.com``, ``*.example.com`` (a URL is accepted and
            reduced to its host).
    Returns:
        the normalized pattern.
    Raises:
        ValueError: not a host name, or a wildcard over a public suffix
            (``*.co.uk``) or a bare ``*``.
    """
    raw = (pattern or "").strip()
    if "://" in raw:
        raw = urlsplit(raw).hostname or ""
    wildcard = raw.startswith("*.")
    host = normalize_host(raw[2:] if wildcard else raw)
    if not host or len(host) > 253 or not all(_LABEL.match(label) for label in host.split(".")):
        raise ValueError(f"{pattern!r} is not a host name or *.host pattern")
    if wildcard:
        parts = EXTRACT(host)
        if not parts.domain:
            raise ValueError(f"{pattern!r} would whitelist a whole public suffix")
    return ("*." if wildcard else "") + host


def host_allowed(host: str, patterns) -> bool:
    """True when ``host`` (normalized) matches one of ``patterns``.

    ``example.com`` matches only example.com; ``*.example.com`` matches
    a.example.com and a.b.example.com but not example.com.
    """
    if not host:
        return False
    for pattern in patterns:
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]):
                return True
        elif host == pattern:
            return True
    return False


def request_origin(origin: str | None, referer: str | None) -> tuple[str, str] | None:
    """The request's origin: the ``Origin`` header, else the Referer's origin.

    Args:
        origin: the ``Origin`` header (``"null"`` counts as missing).
        referer: the ``Referer`` header.
    Returns:
        ``(origin, host)``, e.g. ``("https://shop.example", "shop.example")``,
        or None when neither gives an http(s) origin.
    """
    found = _parse_origin(origin.strip(), False) if origin else None
    if found is None and referer:
        found = _parse_origin(referer.strip(), True)
    return found


@lru_cache(maxsize=4096)
def _parse_origin(value: str, from_referer: bool) -> tuple[str, str] | None:
    if not value or value == "null":
        return None
    try:
        parts = urlsplit(value)
        host = normalize_host(parts.hostname or "")
        parts.port  # noqa: B018  (raises ValueError for a malformed port)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    if from_referer:
        value = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
    return value, host
