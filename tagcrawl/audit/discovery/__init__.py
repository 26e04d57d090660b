"""Site-audit discovery (docs/audits.md "Discovery"), one concern per module:

- ``types``: ``Found``, ``Excluded``, ``Problem``, ``FetchResult``, the ``Fetcher`` protocol, ``Limits``;
- ``normalize``: URL normalization (w3lib), session parameters, ``rel=canonical``;
- ``scope``: registrable domains, include/exclude globs, the SSRF guard;
- ``robots``: robots.txt per origin (protego);
- ``sitemaps``: sitemap indexes, gzip and text sitemaps (defusedxml), bounded;
- ``fetcher``: ``ProxyFetcher``, the service's own GETs through the egress proxy;
- ``discovery``: ``Discovery`` (seed, links, admit).
"""
from __future__ import annotations

from tagcrawl.audit.discovery.discovery import Discovery
from tagcrawl.audit.discovery.types import Excluded, FetchResult, Fetcher, Found, Limits, Problem

__all__ = ["Discovery", "Excluded", "FetchResult", "Fetcher", "Found", "Limits", "Problem"]
