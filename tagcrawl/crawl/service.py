"""The crawl, orchestrated: browser context -> ``steps.SEQUENCE`` (load,
quiet, blocking, consent, quiet, flush, collect) -> rules -> CrawlReport.

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

from selenium.common.exceptions import UnexpectedAlertPresentException, WebDriverException

from tagcrawl.engine import collectors
from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.consent.flow import ConsentResult
from tagcrawl.engine.compliance import report as compliance
from tagcrawl.engine.chrome.driver_factory import BrowserUnavailable, kill_browser
from tagcrawl.engine.identity.emulation import page_setup_commands, proxy_for
from tagcrawl.engine.egress.chrome import context_proxy, egress_mode
from tagcrawl.engine.chrome.pool import PoolExhausted, get_pool
from tagcrawl.engine.chrome.session import CrawlSession, SpareSettings
from tagcrawl.core.netguard import url_refusal
from tagcrawl.core.schemas.crawl import CrawlResponseSchema
from tagcrawl.core.settings import Settings
from tagcrawl.crawl.context import CrawlContext, CrawlFailed, Step
from tagcrawl.crawl.outcome import ServiceFailed, kind_of
from tagcrawl.crawl.report import CrawlReport, ErrorMessage
from tagcrawl.crawl.collect import build
from tagcrawl.crawl.report_caps import cap_response
from tagcrawl.crawl.rules import evaluate_rules_until
from tagcrawl.crawl.screenshots import save_screenshot
from tagcrawl.crawl.steps import SEQUENCE
from tagcrawl.crawl.timing import PhaseTimings

log = logging.getLogger(__name__)

__all__ = ["COLLECT_LINKS", "CrawlFailed", "CrawlOutcome", "consent_action", "run_crawl", "run_steps"]

#: Internal request key (never in ``CrawlRequestSchema``, whose loads drop unknown keys): True reads the
#: page's links and canonical URL (``links`` / ``canonical`` in the response); set by the audit runner only.
COLLECT_LINKS = "collect_links"
DIALOGS_MESSAGE = "the page keeps opening JavaScript dialogs (alert, confirm or prompt)"
_DUMP = CrawlResponseSchema()


@dataclass
class CrawlOutcome:
    """A crawl's typed report plus what is kept internally.

    Attributes:
        report: the ``CrawlReport``.
        response: its CrawlResponse dict (``CrawlResponseSchema`` dump, made once, with the caps of
            ``report_caps.cap_response``: what is answered, stored and sent as webhook payload).
        hits: every vendor hit; requests: every captured request (stored with the crawl as its HAR).
        timings: per-phase milliseconds.
        report_max_bytes: the answer's JSON cap (``Settings.report_max_bytes``).
    """

    report: CrawlReport
    hits: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    timings: PhaseTimings = field(default_factory=PhaseTimings)
    report_max_bytes: int = Settings.report_max_bytes
    response: dict = field(init=False)

    def __post_init__(self):
        self.response = cap_response(_DUMP.dump(self.report), self.report_max_bytes)


def run_crawl(settings: Settings, request: dict) -> CrawlOutcome:
    """Crawl ``request["url"]`` and build the CrawlReport.

    Args:
        settings: the service settings.
        request: a validated CrawlRequest (``CrawlRequestSchema().load``); the internal key
            :data:`COLLECT_LINKS` True (audit pages only) adds ``links`` and ``canonical`` to the response.
    Returns:
        CrawlOutcome; ``report.time_taken`` is wall-clock milliseconds.  The
        work after the page (matching, rules) stops at the crawl deadline;
        ``message`` says what was left out (``ctx.notes``).
    """
    started = time.monotonic()
    options = request.get("options") or {}
    report = CrawlReport(session_id=str(request.get("session_id") or uuid.uuid4()), url=request["url"])
    ctx = CrawlContext(settings=settings, request=request, options=options,
                       deadline=started + settings.crawl_timeout_s, report=report,
                       consent=ConsentResult(action=consent_action(options)))
    timings = PhaseTimings(created=started)
    try:
        _crawl(ctx, timings)
        with timings.phase("report"):  # after the browser is released, within the deadline
            try:
                build(ctx)
            except Exception as exc:  # noqa: BLE001 - a page's data must not turn the crawl into a 500
                log.exception("crawl %s: building the report failed", report.session_id)
                raise CrawlFailed(f"report error: {exc.__class__.__name__}") from exc
        report.success = report.error is None
    except CrawlFailed as exc:
        report.error = ErrorMessage(str(exc), code=getattr(exc, "code", None))
        report.failure = kind_of(exc)  # page or service (crawl/outcome.py); not in the JSON
        if isinstance(exc, ServiceFailed):  # the stack trace goes to the log (INFO), never into the answer
            log.info("crawl %s: service failure (%s): %s", report.session_id, exc.code, exc,
                     exc_info=exc.__cause__ or exc)
        ctx.hits, ctx.cookies, ctx.datalayer, ctx.requests, ctx.storage = [], [], [], [], []  # only a crawl that ended
        ctx.notes = []
    rules = request.get("validationRules") or []
    report.validation_results, evaluated = evaluate_rules_until(
        rules, ctx.hits, ctx.cookies, ctx.datalayer, crawl_succeeded=report.success,
        consent=compliance.rule_items(report), deadline=ctx.deadline)
    if evaluated < len(rules):
        ctx.notes.append(f"deadline reached while evaluating rules: {evaluated} of {len(rules)} rules evaluated, "
                         "the others are reported as failed")
    if report.error and not report.message:
        report.message = report.error.message
    if ctx.failures and not report.message:  # a report with a part missing must say so
        report.message = "incomplete report: " + "; ".join(
            f"the {name} collector failed ({what.split(':')[0]}), its part is missing"
            for name, what in ctx.failures.items())
    if ctx.notes:  # what the deadline, the budgets and the caps left out
        report.message = "; ".join(([report.message] if report.message else []) + ctx.notes)
    report.time_taken = int((time.monotonic() - started) * 1000)
    log.info("crawl %s %s: %d ms (%s)", report.session_id, request["url"], report.time_taken, timings.summary())
    if ctx.failures:  # their parts are missing from the report
        log.warning("crawl %s: collectors failed: %s", report.session_id, ctx.failures)
    return CrawlOutcome(report=report, hits=ctx.hits, requests=ctx.requests, timings=timings,
                        report_max_bytes=settings.report_max_bytes)


def run_steps(ctx: CrawlContext, timings: PhaseTimings, sequence: tuple[Step, ...] = SEQUENCE) -> None:
    """Run ``sequence`` in order, each applicable step timed as its phase.
    Raises what a step raises (``CrawlFailed``: the crawl ends)."""
    for step in sequence:
        if step.applies(ctx):
            with timings.phase(step.phase):
                step.run(ctx)


def _crawl(ctx: CrawlContext, timings: PhaseTimings) -> None:
    refusal = url_refusal(ctx.request["url"], ctx.settings.allow_private_targets)
    if refusal:
        raise CrawlFailed(f"refused to crawl: {refusal}")
    pool = get_pool(ctx.settings)
    try:
        checkout = time.monotonic()
        with pool.browser(timeout_s=max(0.1, ctx.deadline - time.monotonic())) as handle:
            timings.add("checkout", checkout)  # pool wait + health check
            _crawl_in(handle, ctx, timings)
    except PoolExhausted as exc:  # service failures: crawl/outcome.py
        raise ServiceFailed(f"all browsers are busy: {exc}", "pool_busy") from exc
    except BrowserUnavailable as exc:
        raise ServiceFailed(f"browser unavailable: {exc}",
                            "grid_unreachable" if ctx.settings.webdriver_url else "browser_unavailable") from exc


def _collectors(ctx: CrawlContext) -> collectors.Collectors:
    """The crawl's collectors (``collectors.standard``), each ``init``-ed."""
    settings = ctx.settings
    proxied = egress_mode(settings) != "off"
    guarded = not settings.allow_private_targets and not (settings.fetch_guard == "off" and proxied)
    guard = (lambda url: url_refusal(url, False)) if guarded else None
    out = collectors.standard(guard=guard, page_max_bytes=settings.page_max_bytes,
                              save_screenshot=lambda png: save_screenshot(settings, png),
                              guard_documents_only=proxied and settings.fetch_guard == "auto",
                              links=ctx.request.get(COLLECT_LINKS) is True)
    for collector in out:
        collectors.guarded(collector, ctx.failures, "init", collector.init, ctx)
    return out


def _crawl_in(handle, ctx: CrawlContext, timings: PhaseTimings) -> None:
    settings, options = ctx.settings, ctx.options
    identity = handle.identity  # read once per browser
    ctx.collectors = _collectors(ctx)
    capture = NetworkCapture(page_setup=page_setup_commands(identity and identity.user_agent, options.get("country"),
                                                            identity and identity.metadata()),
                             timer_horizon_ms=settings.timer_horizon_ms, collectors=ctx.collectors)
    capture.failures = ctx.failures
    dialogs = ctx.collectors.dialogs
    expired = threading.Event()

    def on_deadline():
        expired.set()
        capture.abort()
        handle.broken = True
        kill_browser(handle, graceful=False)

    try:  # the crawl's route through the egress proxy (tagcrawl/engine/egress)
        proxy = context_proxy(settings, proxy_for(settings.proxy_url, options.get("proxy", True) is not False,
                                                options.get("country")))
    except (ValueError, OSError) as exc:  # a service failure (crawl/outcome.py)
        raise ServiceFailed(f"egress proxy unavailable: {exc}", "egress_unavailable") from exc
    watchdog = threading.Timer(max(0.0, ctx.deadline - time.monotonic()), on_deadline)
    watchdog.daemon = True
    watchdog.start()
    try:
        with timings.phase("browser"):  # the next crawl's likely proxy, for the spare context
            spare = SpareSettings(timer_horizon_ms=settings.timer_horizon_ms, proxy_server=proxy if options.get(
                "proxy", True) is not False and not options.get("country") else _usual_proxy(settings))
        # Opening and closing the context are timed as "browser", the steps as their own phases.
        with timings.around("browser", CrawlSession(handle, capture, proxy_server=proxy, spare=spare)) as ctx.session:
            run_steps(ctx, timings)
        if dialogs is not None and dialogs.storm:
            raise CrawlFailed(DIALOGS_MESSAGE)
    except CrawlFailed:
        raise
    except Exception as exc:  # WebDriver, CDP, urllib3 (ChromeDriver gone), OS errors
        if expired.is_set():  # the deadline before any report: a service failure (crawl/outcome.py)
            raise ServiceFailed(f"crawl deadline of {settings.crawl_timeout_s:g} s exceeded",
                                "deadline_exceeded") from exc
        handle.broken = True
        # WebDriver trips over dialogs that the capture dismisses ("unexpected alert open",
        # "no dialog is showing"): with dialogs around, they are the cause.
        storm, seen = (dialogs.storm, dialogs.count) if dialogs is not None else (False, 0)
        if storm or isinstance(exc, UnexpectedAlertPresentException) or (seen and isinstance(exc, WebDriverException)):
            raise CrawlFailed(DIALOGS_MESSAGE) from exc
        detail = getattr(exc, "msg", None) or str(exc)
        raise CrawlFailed(f"browser error: {detail.splitlines()[0] if detail else exc.__class__.__name__}") from exc
    finally:
        watchdog.cancel()
        if expired.is_set() and ctx.report.error is None:
            ctx.report.error = ErrorMessage(f"crawl deadline of {settings.crawl_timeout_s:g} s exceeded")


def _usual_proxy(settings: Settings) -> str | None:
    """The per-context proxy of a crawl without ``options.country`` (the spare context's)."""
    try:
        return context_proxy(settings, proxy_for(settings.proxy_url, True, None))
    except (ValueError, OSError):
        return None


def consent_action(options: dict) -> str:
    """``options.consentAction``; absent or null: ``byPassConsent`` true (the
    default) means "accept", false means "none"."""
    action = options.get("consentAction")
    if action in ("accept", "reject", "none"):
        return action
    return "accept" if options.get("byPassConsent", True) is not False else "none"
