"""One crawl's isolated browser context: open, capture, close.

Each crawl gets a fresh browser context (``Target.createBrowserContext``): its
own cookies, storage, cache, service workers and permissions, disposed at the
end.  The driver's default window stays on ``about:blank`` as an anchor, so
the WebDriver session outlives every context.
"""
from __future__ import annotations

import logging

from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.chrome.cdp import CDPConnection
from tagcrawl.engine.chrome.driver_factory import BrowserHandle
from tagcrawl.engine.chrome.spare import SpareSettings, close_context, open_context, recycle_in_background, take_spare

__all__ = ["CrawlSession", "SpareSettings"]

log = logging.getLogger(__name__)


class CrawlSession:
    """A browser context with one page, network capture attached to it.

    Use as a context manager; ``__exit__`` disposes the context and switches
    the driver back to its anchor window.

    Args:
        handle: a pooled browser.
        capture: a ``NetworkCapture`` configured for this crawl.
        proxy_server: ``scheme://host:port`` for this context only, or None.
        spare: when given, a spare context is prepared in the background after
            this crawl (``spare.py``), with these ``SpareSettings``.
    Attributes:
        driver: the WebDriver, switched to this context's page.
        cdp: the browser-level DevTools connection.
        context_id, target_id: ids of the browser context and its page.
    """

    def __init__(self, handle: BrowserHandle, capture: NetworkCapture, proxy_server: str | None = None,
                 spare: SpareSettings | None = None):
        self.handle = handle
        self.driver = handle.driver
        self.capture = capture
        self.proxy_server = proxy_server
        self.spare = spare
        self.cdp: CDPConnection | None = None
        self.context_id: str | None = None
        self.target_id: str | None = None

    def __enter__(self) -> "CrawlSession":
        ready = take_spare(self.handle, self.proxy_server)
        if self.handle.anchor is None:  # the driver's own window, outlives every context
            self.handle.anchor = self.driver.current_window_handle
        if ready is not None:
            self.capture.adopt(ready.capture, ready.cdp)
            self.cdp, self.context_id, self.target_id = ready.cdp, ready.context_id, ready.target_id
        else:
            self.cdp, self.context_id, self.target_id = open_context(self.handle, self.capture, self.proxy_server)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Dispose the context (cookies, storage, cache, workers go with it).
        With ``spare``, this and opening the next crawl's context happen in the background
        (``spare.py``).  Errors are logged, not raised: the pool checks the
        browser's health."""
        if self.cdp is None:
            return
        cdp, self.cdp = self.cdp, None
        self.capture.close()
        if self.spare is not None and not self.handle.broken:
            recycle_in_background(self.handle, cdp, self.context_id, self.target_id, self.spare)
            return
        close_context(self.handle, cdp, self.context_id, self.target_id)
        try:
            if self.handle.anchor:
                self.driver.switch_to.window(self.handle.anchor)
        except Exception:
            self.handle.broken = True

    def cookies(self) -> list[dict]:
        """All cookies of this context, every domain (CDP ``Storage.getCookies``)."""
        return self.cdp.call("Storage.getCookies", {"browserContextId": self.context_id}).get("cookies", [])

    def evaluate(self, expression: str, timeout_s: float = 5):
        """Evaluate ``expression`` in the page's main frame, return its JSON value."""
        result = self.cdp.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                    "awaitPromise": True},
                               session_id=self.capture.page_session, timeout_s=timeout_s)
        return result.get("result", {}).get("value")
