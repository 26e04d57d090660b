"""Request guard of one crawl's capture (a mixin of ``NetworkCapture``).

With a ``request_guard`` (``fn(url) -> reason | None``, see ``netguard``), the
capture enables the Fetch domain: every request pauses at the "Request" stage
(``Fetch.requestPaused``) and is decided off the CDP reader thread, because the
guard may resolve DNS.  A refused request is failed with ``BlockedByClient``
and recorded in ``blocked_urls``; a refused main document also in
``main_blocked``.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


class RequestGuarding:
    """Fetch-domain request guard.  The capture provides ``cdp``,
    ``request_guard``, ``blocked_urls`` (list of ``(url, reason)``),
    ``main_blocked``, ``_main_request`` ((session, requestId) or None) and
    ``_finished(params, session)``."""

    request_guard: Callable[[str], str | None] | None = None
    _guard_executor: ThreadPoolExecutor | None = None

    def _paused(self, params: dict, session: str | None) -> None:
        # The guard may resolve DNS: decide off the reader thread.
        if self._guard_executor is None:
            self._guard_executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="request-guard")
        self._guard_executor.submit(self._decide, params, session)

    def _decide(self, params: dict, session: str | None) -> None:
        url = params.get("request", {}).get("url", "")
        reason = self.request_guard(url) if self.request_guard else None
        if reason:
            self.blocked_urls.append((url, reason))
            if self._main_request is not None and params.get("networkId") == self._main_request[1]:
                self.main_blocked = (url, reason)
            self.cdp.send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"}, session)
            if params.get("networkId"):
                # Failed by us: it is over now, even if Chrome never reports it (a navigation
                # cancelled by the next one sends no loadingFailed) and must not stay in flight.
                self._finished({"requestId": params["networkId"], "errorText": "net::ERR_BLOCKED_BY_CLIENT"}, session)
        else:
            self.cdp.send("Fetch.continueRequest", {"requestId": params["requestId"]}, session)

    def close(self) -> None:
        """Release the guard's threads (end of the crawl)."""
        if self._guard_executor is not None:
            self._guard_executor.shutdown(wait=False, cancel_futures=True)

