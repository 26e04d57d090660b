"""Hosts of a crawl's requests: split once, first or third party, and Chrome's own traffic.

A request is **third party** when its host's registrable domain
(``core.registrable``, the public suffix list) differs from the crawled
page's and third-party-web does not put both in the same entity (a site's own
CDN, ``fbcdn.net`` for ``facebook.com``).  **Chrome's own** requests (updates,
Safe Browsing, field trials, sign-in, GCM) are never the page's: they are
left out of the attribution and are never pixels.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from tagcrawl.core.registrable import registrable_domain
from tagcrawl.engine.parties.entities import HOST_MAX, EntityIndex

#: Hosts (and their sub-domains) that only Chrome itself contacts.
CHROME_HOSTS = ("gvt1.com", "gvt2.com", "update.googleapis.com", "clients1.google.com", "clients2.google.com",
                "clients4.google.com", "safebrowsing.googleapis.com", "safebrowsing.google.com",
                "optimizationguide-pa.googleapis.com", "content-autofill.googleapis.com", "accounts.google.com",
                "clientservices.googleapis.com", "android.clients.google.com", "chromesyncpasswords-pa.googleapis.com",
                "mtalk.google.com")
_CHROME = CHROME_HOSTS


def host_of(url: object) -> str:
    """Lower-case host of an http(s) URL (at most ``HOST_MAX`` characters), ``""`` otherwise."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return ""
    try:
        return (urlsplit(url[:HOST_MAX + 16 + 8192]).hostname or "")[:HOST_MAX]
    except ValueError:
        return ""


def chrome_own(host: str, frame_url: object) -> bool:
    """True for Chrome's own background traffic: a Chrome service host, or a
    request no http(s) document or worker sent (``frame_url`` missing, ``chrome://``)."""
    if not isinstance(frame_url, str) or not frame_url.startswith(("http://", "https://")):
        return True
    return any(host == h or host.endswith("." + h) for h in _CHROME)


class Party:
    """First/third-party decisions against one crawled page, with the entity index.

    Args:
        page_url: the crawled URL.
        index: the loaded third-party-web index (may be empty).
    """

    def __init__(self, page_url: str, index: EntityIndex):
        self.index = index
        self.page_host = host_of(page_url)
        self.page_site = registrable_domain(self.page_host)
        self.page_entity = index.lookup(self.page_host)

    def third(self, host: str) -> bool:
        """``host`` is a third party of the page (module docstring)."""
        if not host or registrable_domain(host) == self.page_site:
            return False
        return self.page_entity is None or self.index.lookup(host) != self.page_entity
