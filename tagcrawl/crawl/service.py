"""The crawl, orchestrated: browser context -> load -> quiet -> blocking ->
consent -> quiet -> cookies -> pixels -> rules -> CrawlResponse.

``run_crawl`` never raises for page or browser trouble: every failure becomes
a CrawlResponse with ``success: false`` and ``error``.  A watchdog enforces the
whole-crawl deadline (``CRAWL_TIMEOUT_S``): when it fires, the browser is
killed (and marked for restart), which unblocks any WebDriver or CDP call.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, field

from selenium.common.exceptions import TimeoutException, UnexpectedAlertPresentException, WebDriverException

from ..browser import blocking
from ..browser.capture import NetworkCapture
from ..browser.consent import handle_consent
from ..browser.driver_factory import BrowserUnavailable, kill_browser
from ..browser.emulation import page_setup_commands, proxy_for
from ..egress.chrome import context_proxy
from ..browser.pool import PoolExhausted, get_pool
from ..browser.session import CrawlSession
from ..netguard import url_refusal
from ..vendors import match_requests, pixels_from_hits
from .rules import evaluate_rules
from .screenshots import save_screenshot

log = logging.getLogger(__name__)


DIALOGS_MESSAGE = "the page keeps opening JavaScript dialogs (alert, confirm or prompt)"


class CrawlFailed(Exception):
    """The crawl cannot go on; ``message`` goes into the response."""


@dataclass
class CrawlOutcome:
    """The CrawlResponse dict plus what is kept internally (every hit, and
    every captured request: stored with the crawl as its HAR)."""

    response: dict
    hits: list = field(default_factory=list)
    requests: list = field(default_factory=list)


def _base_response(request: dict, session_id: str) -> dict:
    return {"sessionId": session_id, "url": request["url"], "success": False,
            "button": {"button_text": None, "consent_banner": False, "error_message": None},
            "marketingPixels": [], "cookiesBefore": None, "cookiesAfter": None, "timeTaken": None,
            "error": None, "validationResults": [], "screenShotUrls": None, "message": None}


def run_crawl(config: dict, request: dict) -> CrawlOutcome:
    """Crawl ``request["url"]`` and build the CrawlResponse.

    Args:
        config: app settings.
        request: a validated CrawlRequest (``CrawlRequestSchema().load``).
    Returns:
        CrawlOutcome; ``response["timeTaken"]`` is wall-clock milliseconds.
    """
    started = time.monotonic()
    deadline = started + float(config.get("CRAWL_TIMEOUT_S", 25))
    session_id = str(request.get("session_id") or uuid.uuid4())
    options = request.get("options") or {}
    response = _base_response(request, session_id)
    hits: list = []
    cookies: list = []
    datalayer: list = []
    requests: list = []
    try:
        hits, cookies, datalayer, requests = _crawl(config, request, options, response, deadline)
        response["success"] = response["error"] is None
    except CrawlFailed as exc:
        response["error"] = {"error": True, "message": str(exc)}
    response["validationResults"] = evaluate_rules(
        request.get("validationRules") or [], hits, cookies, datalayer, crawl_succeeded=response["success"])
    if response["error"] and not response["message"]:
        response["message"] = response["error"]["message"]
    response["timeTaken"] = int((time.monotonic() - started) * 1000)
    return CrawlOutcome(response=response, hits=hits, requests=requests)


def _crawl(config: dict, request: dict, options: dict, response: dict, deadline: float):
    refusal = url_refusal(request["url"], config.get("ALLOW_PRIVATE_TARGETS", False))
    if refusal:
        raise CrawlFailed(f"refused to crawl: {refusal}")
    pool = get_pool(config)
    try:
        with pool.browser(timeout_s=max(0.1, deadline - time.monotonic())) as handle:
            return _crawl_in(handle, config, request, options, response, deadline)
    except PoolExhausted as exc:
        raise CrawlFailed(f"all browsers are busy: {exc}") from exc
    except BrowserUnavailable as exc:
        raise CrawlFailed(f"browser unavailable: {exc}") from exc


def _crawl_in(handle, config, request, options, response, deadline):
    allow_private = config.get("ALLOW_PRIVATE_TARGETS", False)
    guard = None if allow_private else (lambda url: url_refusal(url, False))
    if "user_agent" not in handle.extra:
        try:
            handle.extra["user_agent"] = handle.driver.execute_script("return navigator.userAgent")
        except WebDriverException:
            handle.extra["user_agent"] = None
    capture = NetworkCapture(page_setup=page_setup_commands(handle.extra["user_agent"], options.get("country")),
                             request_guard=guard, timer_horizon_ms=config.get("TIMER_HORIZON_MS", 4000))
    capture.page_max_bytes = config.get("PAGE_MAX_BYTES")
    expired = threading.Event()

    def on_deadline():
        expired.set()
        capture.abort()
        handle.broken = True
        kill_browser(handle, graceful=False)

    try:  # the crawl's route through the egress proxy (tagcrawl/egress)
        proxy = context_proxy(config, proxy_for(config.get("PROXY_URL"), options.get("proxy", True) is not False,
                                                options.get("country")))
    except (ValueError, OSError) as exc:
        raise CrawlFailed(f"egress proxy unavailable: {exc}") from exc
    watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), on_deadline)
    watchdog.daemon = True
    watchdog.start()
    try:
        with CrawlSession(handle, capture, proxy_server=proxy) as session:
            result = _steps(session, config, request, options, response, deadline)
        if capture.dialog_storm:
            raise CrawlFailed(DIALOGS_MESSAGE)
        return result
    except CrawlFailed:
        raise
    except Exception as exc:  # WebDriver, CDP, urllib3 (ChromeDriver gone), OS errors
        if expired.is_set():
            raise CrawlFailed(f"crawl deadline of {config.get('CRAWL_TIMEOUT_S', 25):g} s exceeded") from exc
        handle.broken = True
        # WebDriver trips over dialogs that the capture dismisses ("unexpected alert open",
        # "no dialog is showing"): with dialogs around, they are the cause.
        if capture.dialog_storm or isinstance(exc, UnexpectedAlertPresentException) or (
                capture.dialogs and isinstance(exc, WebDriverException)):
            raise CrawlFailed(DIALOGS_MESSAGE) from exc
        detail = getattr(exc, "msg", None) or str(exc)
        raise CrawlFailed(f"browser error: {detail.splitlines()[0] if detail else exc.__class__.__name__}") from exc
    finally:
        watchdog.cancel()
        if expired.is_set() and response.get("error") is None:
            response["error"] = {"error": True,
                                 "message": f"crawl deadline of {config.get('CRAWL_TIMEOUT_S', 25):g} s exceeded"}


def _navigate(session, url: str, config: dict, deadline: float) -> str | None:
    """Load ``url``; returns an error message or None.  A page that is still
    loading at the page-load timeout is stopped and crawled as it is."""
    driver, capture = session.driver, session.capture
    driver.set_page_load_timeout(max(1.0, min(config.get("PAGE_LOAD_TIMEOUT_S", 15), deadline - time.monotonic() - 1)))
    try:
        driver.get(url)
    except TimeoutException:
        try:
            driver.execute_script("window.stop();")
        except WebDriverException:
            pass
        if capture.main_status is None:
            return f"page load timed out after {config.get('PAGE_LOAD_TIMEOUT_S', 15):g} s with no response"
    except WebDriverException as exc:
        text = exc.msg or str(exc)
        if capture.page_too_large:
            return f"page larger than {capture.page_max_bytes / 1048576:g} MB: loading stopped"
        if "net::ERR_" in text:
            code = "net::ERR_" + text.split("net::ERR_")[1].split()[0].rstrip(")")
            return _blocked_redirect_message(capture) or f"navigation failed: {code}"
        raise
    if capture.page_too_large:
        return f"page larger than {capture.page_max_bytes / 1048576:g} MB: loading stopped"
    if capture.main_error:
        return _blocked_redirect_message(capture) or f"navigation failed: {capture.main_error}"
    return None


def _blocked_redirect_message(capture) -> str | None:
    """The guard's refusal of the main document (or of one of its redirects), if any."""
    if capture.main_blocked:
        url, reason = capture.main_blocked
        return f"refused to load {url}: {reason}"
    return None


def _steps(session, config, request, options, response, deadline):
    capture, quiet, cap = session.capture, config.get("QUIET_MS", 500), config.get("QUIET_CAP_MS", 8000)
    error = _navigate(session, request["url"], config, deadline)
    if error:
        raise CrawlFailed(error)
    capture.wait_quiet(quiet, cap, deadline)
    response["cookiesBefore"] = len(session.cookies())
    shots = bool(options.get("screenShots"))
    before = save_screenshot(config, session.driver.get_screenshot_as_png()) if shots else None
    try:
        probe = session.driver.execute_script(blocking.PROBE_JS)
    except WebDriverException:
        probe = None
    kind, reason = blocking.classify(capture.main_status, probe)
    if kind:
        response["button"]["error_message"] = kind
        response["error"] = {"error": True, "message": reason}
    else:
        consent = handle_consent(session, config, click=options.get("byPassConsent", True) is not False,
                                 deadline=deadline)
        response["button"].update(button_text=consent.button_text, consent_banner=consent.banner)
        if consent.clicked and not consent.verified:
            response["message"] = "consent button clicked, but the banner stayed and no consent was stored"
        capture.wait_quiet(quiet, cap, deadline)
    if shots:
        after = save_screenshot(config, session.driver.get_screenshot_as_png())
        response["screenShotUrls"] = {"screenShotBefore": before, "screenShotAfter": after}
    cookies = session.cookies()
    response["cookiesAfter"] = len(cookies)
    requests = capture.snapshot()
    hits = match_requests(requests)
    response["marketingPixels"] = pixels_from_hits(hits)
    return hits, cookies, list(capture.datalayer), requests
