"""The capture hub of one crawl, across every target of its browser context.

Fed by ``CDPConnection`` events (reader thread), it configures every target
auto-attach reports (page, same-site and out-of-process iframes, dedicated/
shared/service workers), follows the main document (status, error, the page's
own navigations) and tracks activity (requests, short JS timers, DOM
mutations) for ``wait_quiet``.  It sends each collector's (``tagcrawl/
collectors``) ``add_target`` commands to every target and dispatches CDP
events to their ``events``; a failing collector is logged and recorded in
``failures`` and stops neither the hub nor the others.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from tagcrawl.engine.egress.status import egress_error
from tagcrawl.engine.identity.emulation import worker_setup_commands
from tagcrawl.engine.capture.frames import FrameTracking
from tagcrawl.engine.capture.hooks import PageHooks, timer_update

log = logging.getLogger(__name__)

PAGE_TYPES = {"page", "iframe"}
WORKER_TYPES = {"worker", "shared_worker", "service_worker"}


@dataclass(frozen=True)
class Target:
    """A target of the crawl's context, as ``Collector.add_target`` gets it.

    Attributes:
        session: its flattened CDP session id.
        type: "page", "iframe", "worker", "shared_worker" or "service_worker".
        url: its URL when attached.
        parent: the session id of the target that attached it, or None.
    """

    session: str
    type: str
    url: str | None = None
    parent: str | None = None


def guarded(collector, failures: dict[str, str], what: str, call, *args, default=None):
    """Run ``call(*args)`` for ``collector``; on an exception, log it, record
    ``failures[collector.name] = "<what>: <error>"`` (the first one) and return
    ``default``: one collector failing never stops the others."""
    try:
        return call(*args)
    except Exception as exc:
        log.exception("collector %s failed in %s", collector.name, what)
        failures.setdefault(collector.name, f"{what}: {exc.__class__.__name__}: {exc}")
        return default


class NetworkCapture(FrameTracking):
    """Targets, main document and activity of one browser context; dispatches
    CDP events to the crawl's collectors.

    Args:
        context_id: the ``browserContextId`` to follow; other targets are ignored.
        page_setup: extra CDP commands ``[(method, params)]`` sent to each page
            and iframe session before it resumes (locale, timezone, user agent);
            workers get their subset.
        timer_horizon_ms, late_horizon_ms: timers up to these delays count as
            pending activity / as late work (``page_hooks.js``).
    Attributes (besides those below): ``hooks``, the crawl's ``hooks.PageHooks``
    (random binding name and key; a spare's are taken over by ``adopt``).
        collectors: ``tagcrawl.engine.collectors.base.Collector`` objects; each gets
            ``hub`` set to this capture.
    Attributes:
        main_status, main_error: HTTP status / network error of the main document.
        main_request: ``(session, requestId)`` of the main document, or None.
        failures: collector name -> what failed (``collectors.base.guarded``).
    """

    def __init__(self, context_id: str | None = None, page_setup: list | None = None,
                 timer_horizon_ms: int = 4000, late_horizon_ms: int = 10500, collectors=()):
        super().__init__()
        self.cdp = None
        self.context_id = context_id
        self.page_setup = page_setup or []
        self.hooks = PageHooks.new(timer_horizon_ms, late_horizon_ms)
        self.main_status: int | None = None
        self.main_error: str | None = None
        self.sessions: dict[str, dict] = {}
        self.page_session: str | None = None
        self.page_target: str | None = None
        self.main_request: tuple | None = None
        self._shown: tuple | None = None  # (request key, status) of the document shown before a later navigation
        self._requests_seen = 0
        self.collectors = list(collectors)
        self.failures: dict[str, str] = {}
        self._dispatch: dict[str, list] = {}
        for collector in self.collectors:
            collector.hub = self
            for method, handler in collector.events.items():
                self._dispatch.setdefault(method, []).append((collector, handler))

    # -- wiring -------------------------------------------------------------
    @property
    def cond(self):
        """The hub's lock and condition variable (collectors notify waiters with it)."""
        return self._cond

    def bind(self, cdp) -> None:
        self.cdp = cdp

    def collector(self, name: str):
        """The collector called ``name``, or None."""
        return next((c for c in self.collectors if c.name == name), None)

    def on_event(self, method: str, params: dict, session_id: str | None) -> None:
        """CDP event dispatcher (reader thread; never waits for replies): the
        hub's own handler, then each collector's, each one guarded."""
        handler = self._HANDLERS.get(method)
        if handler is not None:
            handler(self, params, session_id)
        for collector, handler in self._dispatch.get(method, ()):
            self._guarded(collector, method, handler, params, session_id)

    def _guarded(self, collector, what: str, call, *args, default=None):
        return guarded(collector, self.failures, what, call, *args, default=default)

    def _pending_work(self) -> bool:
        return any(self._guarded(c, "busy", c.busy, default=False) for c in self.collectors)

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
            send("Runtime.addBinding", {"name": self.hooks.binding})
            send("Page.addScriptToEvaluateOnNewDocument", {"source": self.hooks.script, "runImmediately": True})
            send("Runtime.enable")
        for method, method_params in self._collector_setup(Target(session, kind, info.get("url"), parent)):
            send(method, method_params)
        send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})
        send("Runtime.runIfWaitingForDebugger")
        self._touch()

    def _setup_for(self, kind: str) -> list:
        """This crawl's setup commands for a target of type ``kind``: the page setup
        (user agent, Client Hints, locale, timezone) for pages and frames, its
        worker subset for workers."""
        return self.page_setup if kind in PAGE_TYPES else worker_setup_commands(self.page_setup)

    def _collector_setup(self, target: Target) -> list:
        """Every collector's ``add_target`` commands for ``target``, in collector order."""
        commands = []
        for collector in self.collectors:
            commands += self._guarded(collector, "add_target", collector.add_target, target, default=[]) or []
        return commands

    def adopt(self, spare: "NetworkCapture", cdp) -> None:
        """Take over a spare context's capture (``spare.py``): its DevTools
        connection, targets, frame contexts and page hooks (their binding name
        and key); then send this crawl's page setup (user agent, Client Hints, locale, timezone) and its collectors'
        target commands to the targets already attached.  The spare has
        loaded nothing."""
        self.cdp = cdp
        cdp.on_event = self.on_event
        with spare._cond, self._cond:
            self.context_id = spare.context_id
            self.hooks = spare.hooks
            self.sessions.update(spare.sessions)
            self.page_session, self.page_target = spare.page_session, spare.page_target
            self.frame_contexts |= spare.frame_contexts
        for session, info in list(self.sessions.items()):
            for method, method_params in self._setup_for(info["type"]):
                cdp.send(method, method_params, session)
            for method, method_params in self._collector_setup(Target(session, info["type"], info.get("url"),
                                                                      info.get("parent"))):
                cdp.send(method, method_params, session)
        self._touch()

    def target_url(self, session: str | None) -> str | None:
        """The URL a target had when it attached, or None."""
        return self.sessions.get(session, {}).get("url")

    def _detached(self, params: dict, _session: str | None) -> None:
        gone = params.get("sessionId")
        self.sessions.pop(gone, None)
        with self._cond:
            self.frame_contexts = {c for c in self.frame_contexts if c[0] != gone}
            self._forget_session(gone)
            self._cond.notify_all()

    # -- main document and activity --------------------------------------------
    def _request(self, params: dict, session: str | None) -> None:
        request = params.get("request", {})
        url = request.get("url", "")
        key = (session, params.get("requestId"))
        if not url.startswith(("http:", "https:")):
            return
        resource_type = params.get("type", "Other")
        with self._cond:
            self._requests_seen += 1
            self._note_request(key[1], url, resource_type, session, request.get("method", "GET"))
            if resource_type == "Document":
                self._navigations[key[1]] = params.get("frameId")
            if resource_type == "Document" and params.get("frameId") == self.page_target and key != self.main_request:
                if self.main_status is not None:  # a document is shown: the page navigates on its own
                    self._shown = (self.main_request, self.main_status)
                self.main_request, self.main_status, self.main_error = key, None, None
            self._cond.notify_all()

    def _response(self, params: dict, session: str | None) -> None:
        if (session, params.get("requestId")) == self.main_request:
            response = params.get("response", {})
            self.main_status = response.get("status")
            # An answer of the egress proxy's own (refusal, unreachable server) is a network error.
            self.main_error = self.main_error or egress_error(response.get("headers") or {})
        self._touch(activity=False)

    def note_finished(self, params: dict, session: str | None) -> None:
        """A request ended (``Network.loadingFinished`` / ``loadingFailed``
        params, or a guard's refusal: ``{requestId, errorText}``)."""
        with self._cond:
            self._note_finished(params.get("requestId"))
            self._navigations.pop(params.get("requestId"), None)
            if (session, params.get("requestId")) == self.main_request and params.get("errorText"):
                if self._shown is not None:
                    # A navigation the page started (a link, a cross-origin <a download>) failed
                    # or was refused: the document already shown stays, the crawl goes on.
                    self.main_request, self.main_status = self._shown
                else:
                    self.main_error = params["errorText"]
            self._cond.notify_all()

    def _binding(self, params: dict, session: str | None) -> None:
        """The page hooks' activity messages (``PageHooks.message``): when pending
        timers are due, DOM mutations, dataLayer items (the dataLayer collector
        records those)."""
        if self.hooks.is_item(params):
            with self._cond:  # the collector parses it; here it is only a change
                self._last_change = time.monotonic()
                self._cond.notify_all()
            return
        message = self.hooks.message(params)
        if not isinstance(message, dict):
            return
        with self._cond:
            timers = timer_update(message)
            if timers is not None:
                self._note_timers((session, timers[0]), timers[1], timers[2])
            else:
                self._last_change = time.monotonic()  # DOM mutation, dataLayer push
            self._cond.notify_all()

    _HANDLERS = {
        **FrameTracking.FRAME_HANDLERS,
        "Target.attachedToTarget": _attached,
        "Target.detachedFromTarget": _detached,
        "Network.requestWillBeSent": _request,
        "Network.responseReceived": _response,
        "Network.loadingFinished": note_finished,
        "Network.loadingFailed": note_finished,
        "Runtime.bindingCalled": _binding,
    }

    def request_count(self) -> int:
        """HTTP(S) requests sent so far (redirect hops included)."""
        with self._cond:
            return self._requests_seen

    def snapshot(self) -> list:
        """Requests captured so far by the ``requests`` collector (``[]`` without one)."""
        network = self.collector("requests")
        return network.snapshot() if network is not None else []

    def close(self) -> None:
        """End of the crawl: every collector's ``close``."""
        for collector in self.collectors:
            self._guarded(collector, "close", collector.close)
