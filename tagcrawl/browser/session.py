"""One crawl's isolated browser context: open, capture, close.

Each crawl gets a fresh browser context (``Target.createBrowserContext``): its
own cookies, storage, cache, service workers and permissions, disposed at the
end.  The driver's default window stays on ``about:blank`` as an anchor, so
the WebDriver session outlives every context.
"""
from __future__ import annotations

import logging

from .capture import NetworkCapture
from .cdp import CDPConnection, CDPError
from .driver_factory import BrowserHandle

log = logging.getLogger(__name__)


class CrawlSession:
    """A browser context with one page, network capture attached to it.

    Use as a context manager; ``__exit__`` disposes the context and switches
    the driver back to its anchor window.

    Args:
        handle: a pooled browser.
        capture: a ``NetworkCapture`` configured for this crawl.
        proxy_server: ``scheme://host:port`` for this context only, or None.
    Attributes:
        driver: the WebDriver, switched to this context's page.
        cdp: the browser-level DevTools connection.
        context_id, target_id: ids of the browser context and its page.
    """

    def __init__(self, handle: BrowserHandle, capture: NetworkCapture, proxy_server: str | None = None):
        self.handle = handle
        self.driver = handle.driver
        self.capture = capture
        self.proxy_server = proxy_server
        self.cdp: CDPConnection | None = None
        self.context_id: str | None = None
        self.target_id: str | None = None
        self._anchor: str | None = None

    def __enter__(self) -> "CrawlSession":
        self._anchor = self.driver.current_window_handle
        self.cdp = CDPConnection(self.handle.cdp_url, on_event=self.capture.on_event)
        self.capture.bind(self.cdp)
        params = {"disposeOnDetach": True}
        if self.proxy_server:
            params.update(proxyServer=self.proxy_server, proxyBypassList="<-loopback>")
        self.context_id = self.cdp.call("Target.createBrowserContext", params)["browserContextId"]
        self.capture.context_id = self.context_id
        # Downloads are never wanted: denied, so that none is written nor waited for.
        self.cdp.call("Browser.setDownloadBehavior", {"behavior": "deny", "browserContextId": self.context_id})
        self.cdp.call("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})
        self.target_id = self.cdp.call("Target.createTarget",
                                       {"url": "about:blank", "browserContextId": self.context_id})["targetId"]
        self.driver.switch_to.window(self.target_id)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Dispose the context (cookies, storage, cache, workers go with it).
        Errors are logged, not raised: the pool checks the browser's health."""
        if self.cdp is None:
            return
        try:
            if self.target_id:
                self.cdp.call("Target.closeTarget", {"targetId": self.target_id}, timeout_s=5)
            if self.context_id:
                self.cdp.call("Target.disposeBrowserContext", {"browserContextId": self.context_id}, timeout_s=5)
        except CDPError as exc:
            log.info("browser context clean-up failed: %s", exc)
            self.handle.broken = True
        finally:
            self.cdp.close()
            self.cdp = None
            self.capture.close()
        try:
            if self._anchor:
                self.driver.switch_to.window(self._anchor)
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
