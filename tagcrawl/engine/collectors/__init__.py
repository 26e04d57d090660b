"""The crawl's instruments, one collector per file (``base.Collector``), and
``Collectors``: the typed set one crawl runs.

To add one (docs/architecture.md "Adding a collector"): write
``tagcrawl/engine/collectors/<name>.py`` with a ``Collector`` subclass and
add its field to ``Collectors`` below.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields

from tagcrawl.engine.collectors.autoconsent import AutoconsentCollector
from tagcrawl.engine.collectors.base import Collector, Context, Hub, Target, guarded
from tagcrawl.engine.collectors.cookies import CookieCollector
from tagcrawl.engine.collectors.datalayer import DataLayerCollector
from tagcrawl.engine.collectors.guards import DialogGuard, PageSizeGuard, RequestGuard
from tagcrawl.engine.collectors.links import LinksCollector, PageLinks
from tagcrawl.engine.collectors.network import NetworkCollector
from tagcrawl.engine.collectors.screenshots import ScreenshotCollector
from tagcrawl.engine.collectors.storage import StorageCollector

__all__ = ["AutoconsentCollector", "Collector", "Collectors", "Context", "CookieCollector", "DataLayerCollector", "DialogGuard", "Hub", "LinksCollector",
           "NetworkCollector", "PageLinks", "PageSizeGuard", "RequestGuard", "ScreenshotCollector", "StorageCollector",
           "Target", "guarded",
           "standard"]


@dataclass
class Collectors:
    """The collectors of one crawl, one typed attribute each; None: not in
    this crawl (every reader checks).  A field with a ``default_factory`` is
    on in every crawl; one that needs the crawl's wiring is set by ``standard``.

    Iterating yields the present ones in field order: the hub's dispatch order.

    Attributes:
        requests: every HTTP(S) request (``network.NetworkCollector``).
        datalayer: the ``window.dataLayer`` items (``datalayer.DataLayerCollector``).
        cookies: cookie counts and the final cookies (``cookies.CookieCollector``).
        page_size: stops a main document over the size cap (``guards.PageSizeGuard``).
        dialogs: dismisses JavaScript dialogs, fails a dialog storm (``guards.DialogGuard``).
        ssrf: the request guard (``guards.RequestGuard``); None when private targets are allowed.
        screenshots: before/after PNGs (``screenshots.ScreenshotCollector``).
        autoconsent: DuckDuckGo autoconsent in every frame (``autoconsent.AutoconsentCollector``;
            idle when ``Settings.autoconsent`` is off); the consent step drives it.
        storage: localStorage/sessionStorage writes and their scripts (``storage.StorageCollector``).
        links: the page's links and canonical URL for site audits (``links.LinksCollector``), read last;
            only in the crawls of audit pages (``standard(links=True)``).
    """

    requests: NetworkCollector | None = field(default_factory=NetworkCollector)
    datalayer: DataLayerCollector | None = field(default_factory=DataLayerCollector)
    cookies: CookieCollector | None = field(default_factory=CookieCollector)
    page_size: PageSizeGuard | None = None
    dialogs: DialogGuard | None = field(default_factory=DialogGuard)
    ssrf: RequestGuard | None = None
    screenshots: ScreenshotCollector | None = None
    autoconsent: AutoconsentCollector | None = field(default_factory=AutoconsentCollector)
    storage: StorageCollector | None = field(default_factory=StorageCollector)
    links: LinksCollector | None = None

    @classmethod
    def none(cls) -> "Collectors":
        """No collector at all (a crawl before its browser context)."""
        return cls(**{f.name: None for f in fields(cls)})

    def __iter__(self) -> Iterator[Collector]:
        return (c for c in (getattr(self, f.name) for f in fields(self)) if c is not None)


def standard(guard: Callable[[str], str | None] | None = None, page_max_bytes: int | None = None,
             save_screenshot: Callable[[bytes], str] | None = None, guard_documents_only: bool = False,
             links: bool = False) -> Collectors:
    """The collectors of one crawl.

    Args:
        guard: the SSRF guard ``fn(url) -> reason | None``; None: no request guard.
        guard_documents_only: the guard pauses only documents (``guards.RequestGuard``).
        page_max_bytes: main-document size cap (bytes); None or 0: no cap.
        save_screenshot: ``fn(png) -> URL``; None: no screenshot collector.
        links: read the page's links and canonical URL (``links.LinksCollector``): the crawl of an
            audit page (``tagcrawl/audit/runner.py``); off for the crawls of the API.
    """
    return Collectors(page_size=PageSizeGuard(page_max_bytes),
                      ssrf=RequestGuard(guard, guard_documents_only) if guard is not None else None,
                      screenshots=ScreenshotCollector(save_screenshot) if save_screenshot is not None else None,
                      links=LinksCollector() if links else None)
