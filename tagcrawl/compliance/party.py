"""First or third party, by registrable domain (public suffix list).

Uses tldextract's bundled public-suffix snapshot (no network), like
``stream.origins.registrable_domain``; kept separate so that ``compliance``
and ``stream`` (whose ``normalize`` decodes TC strings here) never import each
other.
"""
from __future__ import annotations

from functools import lru_cache

import tldextract

EXTRACT = tldextract.TLDExtract(suffix_list_urls=())


@lru_cache(maxsize=4096)
def registrable_domain(host: str) -> str:
    """``a.b.example.co.uk`` -> ``example.co.uk``; hosts under no public suffix
    (``shop.example``) give their last two labels; IP addresses and single
    labels are returned as they are.  A leading dot (cookie domains) is ignored."""
    host = (host or "").strip().lstrip(".").lower()
    if not host:
        return host
    parts = EXTRACT(host)
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    if parts.suffix or host.replace(".", "").isdigit() or ":" in host or "." not in host:
        return host
    return ".".join(host.rsplit(".", 2)[-2:])


def party(cookie_domain: str, page_host: str) -> str:
    """"first" when the cookie's registrable domain is the page's, else "third"."""
    site = registrable_domain(page_host)
    return "first" if site and registrable_domain(cookie_domain) == site else "third"
