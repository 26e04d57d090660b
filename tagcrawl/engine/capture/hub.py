"""The capture hub of one crawl, across every target of its browser context.

Fed by ``CDPConnection`` events (reader thread), it configures every target
auto-attach reports (page, iframes, workers).  It owns, and feeds through
their small interfaces:

- ``activity`` (``activity.Activity``): requests, JS timers, DOM mutations,
  the waits on them (``wait_quiet``...) and the capture's lock;
- ``frames`` (``frames.FrameTracking``): frame contexts and navigations;
- ``document`` (``document.MainDocument``): the main document's request, status, error,
  final URL and redirect hops;
- ``hooks`` (``hooks.PageHooks``): the page hooks' script and messages;
- the collectors (``engine/collectors``), which see it as ``collectors.Hub``:
  their ``add_target`` commands go to every target, CDP events to their
  ``events``.  A failing collector is recorded in ``failures`` and stops
  neither the hub nor the others.
"""
from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Future

from tagcrawl.engine.capture.activity import Activity
from tagcrawl.engine.capture.document import MainDocument
from tagcrawl.engine.capture.frames import FrameTracking
from tagcrawl.engine.capture.hooks import PageHooks, timer_update
from tagcrawl.engine.collectors.base import Collector, Target, guarded
from tagcrawl.engine.identity.emulation import worker_setup_commands

PAGE_TYPES = {"page", "iframe"}
WORKER_TYPES = {"worker", "shared_worker", "service_worker"}


class NetworkCapture:
    """Targets and main document of one browser context; dispatches CDP events
    to its parts and to the crawl's collectors.  Implements ``collectors.Hub``.

    Args:
        context_id: the ``browserContextId`` to follow; other targets are ignored.
        page_setup: extra CDP commands ``[(method, params)]`` sent to each page
            and iframe session before it resumes (locale, timezone, user agent);
            workers get their subset.
        timer_horizon_ms, late_horizon_ms: timers up to these delays count as
            pending activity / as late work (``page_hooks.js``).
        collectors: the crawl's collectors (``collectors.Collectors`` or any
            iterable of ``Collector``), in dispatch order; each is ``attach``-ed.
    Attributes:
        activity, frames, document, hooks: its parts (see the module);
            ``hooks``' random names are a spare's after ``adopt``.
        page_session, page_target: session and target id of the top page.
        failures: collector name -> what failed (``collectors.guarded``).
    """

    def __init__(self, context_id: str | None = None, page_setup: list | None = None,
                 timer_horizon_ms: int = 4000, late_horizon_ms: int = 10500, collectors: Iterable[Collector] = ()):
        self.cdp = None
        self.context_id = context_id
        self.page_setup = page_setup or []
        self.hooks = PageHooks.new(timer_horizon_ms, late_horizon_ms)
        self.activity = Activity(pending_work=self._collectors_busy)
        self.frames = FrameTracking(self.activity)
        self.document = MainDocument()
        self.sessions: dict[str, dict] = {}
        self.page_session: str | None = None
        self.page_target: str | None = None
        self.collectors: tuple[Collector, ...] = tuple(collectors)
        self.failures: dict[str, str] = {}
        self._handlers = {**self.frames.handlers(), "Target.attachedToTarget": self._attached,
                          "Target.detachedFromTarget": self._detached, "Network.requestWillBeSent": self._request,
                          "Network.responseReceived": self._response, "Network.loadingFinished": self.note_finished,
                          "Network.loadingFailed": self.note_finished, "Runtime.bindingCalled": self._binding}
        self._dispatch: dict[str, list] = {}
        for collector in self.collectors:
            collector.attach(self)
            for method, handler in collector.events.items():
                self._dispatch.setdefault(method, []).append((collector, handler))

    # -- wiring -------------------------------------------------------------
    @property
    def cond(self):
        """The capture's lock and condition variable (``activity.cond``; re-entrant)."""
        return self.activity.cond

    @property
    def main_request(self) -> tuple | None:
        """``(session, requestId)`` of the main document, or None (``document.request``)."""
        return self.document.request

    def bind(self, cdp) -> None:
        """Send through ``cdp`` (a ``chrome.cdp.CDPConnection``) from now on."""
        self.cdp = cdp

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> Future:
        """A CDP command to ``session`` (None: the browser); the future holds the reply."""
        return self.cdp.send(method, params, session)

    def message(self, params: dict):
        """The page hooks' JSON message of a ``Runtime.bindingCalled``, or None (``PageHooks.message``)."""
        return self.hooks.message(params)

    def on_event(self, method: str, params: dict, session_id: str | None) -> None:
        """CDP event dispatcher (reader thread; never waits for replies): the
        hub's own handler, then each collector's, each one guarded."""
        handler = self._handlers.get(method)
        if handler is not None:
            handler(params, session_id)
        for collector, handler in self._dispatch.get(method, ()):
            self._guarded(collector, method, handler, params, session_id)

    def _guarded(self, collector: Collector, what: str, call, *args, default=None):
        return guarded(collector, self.failures, what, call, *args, default=default)

    def _collectors_busy(self) -> bool:
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
        self.activity.touch()

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
        """Take over a spare context's capture (``chrome/spare.py``; it has loaded
        nothing): its DevTools connection, targets, frame contexts and page
        hooks; then send this crawl's page setup and collectors' target
        commands to the targets already attached."""
        self.cdp = cdp
        cdp.on_event = self.on_event
        with spare.cond, self.cond:
            self.context_id = spare.context_id
            self.hooks = spare.hooks
            self.sessions.update(spare.sessions)
            self.page_session, self.page_target = spare.page_session, spare.page_target
            self.frames.adopt(spare.frames)
        for session, info in list(self.sessions.items()):
            for method, method_params in self._setup_for(info["type"]):
                cdp.send(method, method_params, session)
            for method, method_params in self._collector_setup(Target(session, info["type"], info.get("url"),
                                                                      info.get("parent"))):
                cdp.send(method, method_params, session)
        self.activity.touch()

    def target_url(self, session: str | None) -> str | None:
        """The URL a target had when it attached, or None."""
        return self.sessions.get(session, {}).get("url")

    def _detached(self, params: dict, _session: str | None) -> None:
        gone = params.get("sessionId")
        self.sessions.pop(gone, None)
        with self.cond:
            self.frames.forget_session(gone)
            self.activity.forget_session(gone)

    # -- requests, the main document, the page hooks' messages --------------------
    def _request(self, params: dict, session: str | None) -> None:
        request = params.get("request", {})
        url = request.get("url", "")
        key = (session, params.get("requestId"))
        if not url.startswith(("http:", "https:")):
            return
        resource_type = params.get("type", "Other")
        with self.cond:
            self.activity.note_request(key[1], url, resource_type, session, request.get("method", "GET"))
            if resource_type == "Document":
                self.frames.navigation_started(key[1], params.get("frameId"))
            if resource_type == "Document" and params.get("frameId") == self.page_target:
                self.document.started(key, url, params.get("redirectResponse"))

    def _response(self, params: dict, session: str | None) -> None:
        self.document.answered((session, params.get("requestId")), params.get("response", {}))
        self.activity.touch(activity=False)

    def note_finished(self, params: dict, session: str | None) -> None:
        """A request ended (``Network.loadingFinished`` / ``loadingFailed``
        params, or a guard's refusal: ``{requestId, errorText}``)."""
        with self.cond:
            self.activity.note_finished(params.get("requestId"))
            self.frames.navigation_ended(params.get("requestId"))
            if params.get("errorText"):
                self.document.failed((session, params.get("requestId")), params["errorText"])

    def _binding(self, params: dict, session: str | None) -> None:
        """The page hooks' activity messages (``PageHooks.message``): when pending
        timers are due, DOM mutations, dataLayer items (the dataLayer collector
        records those)."""
        if self.hooks.is_item(params):  # the collector parses it; here it is only a change
            self.activity.touch(activity=False)
            return
        message = self.hooks.message(params)
        if not isinstance(message, dict):
            return
        timers = timer_update(message)
        if timers is not None:
            self.activity.note_timers((session, timers[0]), timers[1], timers[2])
        else:
            self.activity.touch(activity=False)  # DOM mutation, dataLayer push

    # -- what the crawl's steps use (``Activity``'s waits) ------------------------
    def request_count(self) -> int:
        """HTTP(S) requests sent so far (redirect hops included)."""
        with self.cond:
            return self.activity.requests_seen

    def contexts(self) -> list[tuple[str | None, int]]:
        """``(session, executionContextId)`` of every live frame's main world, the top page's first."""
        return self.frames.contexts(self.page_session)

    def wait_quiet(self, quiet_ms: int, cap_ms: int, deadline: float | None = None,
                   since: float | None = None) -> bool:
        """``Activity.wait_quiet``: True when the page went quiet, False on the cap/deadline."""
        return self.activity.wait_quiet(quiet_ms, cap_ms, deadline, since)

    def wait_new_request(self, since: float, timeout_ms: int, deadline: float | None = None) -> bool:
        """``Activity.wait_new_request``: True when a new request started after ``since``."""
        return self.activity.wait_new_request(since, timeout_ms, deadline)

    def wait_dom_change(self, since: float, timeout_s: float) -> bool:
        """``Activity.wait_dom_change``: True when something changed after ``since``."""
        return self.activity.wait_dom_change(since, timeout_s)

    def idle(self, quiet_ms: int = 0, include_late: bool = False) -> bool:
        """``Activity.idle``: nothing pending and no new request for ``quiet_ms``."""
        return self.activity.idle(quiet_ms, include_late)

    def abort(self) -> None:
        """Wake and end every wait (the deadline watchdog, a dialog storm)."""
        self.activity.abort()

    def close(self) -> None:
        """End of the crawl: every collector's ``close``."""
        for collector in self.collectors:
            self._guarded(collector, "close", collector.close)
