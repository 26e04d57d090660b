"""Flush what the page queued: do what a leaving visitor's browser does.

Analytics SDKs batch events and send the batch on a timer, or at once when the
page is hidden or left (``visibilitychange`` to hidden, ``pagehide``), with
``navigator.sendBeacon`` or ``fetch(..., {keepalive: true})``.  Before the
final collection the crawl fires those two events in every frame (the main
world of each frame, out-of-process iframes included), with
``document.visibilityState`` reading "hidden".  Then it freezes the page and
resumes it at once (CDP ``Page.setWebLifecycleState``, what Chrome does to a
tab in the background): the page gets *trusted* ``freeze`` and ``resume``
events, for SDKs that ignore synthetic ones (the Datadog browser SDK checks
``isTrusted`` and flushes on ``freeze``).  One short, event-driven window,
counted from the first events, waits for the requests all of them start.
Nothing navigates: the page stays loaded (the "after" screenshot is taken
before).
"""
from __future__ import annotations

import logging
import time
from concurrent.futures import wait
from dataclasses import dataclass

from tagcrawl.engine.scripts import script

log = logging.getLogger(__name__)

#: Runs in each frame's main world (``leave.js``): the page hooks' API (``__API__``:
#: ``PageHooks.api()``) fires the events; a frame without the hooks gets them from the script.
LEAVE_JS = script(__file__, "leave.js")


@dataclass
class FlushResult:
    """What the flush did.

    Attributes:
        frames: frames the events were fired in.
        requests: requests counted as new that started during the flush window.
        quiet: True when the window ended on quiet, False on its cap.
        frozen: True when the page was frozen and resumed.
    """

    frames: int = 0
    requests: int = 0
    quiet: bool = True
    frozen: bool = False


def _freeze_and_resume(capture, end: float) -> bool:
    """Freeze the crawl's page and resume it (``Page.setWebLifecycleState``
    ``frozen``, then ``active``): the page's ``freeze`` and ``resume`` listeners
    run with trusted events.  Each command is waited for until ``end``
    (monotonic seconds).  Returns True when both succeeded; never raises (the
    resume is sent even when the freeze failed or timed out)."""
    session = capture.page_session
    if capture.cdp is None or session is None:
        return False
    ok = True
    for state in ("frozen", "active"):
        future = capture.cdp.send("Page.setWebLifecycleState", {"state": state}, session)
        done, _ = wait([future], timeout=max(0.05, end - time.monotonic()))
        ok = ok and bool(done) and future.exception() is None and "error" not in (future.result() or {})
    return ok


def flush_page(capture, quiet_ms: int = 300, cap_ms: int = 2000, deadline: float | None = None,
               start_ms: int = 50) -> FlushResult:
    """Fire ``visibilitychange`` (hidden) and ``pagehide`` in every frame of the
    crawl's page, then wait for what they send: when no new request starts
    within ``start_ms`` the window ends there (nothing was queued); otherwise
    it ends ``quiet_ms`` after the last new request.  The page is frozen and
    resumed (trusted ``freeze``/``resume``, :func:`_freeze_and_resume`) right
    after the events, before that one window, which counts requests from the
    moment the events were fired (a page with nothing queued waits
    ``start_ms`` once, not once per event set).  It lasts at most ``cap_ms``.
    ``sendBeacon`` and keepalive fetches start inside the event handlers, so
    they show up within a few ms.

    Args:
        capture: the crawl's ``NetworkCapture`` (its CDP connection and frame contexts).
        quiet_ms: ms without a new request that end the window once requests came.
        cap_ms: longest window, ms.
        deadline: monotonic seconds; the window never goes past it.
        start_ms: ms to wait for the first request the events cause.
    Returns:
        FlushResult.  Never raises: a frame that is gone is skipped.
    """
    result = FlushResult()
    contexts = capture.contexts()
    if capture.cdp is None or not contexts:
        return result
    before = capture.request_count()
    end = time.monotonic() + cap_ms / 1000.0
    if deadline is not None:
        end = min(end, deadline)
    leave = LEAVE_JS.replace("__API__", capture.hooks.api())
    futures = [capture.cdp.send("Runtime.evaluate", {"expression": leave, "contextId": context_id,
                                                     "returnByValue": True, "awaitPromise": True}, session)
               for session, context_id in contexts]
    done, _ = wait(futures, timeout=max(0.1, end - time.monotonic()))
    result.frames = sum(1 for f in done if f.exception() is None and "result" in f.result()
                        and "exceptionDetails" not in f.result()["result"])
    fired = time.monotonic()
    if time.monotonic() < end:
        result.frozen = _freeze_and_resume(capture, end)
    # One window for both: what the events and the freeze started counts from ``fired``.
    if capture.wait_new_request(fired, min(start_ms, cap_ms), end):
        result.quiet = capture.wait_quiet(quiet_ms, cap_ms, end, since=fired)
    result.requests = capture.request_count() - before
    log.debug("flush: fired in %d frames, frozen %s, %d requests after", result.frames, result.frozen,
              result.requests)
    return result
