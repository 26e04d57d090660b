"""Guards: collectors that protect the crawl rather than record the page.

- ``RequestGuard`` (``ssrf``): with a guard function (``netguard.url_refusal``),
  the requests of every target pause at the Fetch "Request" stage and are
  decided off the CDP reader thread (the guard may resolve DNS); a refused
  one is failed with ``BlockedByClient``.  Behind the egress proxy (the
  boundary for every connection, docs/security.md) only documents pause:
  navigations of the page and its frames, redirects included, so that a
  refused page gets its reason; without the proxy, every request does;
- ``PageSizeGuard`` (``page_size``): counts the main document's bytes and
  stops loading past ``PAGE_MAX_BYTES``;
- ``DialogGuard`` (``dialogs``): dismisses every JavaScript dialog; past
  ``DIALOG_LIMIT`` it ends the page's script and aborts the crawl's waits.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tagcrawl.engine.collectors.base import Collector, Context, Target

#: Pauses every request of a target for the request guard (no egress proxy).
FETCH_ENABLE = ("Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]})
#: Pauses only document requests (navigations of the page and its frames, each
#: redirect hop included): the egress proxy judges every connection, the guard
#: only names the reason when the page itself is refused.
FETCH_ENABLE_DOCUMENTS = ("Fetch.enable", {"patterns": [{"urlPattern": "*", "resourceType": "Document",
                                                         "requestStage": "Request"}]})
#: JavaScript dialogs (alert, confirm, prompt) one crawl tolerates; past it the
#: page is hostile: its script is terminated and the crawl fails.
DIALOG_LIMIT = 20


@dataclass
class Refusals:
    """What the request guard refused: ``blocked`` ``[(url, reason)]``;
    ``main`` ``(url, reason)`` when the main document (or a redirect of it) was one."""

    blocked: list[tuple[str, str]] = field(default_factory=list)
    main: tuple[str, str] | None = None


class RequestGuard(Collector):
    """The SSRF guard on every request (Fetch domain).

    Args:
        guard: ``fn(url) -> reason | None`` (may block on DNS).
        documents_only: pause only document requests (the egress proxy is on
            and judges the rest); False: every request.
    ``get_data`` -> ``Refusals``.
    """

    name = "ssrf"

    def __init__(self, guard: Callable[[str], str | None], documents_only: bool = False):
        super().__init__()
        self.guard = guard
        self.documents_only = documents_only
        self.refusals = Refusals()
        self._executor: ThreadPoolExecutor | None = None
        self.events = {"Fetch.requestPaused": self._paused}

    def add_target(self, target: Target) -> list:
        return [FETCH_ENABLE_DOCUMENTS if self.documents_only else FETCH_ENABLE]

    def _paused(self, params: dict, session: str | None) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="request-guard")
        self._executor.submit(self._decide, params, session)

    def _decide(self, params: dict, session: str | None) -> None:
        url = params.get("request", {}).get("url", "")
        reason = self.guard(url)
        if reason:
            self.refusals.blocked.append((url, reason))
            main = self.hub.main_request
            if main is not None and params.get("networkId") == main[1]:
                self.refusals.main = (url, reason)
            self.hub.send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"},
                          session)
            if params.get("networkId"):
                # Failed by us: it is over now, even if Chrome never reports it (a navigation
                # cancelled by the next one sends no loadingFailed) and must not stay in flight.
                self.hub.note_finished({"requestId": params["networkId"], "errorText": "net::ERR_BLOCKED_BY_CLIENT"},
                                       session)
        else:
            self.hub.send("Fetch.continueRequest", {"requestId": params["requestId"]}, session)

    def get_data(self, ctx: Context) -> Refusals:
        return self.refusals

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


class PageSizeGuard(Collector):
    """Stops the main document past ``max_bytes`` (bytes received, per main
    request).  ``get_data`` -> True when it stopped one (``too_large``)."""

    name = "page_size"

    def __init__(self, max_bytes: int | None):
        super().__init__()
        self.max_bytes = max_bytes
        self.too_large = False
        self._bytes: dict[tuple, int] = {}
        self.events = {"Network.dataReceived": self._data}

    def _data(self, params: dict, session: str | None) -> None:
        key = (session, params.get("requestId"))
        if not self.max_bytes or key != self.hub.main_request or self.too_large:
            return
        self._bytes[key] = self._bytes.get(key, 0) + int(params.get("dataLength") or 0)
        if self._bytes[key] > self.max_bytes:
            self.too_large = True
            self.hub.send("Page.stopLoading", None, session)

    def get_data(self, ctx: Context) -> bool:
        return self.too_large


class DialogGuard(Collector):
    """Dismisses JavaScript dialogs.  ``count``: dialogs seen; ``storm``: past
    ``DIALOG_LIMIT`` (the crawl fails).  ``get_data`` -> ``count``."""

    name = "dialogs"

    def __init__(self):
        super().__init__()
        self.count, self.storm = 0, False
        self.events = {"Page.javascriptDialogOpening": self._dialog}

    def _dialog(self, _params: dict, session: str | None) -> None:
        """Dismiss every dialog; past DIALOG_LIMIT, end the page's script too
        (an endless alert() loop never yields) and wake the crawl's waits."""
        self.count += 1
        if self.count >= DIALOG_LIMIT:
            self.storm = True
            self.hub.send("Runtime.terminateExecution", None, session)
        self.hub.send("Page.handleJavaScriptDialog", {"accept": False}, session)
        if self.count == DIALOG_LIMIT:
            self.hub.abort()

    def get_data(self, ctx: Context) -> int:
        return self.count
