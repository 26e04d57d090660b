"""Collector ``links``: the page's links for site-audit discovery
(``tagcrawl/audit/discovery``; docs/audits.md "Links from crawled pages").

After the last page action (``post_load``), ``links.js`` runs in the main
frame: the absolute http(s) URLs of the document's ``<a href>`` / ``<area
href>``, as Chrome resolved them, and the ``<link rel=canonical>`` href.
Bounds: at most :data:`MAX_LINKS` distinct links, each at most
:data:`MAX_CHARS` characters (longer ones skipped), both in the script and
checked again here (the page could have replaced DOM methods); one
``Runtime.evaluate`` with a :data:`TIMEOUT_S` timeout.  The crawl response
carries them as ``links`` and ``canonical`` (``crawl/collect.py``).  Only the
crawls of audit pages run it (``standard(links=True)``, the internal request
key ``crawl.service.COLLECT_LINKS``); an API crawl has neither field.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tagcrawl.engine.collectors.base import Collector, Context
from tagcrawl.engine.scripts import script

MAX_LINKS = 1000
MAX_CHARS = 2048
TIMEOUT_S = 2.0


@dataclass
class PageLinks:
    """``links``: absolute http(s) URLs in document order; ``canonical``: the
    page's canonical URL or None; ``total``: anchors in the document (before the cap)."""

    links: list[str] = field(default_factory=list)
    canonical: str | None = None
    total: int = 0


def _url(value) -> str | None:
    ok = isinstance(value, str) and len(value) <= MAX_CHARS and value[:8].lower().startswith(("http://", "https://"))
    return value if ok else None


def read_links(value) -> PageLinks:
    """``links.js``'s answer checked and capped (anything malformed is dropped)."""
    if not isinstance(value, dict):
        return PageLinks()
    raw = value.get("links") if isinstance(value.get("links"), list) else []
    links = list(dict.fromkeys(u for u in (_url(v) for v in raw[:MAX_LINKS]) if u))
    total = value.get("total") if isinstance(value.get("total"), int) else len(links)
    return PageLinks(links, _url(value.get("canonical")), max(0, total))


class LinksCollector(Collector):
    """``get_data`` -> ``PageLinks`` (None before ``post_load`` ran: no page)."""

    name = "links"

    def __init__(self):
        super().__init__()
        self.found: PageLinks | None = None

    def post_load(self, ctx: Context) -> None:
        session = ctx.session
        if session is None:
            return
        self.found = read_links(session.evaluate(script(__file__, "links.js"), timeout_s=TIMEOUT_S))

    def notes(self) -> list[str]:
        if self.found and self.found.total > MAX_LINKS and len(self.found.links) >= MAX_LINKS:
            return [f"links: kept the first {MAX_LINKS} of {self.found.total} links"]
        return []

    def get_data(self, ctx: Context) -> PageLinks | None:
        return self.found
