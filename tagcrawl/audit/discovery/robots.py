"""robots.txt of the audited hosts, parsed by protego (Scrapy's robots.txt
parser: Google's matching rules, ``Allow``/``Disallow`` with ``*`` and ``$``,
``Sitemap:`` lines).

RFC 9309 section 2.3.1 on fetching: a robots.txt answered 4xx (absent) allows
everything; one that cannot be fetched (5xx, network error, timeout) counts
as complete disallow for that host.  At most ``Limits.robots_bytes`` bytes are
read (the RFC asks parsers to read at least 500 KiB) and the file is decoded
as UTF-8 with replacement.  The user agent matched is :data:`USER_AGENT`
(groups for ``*`` apply as well).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from protego import Protego

from tagcrawl.audit.discovery.types import FetchResult, Fetcher, Limits, Problem

#: The product token matched against ``User-agent:`` lines.
USER_AGENT = "tagcrawl"


@dataclass
class HostRobots:
    """One host's rules: ``parser`` None means allow all (no file);
    ``disallow_all`` True when the file could not be fetched (RFC 9309)."""

    parser: Protego | None = None
    disallow_all: bool = False
    sitemaps: list[str] = field(default_factory=list)

    def allows(self, url: str) -> bool:
        """True when ``url`` may be crawled under these rules."""
        if self.disallow_all:
            return False
        return True if self.parser is None else bool(self.parser.can_fetch(url, USER_AGENT))


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` (robots.txt is per origin)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def parse_robots(result: FetchResult, limits: Limits) -> tuple[HostRobots, Problem | None]:
    """Rules from one robots.txt fetch (see the module docstring for the
    status handling).  ``result.body`` is already capped by the fetch; the
    Sitemap lines kept are at most ``limits.sitemaps``."""
    if result.status is not None and 400 <= result.status < 500:
        return HostRobots(), None
    if result.status is None or result.status >= 500 or result.error:
        why = result.error or f"HTTP {result.status}"
        return HostRobots(disallow_all=True), Problem(result.url, f"robots.txt unreachable ({why}): "
                                                                  "host treated as disallowed (RFC 9309)")
    text = result.body[: limits.robots_bytes].decode("utf-8", errors="replace")
    parser = Protego.parse(text)
    sitemaps = [s for s in parser.sitemaps if isinstance(s, str)][: limits.sitemaps]
    return HostRobots(parser=parser, sitemaps=sitemaps), None


_DISALLOW_ALL = HostRobots(disallow_all=True)


class RobotsCache:
    """robots.txt per origin, fetched on first use through ``fetcher``.

    At most ``limits.robots_hosts`` origins are fetched; a URL on another
    origin past that bound is judged disallowed (with one ``Problem``)."""

    def __init__(self, fetcher: Fetcher, limits: Limits):
        self.fetcher = fetcher
        self.limits = limits
        self.hosts: dict[str, HostRobots] = {}
        self.problems: list[Problem] = []
        self.over = False  # an origin past ``robots_hosts`` was asked for

    def for_url(self, url: str) -> HostRobots:
        """The rules of ``url``'s origin (fetching ``/robots.txt`` once)."""
        origin = origin_of(url)
        if origin not in self.hosts:
            if len(self.hosts) >= self.limits.robots_hosts:
                if not self.over:
                    self.problems.append(Problem(origin + "/robots.txt", f"more than {self.limits.robots_hosts} "
                                                 "hosts: robots.txt not fetched, host disallowed"))
                self.over = True
                return _DISALLOW_ALL
            else:
                result = self.fetcher.get(origin + "/robots.txt", self.limits.robots_bytes)
                self.hosts[origin], problem = parse_robots(result, self.limits)
                if problem:
                    self.problems.append(problem)
        return self.hosts[origin]

    def allows(self, url: str) -> bool:
        """True when ``url`` may be crawled (its origin's robots.txt)."""
        return self.for_url(url).allows(url)
