"""Why a crawl failed, typed: the page (its answer, its block, its address)
or the service (it could not crawl at all).

``run_crawl`` sets ``CrawlReport.failure`` from the ``CrawlFailed`` that
ended the crawl: a ``ServiceFailed`` is ``FailureKind.SERVICE``, any other
``CrawlFailed`` is ``FailureKind.PAGE``; a report that ran to the end but is
not a success (a blocked page) is ``PAGE`` too (``failure_kind``).  The
CrawlResponse JSON does not carry it: ``flask crawl`` reads it for its exit
status (0 success, 1 page, 3 service; ``tagcrawl/cli/crawl.py``).

Service failures: no browser could be started or reached (``BrowserUnavailable``:
Chrome missing, Grid unreachable), every browser stayed busy
(``PoolExhausted``), the egress proxy could not be started, and the
whole-crawl deadline passing before any report could be made.
"""
from __future__ import annotations

from tagcrawl.crawl.context import CrawlFailed
from tagcrawl.crawl.report import CrawlReport, FailureKind

__all__ = ["FailureKind", "ServiceFailed", "failure_kind", "kind_of"]


class ServiceFailed(CrawlFailed):
    """The service could not crawl (no browser, pool busy, no egress proxy,
    deadline before any report); ``message`` goes into the response as for
    any ``CrawlFailed``."""

    kind = FailureKind.SERVICE


def kind_of(exc: CrawlFailed) -> FailureKind:
    """``FailureKind`` of the exception that ended a crawl (``SERVICE`` for a
    ``ServiceFailed``, else ``PAGE``)."""
    return FailureKind.SERVICE if isinstance(exc, ServiceFailed) else FailureKind.PAGE


def failure_kind(report: CrawlReport) -> FailureKind | None:
    """``None`` for a successful ``CrawlReport``, else its ``failure``
    (``PAGE`` when the crawl ended normally but is not a success, e.g. blocked)."""
    if report.success:
        return None
    return report.failure or FailureKind.PAGE
