"""The collector interface: one instrument of the crawl (after
tracker-radar-collector's ``collectors/BaseCollector.js``).

Life cycle of a collector in one crawl (``crawl/service.py``, ``crawl/steps.py``):

1. ``init(ctx)``: before the browser context opens; ``ctx`` is the
   ``crawl.steps.CrawlContext`` (``settings``, ``options``, ``deadline`` in
   monotonic seconds, ``session`` still None);
2. ``add_target(target)``: for EVERY target of the crawl's browser context
   (the page, same-site and out-of-process iframes, dedicated/shared/service
   workers), before it resumes: the CDP commands ``[(method, params)]`` to
   send to it;
3. ``events``: CDP method -> ``handler(params, session_id)``, called by the
   capture hub (``browser.capture.NetworkCapture``) on the CDP reader thread,
   after the hub's own bookkeeping; a handler must not wait for CDP replies;
4. ``snapshot(ctx, moment)``: a step asks for a reading at ``moment``
   (``"before"`` / ``"after"`` the consent step: cookie counts, screenshots);
5. ``post_load(ctx)``: after the last page action (flush), before collection;
6. ``get_data(ctx)``: its typed part of the result.

Every call is wrapped (``guarded``): an exception in one collector is logged
and recorded in ``failures``, its part of the result is missing (None), and
the other collectors and the crawl go on.
"""
from __future__ import annotations

from collections.abc import Callable

from tagcrawl.engine.capture.hub import guarded  # the one wrapper of collector calls

__all__ = ["Collector", "Command", "Handler", "guarded"]

#: One CDP command to send to a target: ``(method, params or None)``.
Command = tuple[str, "dict | None"]
#: A CDP event handler: ``handler(params, session_id)``.
Handler = Callable[[dict, "str | None"], None]


class Collector:
    """Base class: every hook is a no-op.  Subclasses set ``name`` (their part
    of the result) and fill ``events`` in ``__init__``.

    Attributes:
        name: the collector's name, e.g. ``"requests"``; ``get_data``'s part is
            found under it.
        events: CDP method -> handler, dispatched by the hub.
        hub: the ``NetworkCapture`` that dispatches to it (set by the hub):
            ``cdp`` (send commands), ``cond`` (its lock / condition variable),
            ``main_request``, ``abort()``, ``note_finished(...)``.
    """

    name = "collector"

    def __init__(self):
        self.events: dict[str, Handler] = {}
        self.hub = None

    def init(self, ctx) -> None:
        """Before the browser context opens (``ctx.session`` is None)."""

    def add_target(self, target) -> list[Command]:
        """Commands for a new target (``browser.capture.Target``: ``session``,
        ``type`` "page" | "iframe" | "worker" | "shared_worker" | "service_worker",
        ``url``, ``parent``), sent before it resumes."""
        return []

    def busy(self) -> bool:
        """True while it waits for the page (e.g. a POST body being fetched):
        the hub's quiet wait keeps waiting.  Called under ``hub.cond``."""
        return False

    def snapshot(self, ctx, moment: str) -> None:
        """A reading at ``moment`` ("before" / "after" the consent step)."""

    def post_load(self, ctx) -> None:
        """After the last page action, before ``get_data``."""

    def get_data(self, ctx) -> object:
        """This collector's typed part of the result."""
        return None

    def close(self) -> None:
        """Release threads or files (end of the crawl); never raises."""
