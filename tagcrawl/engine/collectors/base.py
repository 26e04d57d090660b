"""The collector interface: one instrument of the crawl (after
tracker-radar-collector's ``collectors/BaseCollector.js``), and the two
seams it sees: the ``Hub`` that dispatches to it and the crawl's ``Context``.

Life cycle of a collector in one crawl (``crawl/service.py``, ``crawl/steps.py``):

1. ``init(ctx)``: before the browser context opens (``ctx.session`` is None);
2. ``attach(hub)``: the capture hub (``engine/capture/hub.py``) takes it;
3. ``add_target(target)``: for EVERY target of the crawl's browser context
   (the page, same-site and out-of-process iframes, dedicated/shared/service
   workers), before it resumes: the CDP commands ``[(method, params)]`` to
   send to it;
4. ``events``: CDP method -> ``handler(params, session_id)``, called by the
   hub on the CDP reader thread, after the hub's own bookkeeping; a handler
   must not wait for CDP replies;
5. ``snapshot(ctx, moment)``: a step asks for a reading at ``moment``
   (``"before"`` / ``"after"`` the consent step: cookie counts, screenshots);
6. ``post_load(ctx)``: after the last page action (flush), before collection;
7. ``get_data(ctx)``: its typed part of the result; ``notes()``: what its
   bounds left out.

Every call is wrapped (``guarded``): an exception in one collector is logged
and recorded in ``failures``, its part of the result is missing (None), and
the other collectors and the crawl go on.  This module imports nothing of
the hub: the hub imports the collectors.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tagcrawl.core.settings import Settings

__all__ = ["Collector", "Command", "Context", "Handler", "Hub", "Target", "guarded"]

log = logging.getLogger(__name__)

#: One CDP command to send to a target: ``(method, params or None)``.
Command = tuple[str, "dict | None"]
#: A CDP event handler: ``handler(params, session_id)``.
Handler = Callable[[dict, "str | None"], None]


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


@runtime_checkable
class Hub(Protocol):
    """What a collector may use of the capture hub that dispatches to it
    (``engine/capture/hub.NetworkCapture``)."""

    @property
    def cond(self) -> threading.Condition:
        """The hub's lock and condition variable (re-entrant); notify waiters after a change."""

    @property
    def main_request(self) -> tuple[str | None, str] | None:
        """``(session, requestId)`` of the main document, or None before it starts."""

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> Future:
        """Send a CDP command to ``session`` (None: the browser); the future holds the reply dict."""

    def message(self, params: dict) -> Any:
        """The JSON message of a ``Runtime.bindingCalled`` of the crawl's page hooks,
        or None (``capture/hooks.PageHooks.message``)."""

    def target_url(self, session: str | None) -> str | None:
        """The URL a target had when it attached, or None."""

    def note_finished(self, params: dict, session: str | None) -> None:
        """A request ended: ``{requestId, errorText?}`` (a refusal of the collector's own)."""

    def abort(self) -> None:
        """Wake every wait of the crawl and end them (the page is hostile)."""


class Page(Protocol):
    """What a collector may use of the crawl's browser context (``chrome/session.CrawlSession``)."""

    driver: Any  # the WebDriver, switched to the crawl's page

    def cookies(self) -> list[dict]:
        """Every cookie of the context (CDP ``Storage.getCookies`` dicts)."""

    def evaluate(self, expression: str, timeout_s: float = 5) -> Any:
        """Evaluate ``expression`` in the page's main frame; its JSON value."""


class Context(Protocol):
    """What a collector may read of the crawl (``crawl/context.CrawlContext``)."""

    settings: Settings
    options: dict  # the request's ``options``
    deadline: float  # monotonic seconds
    session: Page | None  # None before the browser context opens


def guarded(collector: "Collector", failures: dict[str, str], what: str, call, *args, default=None):
    """Run ``call(*args)`` for ``collector``; on an exception, log it, record
    ``failures[collector.name] = "<what>: <error>"`` (the first one) and return
    ``default``: one collector failing never stops the others."""
    try:
        return call(*args)
    except Exception as exc:
        log.exception("collector %s failed in %s", collector.name, what)
        failures.setdefault(collector.name, f"{what}: {exc.__class__.__name__}: {exc}")
        return default


class Collector:
    """Base class: every hook is a no-op.  Subclasses set ``name`` and fill
    ``events`` in ``__init__``.

    Attributes:
        name: the collector's name in logs and in ``failures``, e.g. ``"requests"``.
        events: CDP method -> handler, dispatched by the hub.
        hub: the ``Hub`` that dispatches to it, set by ``attach`` (before any
            target or event; a collector is not used without one).
    """

    name = "collector"
    hub: Hub

    def __init__(self):
        self.events: dict[str, Handler] = {}

    def attach(self, hub: Hub) -> None:
        """Taken by ``hub`` (before any target or event)."""
        self.hub = hub

    def init(self, ctx: Context) -> None:
        """Before the browser context opens (``ctx.session`` is None)."""

    def add_target(self, target: Target) -> list[Command]:
        """Commands for a new target, sent before it resumes."""
        return []

    def busy(self) -> bool:
        """True while it waits for the page (e.g. a POST body being fetched):
        the hub's quiet wait keeps waiting.  Called under ``hub.cond``."""
        return False

    def snapshot(self, ctx: Context, moment: str) -> object:
        """A reading at ``moment`` ("before" / "after" the consent step), or None."""
        return None

    def post_load(self, ctx: Context) -> None:
        """After the last page action, before ``get_data``."""

    def get_data(self, ctx: Context) -> object:
        """This collector's typed part of the result."""
        return None

    def notes(self) -> list[str]:
        """What its bounds left out, as sentences for the report's ``message`` (``[]``: nothing)."""
        return []

    def close(self) -> None:
        """Release threads or files (end of the crawl); never raises."""
