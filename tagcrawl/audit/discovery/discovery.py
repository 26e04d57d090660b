"""``Discovery``: the URLs of one audit, from its start URLs, its sitemaps and
the links of its crawled pages (docs/audits.md "Discovery").

One ``Discovery`` per audit run (the runner keeps it for the run; a runner
that restarts builds a new one and relies on the queue's unique
``(audit_id, url, scenario)`` for what was found before).  It is pure logic
over bounded fetches (``Fetcher``): no database, no browser.
"""
from __future__ import annotations

from tagcrawl.audit.discovery.normalize import canonical_for, normalize_url
from tagcrawl.audit.discovery.robots import RobotsCache, origin_of
from tagcrawl.audit.discovery.scope import Scope
from tagcrawl.audit.discovery.sitemaps import SitemapWalker
from tagcrawl.audit.discovery.types import Excluded, Fetcher, Found, Limits, Problem


class Discovery:
    """Args:
        config: the audit's ``AuditConfig`` (read: ``start_urls``, ``sitemaps``
            (None: found from robots.txt ``Sitemap:`` lines, else
            ``/sitemap.xml`` of each start origin), ``include``, ``exclude``,
            ``max_pages``, ``max_depth``, ``respect_robots``).
        settings: ``Settings`` (``allow_private_targets``).
        fetcher: the service's own fetches (``fetcher.ProxyFetcher``).
        limits: the bounds (``types.Limits``).
    Attributes:
        seen: normalized URLs already answered (``Found`` or ``Excluded``);
            at most ``max_pages + limits.excluded`` entries.
        found: ``Found`` answers given; past ``max_pages`` URLs are ``Excluded("limit")``.
        dropped: ``Excluded`` entries not reported (past ``limits.excluded``).
        problems: robots.txt and sitemaps that could not be read (``Problem``).
    """

    def __init__(self, config, settings, fetcher: Fetcher, limits: Limits | None = None):
        self.config = config
        self.limits = limits or Limits()
        self.fetcher = fetcher
        self.max_pages = int(getattr(config, "max_pages", 500))
        self.max_depth = int(getattr(config, "max_depth", 3))
        self.respect_robots = bool(getattr(config, "respect_robots", True))
        starts = [normalize_url(u, max_chars=self.limits.url_chars) for u in config.start_urls]
        self.starts = [u for u in dict.fromkeys(starts) if u]
        self.scope = Scope(self.starts, getattr(config, "include", ()), getattr(config, "exclude", ()),
                           bool(getattr(settings, "allow_private_targets", False)))
        self.robots = RobotsCache(fetcher, self.limits)
        self.walker = SitemapWalker(fetcher, self.limits, self.scope.ssrf)
        self.seen: set[str] = set()
        self.found = 0
        self.reported_excluded = 0
        self.dropped = 0
        self.sitemaps_cut = False

    @property
    def problems(self) -> list[Problem]:
        """robots.txt and sitemap problems, robots first (at most ``2 * limits.problems``)."""
        return self.robots.problems[: self.limits.problems] + self.walker.problems

    def admit(self, url: str, depth: int = 0, source: str = "start") -> Found | Excluded:
        """Judge one URL, without dedup or the page limit: normalize, then the
        scope (SSRF guard, registrable domain, exclude, include), then
        robots.txt (with ``respect_robots``; fetched once per origin).

        Returns:
            ``Found(url, depth, source)`` or ``Excluded(url, reason, source)``; a URL
            that is no http(s) URL is ``Excluded(<as given, cut>, "offsite", source)``.
        """
        normalized = normalize_url(url, max_chars=self.limits.url_chars)
        if normalized is None:
            return Excluded(str(url)[: self.limits.url_chars], "offsite", source)
        reason = self.scope.reason(normalized)
        if reason is None and self.respect_robots and not self.robots.allows(normalized):
            reason = "robots"
        return Excluded(normalized, reason, source) if reason else Found(normalized, depth, source)

    def _take(self, url: str, depth: int, source: str, out: list) -> None:
        """Admit ``url`` and append its answer to ``out`` unless already seen
        (dedup), applying ``max_depth`` and ``max_pages``."""
        normalized = normalize_url(url, max_chars=self.limits.url_chars)
        if normalized is None or normalized in self.seen:
            return
        item = self.admit(normalized, depth, source)
        if isinstance(item, Found) and depth > self.max_depth:
            item = Excluded(item.url, "depth", source)
        if isinstance(item, Found) and self.found >= self.max_pages:
            item = Excluded(item.url, "limit", source)
        if isinstance(item, Excluded):
            if self.reported_excluded >= self.limits.excluded:
                self.dropped += 1
                return
            self.reported_excluded += 1
        else:
            self.found += 1
        self.seen.add(normalized)
        out.append(item)

    def _full(self) -> bool:
        return self.found >= self.max_pages and self.reported_excluded >= self.limits.excluded

    def sitemap_roots(self) -> list[str]:
        """The sitemaps to read: ``config.sitemaps``, else every start origin's
        robots.txt ``Sitemap:`` lines, else its ``/sitemap.xml``."""
        given = getattr(self.config, "sitemaps", None)
        if given is not None:
            return list(given)[: self.limits.sitemaps]
        roots: list[str] = []
        for origin in dict.fromkeys(origin_of(u) for u in self.starts):
            lines = self.robots.for_url(origin + "/").sitemaps
            roots += lines or [origin + "/sitemap.xml"]
        return list(dict.fromkeys(roots))[: self.limits.sitemaps]

    def seed(self) -> list[Found | Excluded]:
        """The start URLs (depth 0, source ``start``) then every sitemap page
        URL (depth 0, source ``sitemap``), deduplicated, in order.  Sitemaps
        stop being read once ``max_pages`` are found and ``limits.excluded``
        exclusions reported (``sitemaps_cut`` True)."""
        out: list[Found | Excluded] = []
        for url in self.starts:
            self._take(url, 0, "start", out)
        for loc in self.walker.pages(self.sitemap_roots()):
            if self._full():
                self.sitemaps_cut = True
                break
            self._take(loc, 0, "sitemap", out)
        return out

    def links(self, page_url: str, depth: int, hrefs: list[str], canonical: str | None = None) -> list[Found | Excluded]:
        """The links of a crawled page, as new pages one click deeper.

        Args:
            page_url: the page's URL (its final URL after redirects, to resolve against).
            depth: the page's depth (its links get ``depth + 1``; past
                ``max_depth`` they are ``Excluded("depth")``).
            hrefs: the page's ``<a href>`` URLs (the crawl's ``links``); at most
                ``limits.links`` are read.
            canonical: the page's ``<link rel=canonical>`` (the crawl's
                ``canonical``): honoured within the registrable domain only
                (``normalize.canonical_for``): the canonical URL counts as seen
                (the page already covers it), so it is not crawled again.
        Returns:
            The new answers (URLs seen before are left out), in href order.
        """
        out: list[Found | Excluded] = []
        base = normalize_url(page_url, max_chars=self.limits.url_chars)
        if base is None:
            return out
        self.seen.add(base)
        target = canonical_for(base, canonical)
        if target and target not in self.seen and len(self.seen) < self.max_pages + self.limits.excluded:
            self.seen.add(target)
        for href in list(hrefs or [])[: self.limits.links]:
            if isinstance(href, str) and not self._full():
                self._take(normalize_url(href, base=base, max_chars=self.limits.url_chars) or "", depth + 1,
                           "link", out)
        return out
