"""Page activity of one crawl, and waiting for it to end.

Activity is: requests in flight, JS timers pending (reported by the page
hooks), and the time of the last event (request, response, timer change, DOM
mutation).  ``wait_quiet`` returns as soon as nothing is pending and nothing
happened for the quiet window; it sleeps on a condition variable that every
event notifies, so it never polls and never waits longer than needed.
"""
from __future__ import annotations

import threading
import time

#: Resource types whose completion can start more requests (a tag library);
#: other in-flight requests (beacons, keepalive fetches, long polls) stop
#: counting as activity after STALE_MS.
BLOCKING_TYPES = {"Document", "Script"}
STALE_MS = 1500


class Activity:
    """Thread-safe activity state, fed by the capture's CDP handlers."""

    def __init__(self):
        # requestId -> (started, resource type, session).  Keyed by requestId
        # alone: a cross-site frame's navigation starts in the parent's session
        # and finishes in the out-of-process iframe's session.
        self._inflight: dict[str, tuple[float, str, str | None]] = {}
        self._timers: dict[tuple, int] = {}
        self._late_timers: dict[tuple, int] = {}
        self._last_activity = time.monotonic()
        self._cond = threading.Condition()
        self.aborted = False

    def _touch(self) -> None:
        with self._cond:
            self._last_activity = time.monotonic()
            self._cond.notify_all()

    def _forget_session(self, session: str | None) -> None:
        """Drop what a detached target had pending (caller holds the lock)."""
        for key in [k for k, v in self._inflight.items() if v[2] == session]:
            self._inflight.pop(key, None)
        for key in [k for k in self._timers if k[0] == session]:
            self._timers.pop(key, None)
            self._late_timers.pop(key, None)

    def _pending_work(self) -> bool:
        """Extra work that keeps the page busy (subclasses: POST bodies being fetched)."""
        return False

    # -- waiting ---------------------------------------------------------------
    def _busy(self, now: float) -> bool:
        for started, resource_type, _session in self._inflight.values():
            if resource_type in BLOCKING_TYPES or (now - started) * 1000 < STALE_MS:
                return True
        return self._pending_work() or any(n > 0 for n in self._timers.values())

    def wait_quiet(self, quiet_ms: int, cap_ms: int, deadline: float | None = None) -> bool:
        """Block until no activity for ``quiet_ms`` and nothing pending, or
        ``cap_ms`` elapsed, or ``deadline`` (monotonic seconds) passed.

        Returns True when the page went quiet, False on the cap/deadline.
        Woken by CDP events through a condition variable; never polls.
        """
        end = time.monotonic() + cap_ms / 1000.0
        if deadline is not None:
            end = min(end, deadline)
        with self._cond:
            while not self.aborted:
                now = time.monotonic()
                idle_for = now - self._last_activity
                if not self._busy(now) and idle_for * 1000 >= quiet_ms:
                    return True
                if now >= end:
                    return False
                wake = min(end, self._last_activity + quiet_ms / 1000.0) if not self._busy(now) else end
                stale = [s + STALE_MS / 1000.0 for s, t, _ in self._inflight.values() if t not in BLOCKING_TYPES]
                if stale:
                    wake = min([wake] + [s for s in stale if s > now])
                self._cond.wait(timeout=max(0.005, wake - now))
        return False

    def wait_dom_change(self, since: float, timeout_s: float) -> bool:
        """Block until a DOM mutation or timer change after ``since``
        (monotonic), or ``timeout_s``.  Returns True when something changed."""
        end = time.monotonic() + timeout_s
        with self._cond:
            while not self.aborted and self._last_activity <= since:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(timeout=remaining)
            return not self.aborted

    def idle(self, quiet_ms: int = 0, include_late: bool = False) -> bool:
        """True when nothing is pending and nothing happened for ``quiet_ms``.
        ``include_late``: timers up to the late horizon (late banners) count too."""
        with self._cond:
            now = time.monotonic()
            if include_late and any(n > 0 for n in self._late_timers.values()):
                return False
            return not self._busy(now) and (now - self._last_activity) * 1000 >= quiet_ms

    def abort(self) -> None:
        """Wake every waiter; used by the crawl deadline watchdog."""
        with self._cond:
            self.aborted = True
            self._cond.notify_all()
