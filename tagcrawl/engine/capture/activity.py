"""Page activity of one crawl, and waiting for it to end.

"Quiet" means: no NEW request that could be a tag for the quiet window, and
nothing pending that is about to send one.  What real SDKs keep running does
not hold the crawl:

- a request counts when it STARTS; requests in flight count only while they
  can still lead to more requests (a document or script being loaded, up to
  ``SCRIPT_STALE_MS``; an XHR/fetch whose answer may load a tag, up to
  ``STALE_MS``); images, beacons, long-polls, EventSource, WebSockets and
  never-ending requests are not waited for;
- a request to an endpoint (host + path) already hit ``REPEAT_LIMIT`` times is
  a repeat (polling, heartbeats, batches), not new activity;
- JS timers up to the horizon are pending work (late tags) until they are due,
  and a timer coming due is activity (it may start a tag); a timer set again
  from a call site whose timer already fired is recurring (polling,
  heartbeats) and is not reported by the page hooks; a ``setInterval`` is
  pending until its first tick when that is due within the horizon (SDK
  queues flushed on it), never after;
- DOM mutations wake ``wait_dom_change`` (late consent banners) but do not
  restart the quiet window (animations, carousels).

``wait_quiet`` sleeps on a condition variable that every event notifies; it
never polls.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

#: Resource types whose completion can start more requests (a tag library).
BLOCKING_TYPES = {"Document", "Script"}
SCRIPT_STALE_MS = 5000
#: GET XHR/fetch answers may load a tag (a tag manager's config): waited for up to
#: STALE_MS.  POSTs send data (beacons, batches; keepalive fetches may never report
#: their end to DevTools): their start is what counts.
ANSWER_TYPES = {"XHR", "Fetch"}
STALE_MS = 1500
#: Request types that are never tags (streams, media).
NOT_TAGS = {"EventSource", "WebSocket", "Media", "Manifest", "Preflight", "CSPViolationReport"}
#: Requests to one endpoint that count as new activity; later ones are repeats.
REPEAT_LIMIT = 2


class Activity:
    """Thread-safe activity state of one crawl, and the waits on it.  Owned by
    the capture hub (``hub.NetworkCapture``), fed by its CDP handlers and by
    ``frames.FrameTracking``; every ``note_*`` and ``forget_*`` takes the lock
    itself (``cond`` is re-entrant) and wakes the waiters.

    Args:
        pending_work: ``fn() -> bool``, called under the lock: extra work that
            keeps the page busy (the collectors' POST bodies being fetched).
    Attributes:
        cond: the lock and condition variable of the whole capture.
        requests_seen: HTTP(S) requests started (redirect hops included).
        last_new_request: monotonic s of the last request counted as new.
        aborted: ``abort`` was called; every wait returns at once.
    """

    def __init__(self, pending_work: Callable[[], bool] = lambda: False):
        # requestId -> (started, resource type, session).  Keyed by requestId
        # alone: a cross-site frame's navigation starts in the parent's session
        # and finishes in the out-of-process iframe's session.
        self._inflight: dict[str, tuple[float, str, str | None]] = {}  # POST XHR/fetch: type "Beacon"
        # (session, document) -> monotonic s when its last pending timer (up to the horizon / late) is due
        self._timers: dict[tuple, float] = {}
        self._late_timers: dict[tuple, float] = {}
        self._endpoints: dict[tuple, int] = {}
        self._last_activity = time.monotonic()  # last new request / pending-work change (quiet window)
        self._last_change = self._last_activity  # last event of any kind (wait_dom_change)
        self._pending_work = pending_work
        self.last_new_request = 0.0
        self.requests_seen = 0
        self.cond = threading.Condition()  # an RLock inside: the hub's handlers nest their calls
        self.aborted = False

    def touch(self, activity: bool = True) -> None:
        """Record an event; ``activity`` False for changes that do not restart
        the quiet window (a DOM mutation, a response, a dataLayer item)."""
        with self.cond:
            self._last_change = time.monotonic()
            if activity:
                self._last_activity = self._last_change
            self.cond.notify_all()

    def note_request(self, request_id: str, url: str, resource_type: str, session: str | None,
                     method: str = "GET") -> None:
        """An HTTP(S) request started (CDP ``Network.requestWillBeSent``)."""
        now = time.monotonic()
        with self.cond:
            self.requests_seen += 1
            self._last_change = now
            self.cond.notify_all()
            if resource_type in NOT_TAGS:
                return
            waited_type = "Beacon" if resource_type in ANSWER_TYPES and method != "GET" else resource_type
            self._inflight[request_id] = (now, waited_type, session)
            parts = urlsplit(url)
            key = (parts.hostname, parts.path)
            self._endpoints[key] = self._endpoints.get(key, 0) + 1
            if self._endpoints[key] <= REPEAT_LIMIT or resource_type in BLOCKING_TYPES:
                self._last_activity = self.last_new_request = now

    def note_finished(self, request_id: str) -> None:
        """A request ended.  Its end restarts the quiet window only when it was
        still being waited for."""
        now = time.monotonic()
        with self.cond:
            self._last_change = now
            entry = self._inflight.pop(request_id, None)
            if entry is not None and self._waited_for(entry, now):
                self._last_activity = now
            self.cond.notify_all()

    def note_timers(self, key: tuple, due_ms: int, late_ms: int) -> None:
        """Pending (non-recurring) timers of document ``key`` (``(session,
        document id)``) changed: the last one up to the horizon is due in
        ``due_ms``, the last late one in ``late_ms`` (0: none)."""
        now = time.monotonic()
        with self.cond:
            self._timers[key] = now + due_ms / 1000.0
            self._late_timers[key] = now + late_ms / 1000.0
            self._last_activity = self._last_change = now
            self.cond.notify_all()

    def forget_request(self, request_id: str) -> None:
        """Stop waiting for a request that will report no end (a cancelled navigation)."""
        with self.cond:
            self._inflight.pop(request_id, None)
            self.cond.notify_all()

    def forget_timers(self, session: str | None) -> None:
        """A target's main frame committed a new document: its old documents'
        timers are gone (also when ``pagehide`` was not reported); counts as activity."""
        with self.cond:
            for key in [k for k in self._timers if k[0] == session]:
                self._timers.pop(key, None)
                self._late_timers.pop(key, None)
            self.touch()

    def forget_session(self, session: str | None) -> None:
        """Drop what a detached target had pending."""
        with self.cond:
            for key in [k for k, v in self._inflight.items() if v[2] == session]:
                self._inflight.pop(key, None)
            for key in [k for k in self._timers if k[0] == session]:
                self._timers.pop(key, None)
                self._late_timers.pop(key, None)
            self.cond.notify_all()

    # -- waiting ---------------------------------------------------------------
    @staticmethod
    def _waited_for(entry: tuple, now: float) -> bool:
        started, resource_type, _session = entry
        age_ms = (now - started) * 1000
        if resource_type in BLOCKING_TYPES:
            return age_ms < SCRIPT_STALE_MS
        return resource_type in ANSWER_TYPES and age_ms < STALE_MS

    def _busy(self, now: float) -> bool:
        if any(self._waited_for(entry, now) for entry in self._inflight.values()):
            return True
        return self._pending_work() or any(due > now for due in self._timers.values())

    def _last_event(self, now: float) -> float:
        """The last activity (monotonic s): a new request, a change of pending
        work, or a pending timer coming due (it may have started a tag)."""
        came_due = [due for due in self._timers.values() if due <= now]
        return max([self._last_activity, *came_due])

    def _next_stale(self, now: float) -> float | None:
        """When the next waited-for request stops being waited for, or the next
        pending timer is due (monotonic s)."""
        times = [e[0] + (SCRIPT_STALE_MS if e[1] in BLOCKING_TYPES else STALE_MS) / 1000.0
                 for e in self._inflight.values() if self._waited_for(e, now)]
        times += [due for due in self._timers.values() if due > now]
        return min(times) if times else None

    def wait_quiet(self, quiet_ms: int, cap_ms: int, deadline: float | None = None,
                   since: float | None = None) -> bool:
        """Block until no new request for ``quiet_ms`` and nothing pending, or
        ``cap_ms`` elapsed, or ``deadline`` (monotonic seconds) passed.

        Args:
            since: monotonic seconds; the quiet window starts no earlier than
                this (the flush: wait ``quiet_ms`` after the events were fired).
        Returns:
            True when the page went quiet, False on the cap/deadline.
        Woken by CDP events through a condition variable; never polls.
        """
        end = time.monotonic() + cap_ms / 1000.0
        if deadline is not None:
            end = min(end, deadline)
        with self.cond:
            while not self.aborted:
                now = time.monotonic()
                last = max(self._last_event(now), since or 0.0)
                busy = self._busy(now)
                if not busy and (now - last) * 1000 >= quiet_ms:
                    return True
                if now >= end:
                    return False
                wake = end if busy else min(end, last + quiet_ms / 1000.0)
                stale = self._next_stale(now)
                if stale is not None:
                    wake = min(wake, stale)
                self.cond.wait(timeout=max(0.005, wake - now))
        return False

    def _wait_until(self, happened, end: float) -> bool:
        """Block until ``happened()`` (checked under the lock) or monotonic ``end``;
        True when it happened and the wait was not aborted."""
        with self.cond:
            while not self.aborted and not happened():
                remaining = end - time.monotonic()
                if remaining <= 0:
                    return False
                self.cond.wait(timeout=remaining)
            return not self.aborted

    def wait_new_request(self, since: float, timeout_ms: int, deadline: float | None = None) -> bool:
        """Block until a request counted as new starts after ``since``
        (monotonic s), or ``timeout_ms``/``deadline``.  True when one started."""
        end = time.monotonic() + timeout_ms / 1000.0
        if deadline is not None:
            end = min(end, deadline)
        return self._wait_until(lambda: self.last_new_request > since, end)

    def wait_dom_change(self, since: float, timeout_s: float) -> bool:
        """Block until a DOM mutation, request or timer change after ``since``
        (monotonic), or ``timeout_s``.  Returns True when something changed."""
        return self._wait_until(lambda: self._last_change > since, time.monotonic() + timeout_s)

    def idle(self, quiet_ms: int = 0, include_late: bool = False) -> bool:
        """True when nothing is pending and no new request for ``quiet_ms``.
        ``include_late``: timers up to the late horizon (late banners) count too."""
        with self.cond:
            now = time.monotonic()
            if include_late and any(due > now for due in self._late_timers.values()):
                return False
            return not self._busy(now) and (now - self._last_event(now)) * 1000 >= quiet_ms

    def abort(self) -> None:
        """Wake every waiter; used by the crawl deadline watchdog."""
        with self.cond:
            self.aborted = True
            self.cond.notify_all()
