"""Registrable domains (core): one public-suffix lookup shared by the stream
(``stream.origins``: event domains, whitelist wildcards) and the compliance
report (``compliance.party``: first/third-party cookies).

Uses tldextract's bundled public-suffix snapshot (no network).
"""
from __future__ import annotations

from functools import lru_cache

import tldextract

#: Offline public-suffix data (the snapshot bundled with tldextract; no network).
EXTRACT = tldextract.TLDExtract(suffix_list_urls=())


@lru_cache(maxsize=4096)
def registrable_domain(host: str) -> str:
    """The registrable domain of ``host``: ``a.b.example.co.uk`` -> ``example.co.uk``.

    ``host`` is taken as given (callers normalize it).  Hosts under no public
    suffix (reserved names such as ``shop.example`` or ``app.localhost``) give
    their last two labels; IP addresses and single labels are returned as they
    are; ``""`` gives ``""``.
    """
    if not host:
        return host
    parts = EXTRACT(host)
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    if parts.suffix or host.replace(".", "").isdigit() or ":" in host or "." not in host:
        return host
    return ".".join(host.rsplit(".", 2)[-2:])
