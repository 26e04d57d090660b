"""Frame and navigation tracking of one crawl's capture (a mixin of
``NetworkCapture``, fed by the same CDP events on the reader thread).

- execution contexts: the main world of every live frame, as
  ``(session, executionContextId)``, so that a flush can run in each frame;
- navigations: Document requests in flight per frame, dropped when the frame
  stops loading (a cancelled navigation reports no ``loadingFailed``), and the
  timers of a target whose main frame committed a new document.
"""
from __future__ import annotations

import time

from tagcrawl.engine.capture.activity import Activity


class FrameTracking(Activity):
    """Frame contexts and navigations; ``FRAME_HANDLERS`` maps CDP event names
    to the handlers below (merged into ``NetworkCapture._HANDLERS``).

    Subclasses set ``page_session`` (the top page's session id, or None)."""

    page_session: str | None = None

    def __init__(self):
        super().__init__()
        # (session, executionContextId) of every frame's main world (the flush fires events in each).
        self.frame_contexts: set[tuple[str | None, int]] = set()
        self._navigations: dict[str, str | None] = {}  # Document requestId -> frameId

    def _context_created(self, params: dict, session: str | None) -> None:
        context = params.get("context", {})
        if (context.get("auxData") or {}).get("isDefault"):
            with self._cond:
                self.frame_contexts.add((session, context.get("id")))

    def _context_destroyed(self, params: dict, session: str | None) -> None:
        with self._cond:
            self.frame_contexts.discard((session, params.get("executionContextId")))

    def _contexts_cleared(self, _params: dict, session: str | None) -> None:
        with self._cond:
            self.frame_contexts = {c for c in self.frame_contexts if c[0] != session}

    def contexts(self) -> list[tuple[str | None, int]]:
        """``(session, executionContextId)`` of the main world of every live frame."""
        with self._cond:
            return sorted(self.frame_contexts, key=lambda c: (c[0] != self.page_session, c[1]))

    def _stopped(self, params: dict, _session: str | None) -> None:
        """A frame stopped loading: no navigation of it is under way any more.  A
        navigation that Chrome cancelled (a second click, a refused download)
        reports no loadingFailed: it must not stay in flight until the cap."""
        frame = params.get("frameId")
        with self._cond:
            for request_id in [r for r, f in self._navigations.items() if f == frame]:
                del self._navigations[request_id]
                self._inflight.pop(request_id, None)
            self._cond.notify_all()

    def _navigated(self, params: dict, session: str | None) -> None:
        """A target's main frame committed a new document: the old documents'
        timers of that target are gone (also when ``pagehide`` was not reported)."""
        if params.get("frame", {}).get("parentId") is None:
            with self._cond:
                for key in [k for k in self._timers if k[0] == session]:
                    self._timers.pop(key, None)
                    self._late_timers.pop(key, None)
                self._last_activity = self._last_change = time.monotonic()
                self._cond.notify_all()

    FRAME_HANDLERS = {
        "Runtime.executionContextCreated": _context_created,
        "Runtime.executionContextDestroyed": _context_destroyed,
        "Runtime.executionContextsCleared": _contexts_cleared,
        "Page.frameNavigated": _navigated,
        "Page.frameStoppedLoading": _stopped,
    }
