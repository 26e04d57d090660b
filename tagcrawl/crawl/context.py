"""What the steps of a crawl share: ``CrawlContext`` (one crawl's state),
the ``Step`` base class and ``CrawlFailed``."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from tagcrawl.core.settings import Settings
from tagcrawl.engine.chrome.session import CrawlSession
from tagcrawl.engine.collectors import Collector, Collectors, guarded
from tagcrawl.engine.consent.flow import ConsentResult
from tagcrawl.crawl.report import CrawlReport


class CrawlFailed(Exception):
    """The crawl cannot go on; ``message`` goes into the response."""


@dataclass
class CrawlContext:
    """One crawl's state, shared by its steps and collectors (it is the
    collectors' ``collectors.Context``).

    Attributes:
        settings, request (a loaded CrawlRequest), options (its ``options`` or {}).
        deadline: monotonic seconds when the whole crawl must end.
        report: the ``CrawlReport`` the steps fill.
        session: the ``chrome.session.CrawlSession`` (None before it opens).
        collectors: the crawl's ``collectors.Collectors`` (none before the browser).
        failures: collector name -> what failed (its part is missing).
        blocked: ``"recaptcha"`` / ``"accessDenied"`` once ``DetectBlocking`` found it.
        consent: the ``ConsentResult`` of the consent step.
        frames: ``signals.collect_signals`` output.
        hits, datalayer, requests, cookies, storage: what ``Collect`` gathered (kept with the crawl;
            ``storage``: ``collectors.storage.StorageWrite`` objects).
        collected: ``Collect`` ran (``collect.build`` then makes the pixels).
        notes: what was left out or cut (deadline, budgets, caps), sentences for ``message``.
        main_request: the main document's ``(session, requestId)`` when ``Navigate`` ended, or None.
    """

    settings: Settings
    request: dict
    options: dict
    deadline: float
    report: CrawlReport
    session: CrawlSession | None = None
    collectors: Collectors = field(default_factory=Collectors.none)
    failures: dict = field(default_factory=dict)
    blocked: str | None = None
    consent: ConsentResult | None = None
    frames: list = field(default_factory=list)
    hits: list = field(default_factory=list)
    datalayer: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    cookies: list = field(default_factory=list)
    storage: list = field(default_factory=list)
    collected: bool = False
    notes: list = field(default_factory=list)
    main_request: tuple | None = None

    def remaining_s(self) -> float:
        """Seconds left before the crawl deadline (may be negative)."""
        return self.deadline - time.monotonic()

    def snapshot(self, collector: Collector | None, moment: str) -> object:
        """``collector``'s reading at ``moment`` (``Collector.snapshot``), guarded:
        None when it is absent from this crawl or failed (recorded in ``failures``)."""
        if collector is None:
            return None
        return guarded(collector, self.failures, f"snapshot {moment}", collector.snapshot, self, moment)

    def part(self, collector: Collector | None) -> object:
        """``collector``'s part of the result (``Collector.get_data``), guarded:
        None when it is absent from this crawl or failed (recorded in ``failures``)."""
        if collector is None:
            return None
        return guarded(collector, self.failures, "get_data", collector.get_data, self)


class Step:
    """A page action.  ``name``: what it does; ``phase``: its timing phase;
    ``timeout_s(ctx)``: its own limit in seconds, bounded by the crawl deadline."""

    name = "step"
    phase = "step"

    def applies(self, ctx: CrawlContext) -> bool:
        """False to skip the step (and its timing) in this crawl."""
        return True

    def timeout_s(self, ctx: CrawlContext) -> float:
        return max(0.0, ctx.remaining_s())

    def run(self, ctx: CrawlContext) -> None:
        raise NotImplementedError
