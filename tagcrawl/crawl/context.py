"""What the steps of a crawl share: ``CrawlContext`` (one crawl's state),
the ``Step`` base class and ``CrawlFailed``."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from tagcrawl.engine.consent.flow import ConsentResult
from tagcrawl.core.settings import Settings
from tagcrawl.crawl.report import CrawlReport


class CrawlFailed(Exception):
    """The crawl cannot go on; ``message`` goes into the response."""


@dataclass
class CrawlContext:
    """One crawl's state, shared by its steps and collectors.

    Attributes:
        settings, request (a loaded CrawlRequest), options (its ``options`` or {}).
        deadline: monotonic seconds when the whole crawl must end.
        report: the ``CrawlReport`` the steps fill.
        session: the ``browser.session.CrawlSession`` (None before it opens).
        collectors: the crawl's collectors (``tagcrawl.engine.collectors``).
        failures: collector name -> what failed (its part is missing).
        blocked: ``"recaptcha"`` / ``"accessDenied"`` once ``DetectBlocking`` found it.
        consent: the ``ConsentResult`` of the consent step.
        frames: ``consent_signals.collect_signals`` output.
        hits, datalayer, requests, cookies: what ``Collect`` gathered (kept with the crawl).
        collected: ``Collect`` ran (``collect.build`` then makes the pixels).
        notes: what was left out or cut (deadline, budgets, caps), sentences for ``message``.
    """

    settings: Settings
    request: dict
    options: dict
    deadline: float
    report: CrawlReport
    session: object = None
    collectors: list = field(default_factory=list)
    failures: dict = field(default_factory=dict)
    blocked: str | None = None
    consent: ConsentResult | None = None
    frames: list = field(default_factory=list)
    hits: list = field(default_factory=list)
    datalayer: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    cookies: list = field(default_factory=list)
    collected: bool = False
    notes: list = field(default_factory=list)

    def remaining_s(self) -> float:
        """Seconds left before the crawl deadline (may be negative)."""
        return self.deadline - time.monotonic()

    def collector(self, name: str):
        """The collector called ``name``, or None."""
        return next((c for c in self.collectors if c.name == name), None)


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
