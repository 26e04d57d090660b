"""The crawl's instruments, one collector per file (``base.Collector``).

To add one: write ``tagcrawl/engine/collectors/<name>.py`` with a ``Collector``
subclass and add one line to ``standard`` below.
"""
from __future__ import annotations

from collections.abc import Callable

from tagcrawl.engine.collectors.base import Collector, guarded
from tagcrawl.engine.collectors.cookies import CookieCollector
from tagcrawl.engine.collectors.datalayer import DataLayerCollector
from tagcrawl.engine.collectors.guards import DialogGuard, PageSizeGuard, RequestGuard
from tagcrawl.engine.collectors.network import NetworkCollector
from tagcrawl.engine.collectors.screenshots import ScreenshotCollector

__all__ = ["Collector", "CookieCollector", "DataLayerCollector", "DialogGuard", "NetworkCollector", "PageSizeGuard",
           "RequestGuard", "ScreenshotCollector", "guarded", "standard"]


def standard(guard: Callable[[str], str | None] | None = None, page_max_bytes: int | None = None,
             save_screenshot: Callable[[bytes], str] | None = None) -> list[Collector]:
    """The collectors of one crawl, in dispatch order.

    Args:
        guard: the SSRF guard ``fn(url) -> reason | None``; None: no request guard.
        page_max_bytes: main-document size cap (bytes); None or 0: no cap.
        save_screenshot: ``fn(png) -> URL``; None: no screenshot collector.
    """
    collectors: list[Collector] = [
        NetworkCollector(),
        DataLayerCollector(),
        CookieCollector(),
        PageSizeGuard(page_max_bytes),
        DialogGuard(),
    ]
    if guard is not None:
        collectors.append(RequestGuard(guard))
    if save_screenshot is not None:
        collectors.append(ScreenshotCollector(save_screenshot))
    return collectors
