"""A spare browser context per pooled browser, made ready between crawls.

Opening a crawl's context costs three slow steps: ``Target.createBrowserContext``,
``Target.createTarget`` (a new window) and ChromeDriver's switch to it (about
0.1-0.3 s each on a loaded machine); closing it costs two more.  After a crawl,
a background thread closes the used context and opens the next one, with
network capture already attached (a bare ``NetworkCapture`` that the next
crawl's capture adopts).  The next crawl on that browser takes the spare and
starts navigating at once.

A spare is unused: nothing has been loaded in it (``about:blank``), so taking
it keeps every crawl in a fresh context.  It is only taken by a crawl with the
same per-context proxy; otherwise it is disposed and a new context is made.

``handle`` below is the pool's ``driver_factory.BrowserHandle`` (its
``spare``, ``spare_thread``, ``anchor`` and ``broken`` fields; not imported:
the handle refers to ``Spare``).
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.chrome.cdp import CDPConnection, CDPError

log = logging.getLogger(__name__)

#: Longest a crawl waits for the background thread (closing + opening), seconds.
JOIN_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class SpareSettings:
    """How to make the spare context after a crawl.

    Attributes:
        timer_horizon_ms: the spare capture's timer horizon (ms; baked into its page hooks).
        proxy_server: the spare context's proxy (the likely next crawl's), or None.
    """

    timer_horizon_ms: int = 4000
    proxy_server: str | None = None


@dataclass
class Spare:
    """A ready context: its DevTools connection, ids and bare capture."""

    cdp: CDPConnection
    capture: NetworkCapture
    context_id: str
    target_id: str
    proxy_server: str | None


def open_context(handle, capture: NetworkCapture, proxy_server: str | None) -> tuple[CDPConnection, str, str]:
    """Create a context with one ``about:blank`` page, capture attached, driver switched to it.

    Returns ``(cdp, context_id, target_id)``.  Raises CDPError / WebDriver errors.
    """
    cdp = CDPConnection(handle.cdp_url, on_event=capture.on_event)
    try:
        capture.bind(cdp)
        params = {"disposeOnDetach": True}
        if proxy_server:
            params.update(proxyServer=proxy_server, proxyBypassList="<-loopback>")
        context_id = cdp.call("Target.createBrowserContext", params)["browserContextId"]
        capture.context_id = context_id
        # Downloads are never wanted: denied, so that none is written nor waited for.
        cdp.call("Browser.setDownloadBehavior", {"behavior": "deny", "browserContextId": context_id})
        cdp.call("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})
        target_id = cdp.call("Target.createTarget", {"url": "about:blank", "browserContextId": context_id})["targetId"]
        handle.driver.switch_to.window(target_id)
    except Exception:
        cdp.close()
        raise
    return cdp, context_id, target_id


def close_context(handle, cdp: CDPConnection, context_id: str | None, target_id: str | None) -> None:
    """Close the page and dispose the context (cookies, storage, cache, workers go
    with it).  Marks the browser broken when Chrome does not answer."""
    try:
        if target_id:
            cdp.call("Target.closeTarget", {"targetId": target_id}, timeout_s=5)
        if context_id:
            cdp.call("Target.disposeBrowserContext", {"browserContextId": context_id}, timeout_s=5)
    except CDPError as exc:
        log.info("browser context clean-up failed: %s", exc)
        handle.broken = True
    finally:
        cdp.close()


def recycle_in_background(handle, cdp: CDPConnection, context_id: str | None,
                          target_id: str | None, settings: SpareSettings) -> None:
    """Close the used context and prepare a spare (``handle.spare``), in a
    daemon thread (``handle.spare_thread``).  When no spare can be made, the
    driver is switched back to ``handle.anchor``."""
    def work():
        close_context(handle, cdp, context_id, target_id)
        if handle.broken:
            return
        capture = NetworkCapture(timer_horizon_ms=settings.timer_horizon_ms)
        try:
            spare_cdp, spare_context, spare_target = open_context(handle, capture, settings.proxy_server)
        except Exception as exc:  # browser gone or busy: the next crawl opens its own
            log.info("no spare browser context: %s", exc)
            try:
                if handle.anchor:
                    handle.driver.switch_to.window(handle.anchor)
            except Exception:
                handle.broken = True
            return
        handle.spare = Spare(spare_cdp, capture, spare_context, spare_target, settings.proxy_server)

    thread = threading.Thread(target=work, name="spare-context", daemon=True)
    handle.spare_thread = thread
    thread.start()


def take_spare(handle, proxy_server: str | None) -> Spare | None:
    """Wait for the background thread, then take the spare when its proxy
    matches (else dispose it).  Returns None when there is none.

    Raises:
        CDPError: the thread did not end within ``JOIN_TIMEOUT_S`` (the browser is marked broken)."""
    thread, handle.spare_thread = handle.spare_thread, None
    if thread is not None:
        thread.join(JOIN_TIMEOUT_S)
        if thread.is_alive():
            handle.broken = True
            raise CDPError("the browser did not finish closing the previous crawl's context")
    spare, handle.spare = handle.spare, None
    if spare is not None and spare.proxy_server != proxy_server:
        close_context(handle, spare.cdp, spare.context_id, spare.target_id)
        spare = None
    if spare is not None and spare.cdp.closed:
        spare = None
    return spare
