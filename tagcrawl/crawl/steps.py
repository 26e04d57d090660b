"""The page actions of a crawl, as steps in one visible sequence (after
OpenWPM's ``commands/types.py``: each action an object with its own timeout).

``SEQUENCE`` is the crawl, in order; ``service.run_steps`` runs it, timing
each step as its ``phase`` (``timing.PhaseTimings``; the phase names are the
``Server-Timing`` metric names).  A step that must end the crawl raises
``CrawlFailed``; a blocked page (``DetectBlocking``) is not a failure: the
consent steps are skipped and the report says ``success: false``.
"""
from __future__ import annotations

from selenium.common.exceptions import TimeoutException, WebDriverException

from tagcrawl.engine import blocking
from tagcrawl.engine.collectors.screenshots import Screenshots
from tagcrawl.engine.consent.flow import handle_consent
from tagcrawl.engine.consent.signals import collect_signals, notes as signal_notes
from tagcrawl.engine.capture.flush import flush_page
from tagcrawl.crawl.collect import Collect
from tagcrawl.crawl.context import CrawlContext, CrawlFailed, Step
from tagcrawl.core.truncation import REDIRECTS_MAX
from tagcrawl.crawl.report import ErrorMessage, RedirectHop


class Navigate(Step):
    """Load the URL.  Timeout: ``page_load_timeout_s`` (at least 1 s, 1 s
    short of the deadline); a page still loading then is stopped and crawled
    as it is.  Raises CrawlFailed: no response, network error, refused by the
    SSRF guard, larger than ``page_max_bytes``."""

    name = phase = "navigate"

    def timeout_s(self, ctx: CrawlContext) -> float:
        return max(1.0, min(ctx.settings.page_load_timeout_s, ctx.remaining_s() - 1))

    def run(self, ctx: CrawlContext) -> None:
        try:
            error = self._load(ctx)
        finally:  # what the page answered, also when loading failed (a redirect loop, a refused hop)
            page_outcome(ctx)
            ctx.main_request = ctx.session.capture.document.request
        if error:
            raise CrawlFailed(error)

    def _load(self, ctx: CrawlContext) -> str | None:
        driver, capture, settings = ctx.session.driver, ctx.session.capture, ctx.settings
        size = ctx.collectors.page_size
        too_large = (lambda: f"page larger than {size.max_bytes / 1048576:g} MB: loading stopped"
                     if size is not None and size.too_large else None)
        driver.set_page_load_timeout(self.timeout_s(ctx))
        try:
            driver.get(ctx.request["url"])
        except TimeoutException:
            try:
                driver.execute_script("window.stop();")
            except WebDriverException:
                pass
            if capture.document.status is None:
                return f"page load timed out after {settings.page_load_timeout_s:g} s with no response"
        except WebDriverException as exc:
            text = exc.msg or str(exc)
            if too_large():
                return too_large()
            if "net::ERR_" in text:
                code = "net::ERR_" + text.split("net::ERR_")[1].split()[0].rstrip(")")
                return self._refused(ctx) or f"navigation failed: {code}"
            raise
        if too_large():
            return too_large()
        if capture.document.error:
            return self._refused(ctx) or f"navigation failed: {capture.document.error}"
        return None

    @staticmethod
    def _refused(ctx: CrawlContext) -> str | None:
        """The SSRF guard's refusal of the main document (or of one of its redirects), if any."""
        guard = ctx.collectors.ssrf
        if guard is not None and guard.refusals.main:
            url, reason = guard.refusals.main
            return f"refused to load {url}: {reason}"
        return None


class WaitQuiet(Step):
    """Wait until the page is quiet (``quiet_ms`` without new activity).
    Timeout: ``quiet_cap_ms``, bounded by the deadline.  ``phase``: "quiet"
    first, "quiet_after" after the consent step."""

    name = "wait_quiet"

    def __init__(self, phase: str, after_consent: bool = False):
        self.phase, self.after_consent = phase, after_consent

    def applies(self, ctx: CrawlContext) -> bool:
        return not (self.after_consent and ctx.blocked)

    def timeout_s(self, ctx: CrawlContext) -> float:
        return min(ctx.settings.quiet_cap_ms / 1000.0, max(0.0, ctx.remaining_s()))

    def run(self, ctx: CrawlContext) -> None:
        ctx.session.capture.wait_quiet(ctx.settings.quiet_ms, int(self.timeout_s(ctx) * 1000), ctx.deadline)


class CookiesBefore(Step):
    """The cookie count once the page is quiet, before the consent step
    (``CookieCollector.snapshot``) -> ``report.cookies_before``.  A missing or
    failing cookie collector only loses that count."""

    name, phase = "snapshot", "collect"

    def run(self, ctx: CrawlContext) -> None:
        count = ctx.snapshot(ctx.collectors.cookies, "before")
        if isinstance(count, int):
            ctx.report.cookies_before = count


class Screenshot(Step):
    """A screenshot at ``moment`` ("before" / "after" the consent step;
    ``ScreenshotCollector.snapshot``, off without ``options.screenShots``); the
    "after" one runs only with it and puts both URLs in ``report.screenshots``."""

    name, phase = "snapshot", "screenshot"

    def __init__(self, moment: str):
        self.moment = moment

    def applies(self, ctx: CrawlContext) -> bool:
        return self.moment == "before" or bool(ctx.options.get("screenShots"))

    def run(self, ctx: CrawlContext) -> None:
        shots = ctx.snapshot(ctx.collectors.screenshots, self.moment)
        if isinstance(shots, Screenshots):
            ctx.report.screenshots = shots


class DetectBlocking(Step):
    """Probe the page for a CAPTCHA wall or an access-denied page
    (``engine/blocking.py``).  A blocked page sets ``button.error_message`` and
    ``error``; the consent steps are skipped."""

    name, phase = "detect_blocking", "probe"

    def run(self, ctx: CrawlContext) -> None:
        try:
            probe = ctx.session.driver.execute_script(blocking.PROBE_JS)
        except WebDriverException:
            probe = None
        kind, reason = blocking.classify(ctx.session.capture.document.status, probe)
        if kind:
            ctx.blocked = kind
            ctx.report.button.error_message = kind
            ctx.report.error = ErrorMessage(reason)


def page_outcome(ctx: CrawlContext) -> None:
    """Copy the main document's answer (``capture.document.MainDocument``) into the
    report: ``page_status``, ``final_url``, ``redirects``.  A chain longer than
    ``REDIRECTS_MAX`` keeps its first hops and says so in ``message``."""
    document, report = ctx.session.capture.document, ctx.report
    if document.request is None:
        return
    # An answer of the egress proxy's own (``document.error``) is no answer of the page.
    report.page_status, report.final_url = (None if document.error else document.status), document.url
    report.redirects = [RedirectHop(url=hop.url, status=hop.status) for hop in document.redirects]
    note = f"redirect chain longer than {REDIRECTS_MAX} hops: {document.redirects_dropped} later hops not reported"
    if document.redirects_dropped and note not in ctx.notes:
        ctx.notes.append(note)


class PageStatus(Step):
    """What the page finally answered (after the quiet wait: a script may have
    navigated), into the report (``page_outcome``).  A 4xx/5xx page that is not a
    block is ``success: false`` with ``error`` "the page answered HTTP <status>";
    the crawl goes on, so its pixels, cookies and consent are still reported.
    Raises CrawlFailed when the main document's network error (the egress proxy's
    answer) was only seen after ``Navigate``."""

    name, phase = "page_status", "probe"

    def run(self, ctx: CrawlContext) -> None:
        page_outcome(ctx)
        document = ctx.session.capture.document
        error = document.error if document.request == ctx.main_request else None  # not a later navigation's
        if error and not ctx.blocked:
            raise CrawlFailed(Navigate._refused(ctx) or f"navigation failed: {error}")
        status = ctx.report.page_status
        if not ctx.blocked and ctx.report.error is None and isinstance(status, int) and status >= 400:
            ctx.report.error = ErrorMessage(f"the page answered HTTP {status}")


class Consent(Step):
    """Find the consent banner and apply ``options.consentAction`` (click,
    verify, fall back).  Timeout: the crawl deadline."""

    name = phase = "consent"

    def applies(self, ctx: CrawlContext) -> bool:
        return not ctx.blocked

    def run(self, ctx: CrawlContext) -> None:
        action = ctx.consent.action
        consent = ctx.consent = handle_consent(ctx.session, ctx.settings, click=action != "none",
                                               deadline=ctx.deadline, action=action,
                                               auto=ctx.collectors.autoconsent)
        ctx.report.button.button_text, ctx.report.button.consent_banner = consent.button_text, consent.banner
        if consent.clicked and not consent.verified:
            ctx.report.message = (f"consent {consent.action} clicked ({', '.join(consent.attempts)}), but "
                                  "it was not verified (the banner stayed or no choice was stored)")


class ConsentSignals(Step):
    """Read the CMP APIs of every frame (TCF, US Privacy, GPP)."""

    name, phase = "consent_signals", "consent"

    def applies(self, ctx: CrawlContext) -> bool:
        return not ctx.blocked

    def run(self, ctx: CrawlContext) -> None:
        ctx.frames = collect_signals(ctx.session.driver)
        ctx.notes += signal_notes(ctx.frames)


class Flush(Step):
    """Fire ``visibilitychange``/``pagehide`` in every frame and wait for the
    requests they start (``engine/capture/flush.py``).  Timeout: ``flush_cap_ms``."""

    name = phase = "flush"

    def timeout_s(self, ctx: CrawlContext) -> float:
        return min(ctx.settings.flush_cap_ms / 1000.0, max(0.0, ctx.remaining_s()))

    def run(self, ctx: CrawlContext) -> None:
        s = ctx.settings
        flush_page(ctx.session.capture, s.flush_quiet_ms, int(self.timeout_s(ctx) * 1000), ctx.deadline,
                   s.flush_start_ms)


#: The crawl, in order.  Adding a page action: one Step subclass, one line here.
SEQUENCE: tuple[Step, ...] = (
    Navigate(),
    WaitQuiet("quiet"),
    CookiesBefore(),
    Screenshot("before"),
    DetectBlocking(),
    PageStatus(),
    Consent(),
    WaitQuiet("quiet_after", after_consent=True),
    ConsentSignals(),
    Screenshot("after"),
    Flush(),
    Collect(),
)
