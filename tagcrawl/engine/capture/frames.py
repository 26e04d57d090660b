"""Frame and navigation tracking of one crawl's capture (owned by the hub,
``hub.NetworkCapture``, fed by the same CDP events on the reader thread).

- execution contexts: the main world of every live frame, as
  ``(session, executionContextId)``, so that a flush can run in each frame;
- navigations: Document requests in flight per frame, dropped when the frame
  stops loading (a cancelled navigation reports no ``loadingFailed``), and the
  timers of a target whose main frame committed a new document.
"""
from __future__ import annotations

from tagcrawl.engine.capture.activity import Activity


class FrameTracking:
    """Frame contexts and navigations; ``handlers()`` maps CDP event names to
    its handlers (the hub dispatches them).

    Args:
        activity: the crawl's ``Activity``: its lock, and the requests and
            timers a stopped or replaced document leaves (``forget_request``,
            ``forget_timers``).
    """

    def __init__(self, activity: Activity):
        self.activity = activity
        # (session, executionContextId) of every frame's main world (the flush fires events in each).
        self._contexts: set[tuple[str | None, int]] = set()
        self._navigations: dict[str, str | None] = {}  # Document requestId -> frameId

    def handlers(self) -> dict:
        """CDP method -> ``handler(params, session_id)`` of the events it follows."""
        return {
            "Runtime.executionContextCreated": self._context_created,
            "Runtime.executionContextDestroyed": self._context_destroyed,
            "Runtime.executionContextsCleared": self._contexts_cleared,
            "Page.frameNavigated": self._navigated,
            "Page.frameStoppedLoading": self._stopped,
        }

    def contexts(self, first: str | None) -> list[tuple[str | None, int]]:
        """``(session, executionContextId)`` of the main world of every live
        frame, those of session ``first`` (the top page) first."""
        with self.activity.cond:
            return sorted(self._contexts, key=lambda c: (c[0] != first, c[1]))

    def navigation_started(self, request_id: str, frame_id: str | None) -> None:
        """A Document request of frame ``frame_id`` started."""
        with self.activity.cond:
            self._navigations[request_id] = frame_id

    def navigation_ended(self, request_id: str) -> None:
        """A request ended (a Document one or not)."""
        with self.activity.cond:
            self._navigations.pop(request_id, None)

    def forget_session(self, session: str | None) -> None:
        """A target detached: its frames are gone."""
        with self.activity.cond:
            self._contexts = {c for c in self._contexts if c[0] != session}

    def adopt(self, other: "FrameTracking") -> None:
        """Take over ``other``'s frame contexts (a spare context's, ``hub.adopt``)."""
        with other.activity.cond, self.activity.cond:
            self._contexts |= other._contexts

    def _context_created(self, params: dict, session: str | None) -> None:
        context = params.get("context", {})
        if (context.get("auxData") or {}).get("isDefault"):
            with self.activity.cond:
                self._contexts.add((session, context.get("id")))

    def _context_destroyed(self, params: dict, session: str | None) -> None:
        with self.activity.cond:
            self._contexts.discard((session, params.get("executionContextId")))

    def _contexts_cleared(self, _params: dict, session: str | None) -> None:
        self.forget_session(session)

    def _stopped(self, params: dict, _session: str | None) -> None:
        """A frame stopped loading: no navigation of it is under way any more.  A
        navigation that Chrome cancelled (a second click, a refused download)
        reports no loadingFailed: it must not stay in flight until the cap."""
        frame = params.get("frameId")
        with self.activity.cond:
            for request_id in [r for r, f in self._navigations.items() if f == frame]:
                del self._navigations[request_id]
                self.activity.forget_request(request_id)
            self.activity.cond.notify_all()

    def _navigated(self, params: dict, session: str | None) -> None:
        """A target's main frame committed a new document: the old documents'
        timers of that target are gone."""
        if params.get("frame", {}).get("parentId") is None:
            self.activity.forget_timers(session)
