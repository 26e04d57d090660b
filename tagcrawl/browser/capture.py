"""Network capture for one crawl, across every target of its browser context.

Fed by ``CDPConnection`` events (on the reader thread).  It configures every
target that auto-attach reports (page, same-site and out-of-process iframes,
dedicated/shared/service workers), records each request with its POST body,
and tracks activity (in-flight requests, pending short JS timers, DOM
mutations) so that ``wait_quiet`` can return as soon as the page is idle.
"""
from __future__ import annotations

import base64
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path

from ..egress.status import egress_error
from ..vendors.types import Request
from .emulation import worker_setup_commands
from .frames import FrameTracking
from .postdata import decode_entries, text_or_bytes
from .request_guard import RequestGuarding

log = logging.getLogger(__name__)

HOOKS_JS = (Path(__file__).with_name("page_hooks.js")).read_text()
BINDING = "__tcActivity"
PAGE_TYPES = {"page", "iframe"}
WORKER_TYPES = {"worker", "shared_worker", "service_worker"}
#: Pauses every request of a target for the request guard (``request_guard.py``).
FETCH_ENABLE = ("Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Request"}]})


#: JavaScript dialogs (alert, confirm, prompt) one crawl tolerates; past it the
#: page is hostile: its script is terminated and the crawl fails.
DIALOG_LIMIT = 20


class NetworkCapture(RequestGuarding, FrameTracking):
    """Requests and activity of one browser context.

    Args:
        cdp: the browser-level ``CDPConnection`` (set via ``bind``).
        context_id: the ``browserContextId`` to follow; other targets are ignored.
        page_setup: extra CDP commands ``[(method, params)]`` sent to each page
            and iframe session before it resumes (locale, timezone, user agent).
        request_guard: ``fn(url) -> reason | None``; when given, requests are
            paused (Fetch domain) and those with a reason are failed.
        timer_horizon_ms: timers up to this delay count as pending activity.
    """

    def __init__(self, context_id: str | None = None, page_setup: list | None = None,
                 request_guard: Callable[[str], str | None] | None = None, timer_horizon_ms: int = 4000,
                 late_horizon_ms: int = 10500):
        super().__init__()
        self.cdp = None
        self.context_id = context_id
        self.page_setup = page_setup or []
        self.request_guard = request_guard
        self.hooks_js = HOOKS_JS.replace("__HORIZON__", str(int(timer_horizon_ms))).replace(
            "__LATE__", str(int(late_horizon_ms)))
        self.requests: list[Request] = []
        self.datalayer: list = []
        self.main_status: int | None = None
        self.main_error: str | None = None
        self.blocked_urls: list[tuple[str, str]] = []
        self.sessions: dict[str, dict] = {}
        self.page_session: str | None = None
        self.page_target: str | None = None
        self._main_request: tuple | None = None
        self._shown: tuple | None = None  # (request key, status) of the document shown before a later navigation
        self.main_blocked: tuple[str, str] | None = None  # (url, reason) when the guard refused the main document
        # Main-document size cap (PAGE_MAX_BYTES, set by the crawl service): bytes
        # received per main request; past the cap the load is stopped.
        self.page_max_bytes: int | None = None
        self.page_too_large = False
        self._main_bytes: dict[tuple, int] = {}
        self.dialogs, self.dialog_storm = 0, False
        self._pending_bodies: dict[tuple, dict] = {}
        self._guard_executor = None

    # -- wiring -------------------------------------------------------------
    def bind(self, cdp) -> None:
        self.cdp = cdp

    def on_event(self, method: str, params: dict, session_id: str | None) -> None:
        """CDP event dispatcher (reader thread; never waits for replies)."""
        handler = self._HANDLERS.get(method)
        if handler is not None:
            handler(self, params, session_id)

    def _pending_work(self) -> bool:
        return bool(self._pending_bodies)

    # -- targets --------------------------------------------------------------
    def _attached(self, params: dict, parent: str | None) -> None:
        info, session = params["targetInfo"], params["sessionId"]
        kind = info.get("type")
        ours = self.context_id is None or info.get("browserContextId") == self.context_id
        if not ours or (kind not in PAGE_TYPES and kind not in WORKER_TYPES):
            if params.get("waitingForDebugger"):
                self.cdp.send("Runtime.runIfWaitingForDebugger", session_id=session)
            return
        self.sessions[session] = {"type": kind, "url": info.get("url"), "parent": parent}
        send = lambda m, p=None: self.cdp.send(m, p, session)  # noqa: E731
        if kind == "page" and parent is None and self.page_session is None:
            self.page_session = session
            self.page_target = info.get("targetId")
        for method, method_params in self._setup_for(kind):
            send(method, method_params)
        send("Network.enable", {"maxPostDataSize": 65536})
        if kind in PAGE_TYPES:
            send("Page.enable")
            send("Runtime.addBinding", {"name": BINDING})
            send("Page.addScriptToEvaluateOnNewDocument", {"source": self.hooks_js, "runImmediately": True})
            send("Runtime.enable")
        if self.request_guard is not None:
            send(*FETCH_ENABLE)
        send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})
        send("Runtime.runIfWaitingForDebugger")
        self._touch()

    def _setup_for(self, kind: str) -> list:
        """This crawl's setup commands for a target of type ``kind``: the page setup
        (user agent, Client Hints, locale, timezone) for pages and frames, its
        worker subset for workers."""
        return self.page_setup if kind in PAGE_TYPES else worker_setup_commands(self.page_setup)

    def adopt(self, spare: "NetworkCapture", cdp) -> None:
        """Take over a spare context's capture (``spare.py``): its DevTools
        connection, targets and frame contexts; then apply this crawl's page
        setup (user agent, Client Hints, locale, timezone) and request guard to
        the targets already attached.  The spare has loaded nothing."""
        self.cdp = cdp
        cdp.on_event = self.on_event
        with spare._cond, self._cond:
            self.context_id = spare.context_id
            self.sessions.update(spare.sessions)
            self.page_session, self.page_target = spare.page_session, spare.page_target
            self.frame_contexts |= spare.frame_contexts
        for session, info in list(self.sessions.items()):
            for method, method_params in self._setup_for(info["type"]):
                cdp.send(method, method_params, session)
            if self.request_guard is not None:
                cdp.send(*FETCH_ENABLE, session)
        self._touch()

    def _detached(self, params: dict, _session: str | None) -> None:
        gone = params.get("sessionId")
        self.sessions.pop(gone, None)
        with self._cond:
            self.frame_contexts = {c for c in self.frame_contexts if c[0] != gone}
            self._forget_session(gone)
            self._cond.notify_all()

    # -- network --------------------------------------------------------------
    def _request(self, params: dict, session: str | None) -> None:
        request = params.get("request", {})
        url = request.get("url", "")
        key = (session, params.get("requestId"))
        if not url.startswith(("http:", "https:")):
            return
        resource_type = params.get("type", "Other")
        # raw bytes first: postData is lossy for a binary (e.g. gzip) body
        body = decode_entries(request["postDataEntries"]) if request.get("postDataEntries") else None
        if body is None:
            body = request.get("postData")
        frame_url = params.get("documentURL") or self.sessions.get(session, {}).get("url")
        record = dict(url=url, method=request.get("method", "GET"), post_data=body,
                      resource_type=resource_type.lower(), frame_url=frame_url,
                      timestamp=(params.get("wallTime") or time.time()) * 1000.0,
                      headers=dict(request.get("headers") or {}))
        with self._cond:
            self._note_request(key[1], url, resource_type, session, record["method"])
            if resource_type == "Document":
                self._navigations[key[1]] = params.get("frameId")
            if resource_type == "Document" and params.get("frameId") == self.page_target and key != self._main_request:
                if self.main_status is not None:  # a document is shown: the page navigates on its own
                    self._shown = (self._main_request, self.main_status)
                self._main_request, self.main_status, self.main_error = key, None, None
            if body is None and request.get("hasPostData"):
                self._pending_bodies[key] = record
            else:
                self.requests.append(Request(**record))
            self._cond.notify_all()
        if key in self._pending_bodies:
            future = self.cdp.send("Network.getRequestPostData", {"requestId": key[1]}, session)
            future.add_done_callback(lambda f, k=key: self._body_arrived(k, f))

    def _body_arrived(self, key: tuple, future) -> None:
        with self._cond:
            record = self._pending_bodies.pop(key, None)
            if record is None:
                return
            try:
                result = future.result().get("result", {})
                data = result.get("postData")
                record["post_data"] = (text_or_bytes(base64.b64decode(data)) if result.get("base64Encoded")
                                       and isinstance(data, str) else data)
            except Exception:
                pass
            self.requests.append(Request(**record))
            self._cond.notify_all()

    def _response(self, params: dict, session: str | None) -> None:
        if (session, params.get("requestId")) == self._main_request:
            response = params.get("response", {})
            self.main_status = response.get("status")
            # An answer of the egress proxy's own (refusal, unreachable server) is a network error.
            self.main_error = self.main_error or egress_error(response.get("headers") or {})
        self._touch(activity=False)

    def _data(self, params: dict, session: str | None) -> None:
        """Count the main document's bytes; past ``page_max_bytes``, stop loading it."""
        key = (session, params.get("requestId"))
        if not self.page_max_bytes or key != self._main_request or self.page_too_large:
            return
        self._main_bytes[key] = self._main_bytes.get(key, 0) + int(params.get("dataLength") or 0)
        if self._main_bytes[key] > self.page_max_bytes:
            self.page_too_large = True
            self.cdp.send("Page.stopLoading", None, session)

    def _finished(self, params: dict, session: str | None) -> None:
        with self._cond:
            self._note_finished(params.get("requestId"))
            self._navigations.pop(params.get("requestId"), None)
            if (session, params.get("requestId")) == self._main_request and params.get("errorText"):
                if self._shown is not None:
                    # A navigation the page started (a link, a cross-origin <a download>) failed
                    # or was refused: the document already shown stays, the crawl goes on.
                    self._main_request, self.main_status = self._shown
                else:
                    self.main_error = params["errorText"]
            self._cond.notify_all()

    # -- page signals --------------------------------------------------------------
    def _binding(self, params: dict, session: str | None) -> None:
        if params.get("name") != BINDING:
            return
        try:
            message = json.loads(params.get("payload") or "{}")
        except ValueError:
            return
        with self._cond:
            if "dl" in message:
                self.datalayer.append(message["dl"])
            if "timers" in message:
                self._note_timers((session, message.get("w")), int(message["timers"]), int(message.get("late") or 0))
            else:
                self._last_change = time.monotonic()  # DOM mutation, dataLayer push
            self._cond.notify_all()

    def _dialog(self, _params: dict, session: str | None) -> None:
        """Dismiss every dialog; past DIALOG_LIMIT, end the page's script too
        (an endless alert() loop never yields) and wake the crawl's waits."""
        self.dialogs += 1
        if self.dialogs >= DIALOG_LIMIT:
            self.dialog_storm = True
            self.cdp.send("Runtime.terminateExecution", None, session)
        self.cdp.send("Page.handleJavaScriptDialog", {"accept": False}, session)
        if self.dialogs == DIALOG_LIMIT:
            self.abort()

    _HANDLERS = {
        **FrameTracking.FRAME_HANDLERS,
        "Target.attachedToTarget": _attached,
        "Target.detachedFromTarget": _detached,
        "Network.requestWillBeSent": _request,
        "Network.responseReceived": _response,
        "Network.loadingFinished": _finished,
        "Network.dataReceived": _data,
        "Network.loadingFailed": _finished,
        "Fetch.requestPaused": RequestGuarding._paused,
        "Runtime.bindingCalled": _binding,
        "Page.javascriptDialogOpening": _dialog,
    }

    def request_count(self) -> int:
        """Requests captured so far (those whose POST body is being fetched included)."""
        with self._cond:
            return len(self.requests) + len(self._pending_bodies)

    def snapshot(self) -> list[Request]:
        """Requests captured so far, in the order they were sent."""
        with self._cond:
            pending = [Request(**r) for r in self._pending_bodies.values()]
            return sorted(self.requests + pending, key=lambda r: r.timestamp)

