"""First or third party, by registrable domain (public suffix list).

The lookup is ``registrable.registrable_domain`` (shared with
``stream.origins``); here it also takes cookie domains (a leading dot) and
unnormalized hosts.  ``compliance`` and ``stream`` never import each other.
"""
from __future__ import annotations

from tagcrawl.core import registrable


def registrable_domain(host: str) -> str:
    """``a.b.example.co.uk`` -> ``example.co.uk``; hosts under no public suffix
    (``shop.example``) give their last two labels; IP addresses and single
    labels are returned as they are.  A leading dot (cookie domains),
    surrounding spaces and case are ignored."""
    return registrable.registrable_domain((host or "").strip().lstrip(".").lower())


def party(cookie_domain: str, page_host: str) -> str:
    """"first" when the cookie's registrable domain is the page's, else "third"."""
    site = registrable_domain(page_host)
    return "first" if site and registrable_domain(cookie_domain) == site else "third"
