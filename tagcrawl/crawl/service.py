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
from ..browser.consent import ConsentResult, handle_consent
from ..browser.consent_signals import collect_signals
from ..compliance import report as compliance
from ..browser.driver_factory import BrowserUnavailable, kill_browser
from ..browser.emulation import page_setup_commands, proxy_for
from ..browser.flush import flush_page
from ..egress.chrome import context_proxy
from ..browser.pool import PoolExhausted, get_pool
from ..browser.session import CrawlSession
from ..browser.stealth import browser_identity
from ..netguard import url_refusal
from ..vendors import match_requests, pixels_from_hits
from ..settings import Settings
from .rules import evaluate_rules
from .screenshots import save_screenshot
from .timing import PhaseTimings

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
    timings: PhaseTimings = field(default_factory=PhaseTimings)


def _base_response(request: dict, session_id: str) -> dict:
    return {"sessionId": session_id, "url": request["url"], "success": False,
            "button": {"button_text": None, "consent_banner": False, "error_message": None},
            "marketingPixels": [], "cookiesBefore": None, "cookiesAfter": None, "timeTaken": None,
            "error": None, "validationResults": [], "screenShotUrls": None, "message": None,
            "cookies": None, "consent": None}


def run_crawl(settings: Settings, request: dict) -> CrawlOutcome:
    """Crawl ``request["url"]`` and build the CrawlResponse.

    Args:
        settings: the service settings.
        request: a validated CrawlRequest (``CrawlRequestSchema().load``).
    Returns:
        CrawlOutcome; ``response["timeTaken"]`` is wall-clock milliseconds.
    """
    started = time.monotonic()
    deadline = started + settings.crawl_timeout_s
    session_id = str(request.get("session_id") or uuid.uuid4())
    options = request.get("options") or {}
    response = _base_response(request, session_id)
    hits: list = []
    cookies: list = []
    datalayer: list = []
    requests: list = []
    timings = PhaseTimings(created=started)
    try:
        hits, cookies, datalayer, requests = _crawl(settings, request, options, response, deadline, timings)
        response["success"] = response["error"] is None
    except CrawlFailed as exc:
        response["error"] = {"error": True, "message": str(exc)}
    response["validationResults"] = evaluate_rules(
        request.get("validationRules") or [], hits, cookies, datalayer, crawl_succeeded=response["success"],
        consent=compliance.rule_items(response))
    if response["error"] and not response["message"]:
        response["message"] = response["error"]["message"]
    response["timeTaken"] = int((time.monotonic() - started) * 1000)
    log.info("crawl %s %s: %d ms (%s)", session_id, request["url"], response["timeTaken"], timings.summary())
    return CrawlOutcome(response=response, hits=hits, requests=requests, timings=timings)


def _crawl(settings: Settings, request: dict, options: dict, response: dict, deadline: float, timings: PhaseTimings):
    refusal = url_refusal(request["url"], settings.allow_private_targets)
    if refusal:
        raise CrawlFailed(f"refused to crawl: {refusal}")
    pool = get_pool(settings)
    try:
        checkout = time.monotonic()
        with pool.browser(timeout_s=max(0.1, deadline - time.monotonic())) as handle:
            timings.add("checkout", checkout)  # pool wait + health check
            return _crawl_in(handle, settings, request, options, response, deadline, timings)
    except PoolExhausted as exc:
        raise CrawlFailed(f"all browsers are busy: {exc}") from exc
    except BrowserUnavailable as exc:
        raise CrawlFailed(f"browser unavailable: {exc}") from exc


def _crawl_in(handle, settings, request, options, response, deadline, timings):
    allow_private = settings.allow_private_targets
    guard = None if allow_private else (lambda url: url_refusal(url, False))
    if "identity" not in handle.extra:
        handle.extra["identity"] = browser_identity(handle.driver)
    identity = handle.extra["identity"]
    capture = NetworkCapture(page_setup=page_setup_commands(identity and identity.user_agent, options.get("country"),
                                                            identity and identity.metadata()),
                             request_guard=guard, timer_horizon_ms=settings.timer_horizon_ms)
    capture.page_max_bytes = settings.page_max_bytes
    expired = threading.Event()

    def on_deadline():
        expired.set()
        capture.abort()
        handle.broken = True
        kill_browser(handle, graceful=False)

    try:  # the crawl's route through the egress proxy (tagcrawl/egress)
        proxy = context_proxy(settings, proxy_for(settings.proxy_url, options.get("proxy", True) is not False,
                                                options.get("country")))
    except (ValueError, OSError) as exc:
        raise CrawlFailed(f"egress proxy unavailable: {exc}") from exc
    watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), on_deadline)
    watchdog.daemon = True
    watchdog.start()
    try:
        with timings.phase("browser"):
            session = CrawlSession(handle, capture, proxy_server=proxy, spare={
                "capture": {"timer_horizon_ms": settings.timer_horizon_ms},
                "proxy_server": proxy if options.get("proxy", True) is not False and not options.get("country")
                else _usual_proxy(settings)}).__enter__()
        try:
            result = _steps(session, settings, request, options, response, deadline, timings)
        finally:
            with timings.phase("browser"):
                session.close()
        if capture.dialog_storm:
            raise CrawlFailed(DIALOGS_MESSAGE)
        return result
    except CrawlFailed:
        raise
    except Exception as exc:  # WebDriver, CDP, urllib3 (ChromeDriver gone), OS errors
        if expired.is_set():
            raise CrawlFailed(f"crawl deadline of {settings.crawl_timeout_s:g} s exceeded") from exc
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
                                 "message": f"crawl deadline of {settings.crawl_timeout_s:g} s exceeded"}


def _usual_proxy(settings: Settings) -> str | None:
    """The per-context proxy of a crawl without ``options.country`` (the spare context's)."""
    try:
        return context_proxy(settings, proxy_for(settings.proxy_url, True, None))
    except (ValueError, OSError):
        return None


def _navigate(session, url: str, settings: Settings, deadline: float) -> str | None:
    """Load ``url``; returns an error message or None.  A page that is still
    loading at the page-load timeout is stopped and crawled as it is."""
    driver, capture = session.driver, session.capture
    driver.set_page_load_timeout(max(1.0, min(settings.page_load_timeout_s, deadline - time.monotonic() - 1)))
    try:
        driver.get(url)
    except TimeoutException:
        try:
            driver.execute_script("window.stop();")
        except WebDriverException:
            pass
        if capture.main_status is None:
            return f"page load timed out after {settings.page_load_timeout_s:g} s with no response"
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


def _steps(session, settings, request, options, response, deadline, timings):
    capture, quiet, cap = session.capture, settings.quiet_ms, settings.quiet_cap_ms
    with timings.phase("navigate"):
        error = _navigate(session, request["url"], settings, deadline)
    if error:
        raise CrawlFailed(error)
    with timings.phase("quiet"):
        capture.wait_quiet(quiet, cap, deadline)
    with timings.phase("collect"):
        response["cookiesBefore"] = len(session.cookies())
    shots = bool(options.get("screenShots"))
    with timings.phase("screenshot"):
        before = save_screenshot(settings, session.driver.get_screenshot_as_png()) if shots else None
    with timings.phase("probe"):
        try:
            probe = session.driver.execute_script(blocking.PROBE_JS)
        except WebDriverException:
            probe = None
    kind, reason = blocking.classify(capture.main_status, probe)
    if kind:
        response["button"]["error_message"] = kind
        response["error"] = {"error": True, "message": reason}
    consent, frames = ConsentResult(action=consent_action(options)), []
    if not kind:
        with timings.phase("consent"):
            consent = handle_consent(session, settings, click=consent.action != "none", deadline=deadline,
                                     action=consent.action)
        response["button"].update(button_text=consent.button_text, consent_banner=consent.banner)
        if consent.clicked and not consent.verified:
            response["message"] = (f"consent {consent.action} clicked ({', '.join(consent.attempts)}), but "
                                   "it was not verified (the banner stayed or no choice was stored)")
        with timings.phase("quiet_after"):
            capture.wait_quiet(quiet, cap, deadline)
        with timings.phase("consent"):  # the CMP APIs of every frame (TCF, US Privacy, GPP)
            frames = collect_signals(session.driver)
    if shots:
        with timings.phase("screenshot"):
            after = save_screenshot(settings, session.driver.get_screenshot_as_png())
        response["screenShotUrls"] = {"screenShotBefore": before, "screenShotAfter": after}
    with timings.phase("flush"):
        flush_page(capture, settings.flush_quiet_ms, settings.flush_cap_ms, deadline, settings.flush_start_ms)
    with timings.phase("collect"):
        cookies = session.cookies()
        response["cookiesAfter"] = len(cookies)
        requests = capture.snapshot()
        hits = match_requests(requests)
        response["marketingPixels"] = pixels_from_hits(hits)
        compliance.build(response, hits, cookies, request["url"], compliance.ConsentFacts(
            banner=consent.banner, action=consent.action, verified=consent.verified,
            choice_ms=consent.choice_ms, cookies_at_choice=consent.cookies_at_choice,
            cmp=consent.cmp, button_text=consent.button_text, frames=frames,
            choice_cookies={e[len("cookie "):] for e in consent.evidence if e.startswith("cookie ")}))
    return hits, cookies, list(capture.datalayer), requests


def consent_action(options: dict) -> str:
    """``options.consentAction``; absent or null: ``byPassConsent`` true (the
    default) means "accept", false means "none"."""
    action = options.get("consentAction")
    if action in ("accept", "reject", "none"):
        return action
    return "accept" if options.get("byPassConsent", True) is not False else "none"
