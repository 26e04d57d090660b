"""The shapes of discovery (docs/audits.md "Discovery"): what it finds, what it
leaves out and why, what a fetch returns, and the bounds of its work.

``Found`` and ``Excluded`` are the seam with the audit's queue
(``audit/pages.add_pages``): a ``Found`` becomes a queued page per scenario,
an ``Excluded`` an ``excluded`` page whose ``reason`` is one of
:data:`REASONS`.  ``Problem`` is a sitemap or robots.txt that could not be
read (kept in ``Discovery.problems`` for the report; never a crash).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

#: Why a discovered URL is not crawled (``AuditPage.reason``).
REASONS = ("robots", "include", "exclude", "offsite", "ssrf", "limit", "depth")
#: Where a found URL came from (``AuditPage.source``).
SOURCES = ("start", "sitemap", "link")


@dataclass(frozen=True)
class Found:
    """A URL to crawl: ``url`` normalized (``normalize.normalize_url``), ``depth``
    0 for start and sitemap URLs, n for a link n clicks from one; ``source`` in
    :data:`SOURCES`."""

    url: str
    depth: int
    source: str


@dataclass(frozen=True)
class Excluded:
    """A discovered URL not crawled; ``reason`` in :data:`REASONS`, ``url``
    normalized when it could be (else as found, cut at ``Limits.url_chars``);
    ``source`` in :data:`SOURCES`, where it was found (stored as the excluded
    row's ``AuditPage.source``; not part of equality: one exclusion is its URL
    and reason)."""

    url: str
    reason: str
    source: str = field(default="link", compare=False)


@dataclass(frozen=True)
class Problem:
    """A robots.txt or sitemap that could not be used: ``url`` and a sentence
    (``"sitemap larger than 16777216 bytes decompressed"``, ``"malformed XML:
    ..."``, ``"HTTP 404"``)."""

    url: str
    error: str


@dataclass(frozen=True)
class FetchResult:
    """One fetch: ``status`` the last HTTP status (None when no answer),
    ``url`` the final URL after redirects, ``body`` at most the asked
    ``max_bytes`` (``truncated`` True when the resource was longer),
    ``headers`` lower-cased names, ``error`` a sentence when the fetch failed
    (network, TLS, timeout, too many redirects, refused by the egress proxy)."""

    status: int | None
    url: str
    body: bytes = b""
    headers: dict = field(default_factory=dict)
    truncated: bool = False
    error: str | None = None


@runtime_checkable
class Fetcher(Protocol):
    """The service's own GETs (robots.txt, sitemaps): ``fetcher.ProxyFetcher``
    sends them through the egress proxy."""

    def get(self, url: str, max_bytes: int) -> FetchResult:
        """GET ``url``; read at most ``max_bytes`` bytes of (decoded) body.
        Never raises for network or HTTP errors: ``FetchResult.error``."""


@dataclass(frozen=True)
class Limits:
    """Bounds of one ``Discovery`` (each enforced before the work it bounds).

    Attributes:
        sitemap_bytes: bytes of one sitemap, after gzip decompression too
            (sitemaps.org allows 50 MB; 16 MiB here).
        sitemaps: sitemap documents fetched per audit (indexes included).
        sitemap_urls: ``<loc>`` entries read per sitemap (sitemaps.org: 50,000).
        index_depth: nesting of sitemap indexes (0: the roots only).
        robots_bytes: bytes of robots.txt read (RFC 9309 asks for at least 500 KiB).
        robots_hosts: robots.txt files fetched per audit (one per host).
        url_chars: longest URL kept (longer ones are skipped).
        links: hrefs read per crawled page (the collector caps at the same number).
        excluded: ``Excluded`` entries reported per audit; past it they are counted
            in ``Discovery.dropped`` only.
        problems: ``Problem`` entries kept per audit.
        hosts: distinct hosts remembered for robots rules.
    """

    sitemap_bytes: int = 16 * 1024 * 1024
    sitemaps: int = 50
    sitemap_urls: int = 50_000
    index_depth: int = 3
    robots_bytes: int = 512 * 1024
    robots_hosts: int = 32
    url_chars: int = 2048
    links: int = 1000
    excluded: int = 2000
    problems: int = 100
