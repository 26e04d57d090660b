"""Why a crawl failed, typed: the page (its answer, its block, its address)
or the service (it could not crawl at all).

``run_crawl`` sets ``CrawlReport.failure`` from the ``CrawlFailed`` that
ended the crawl: a ``ServiceFailed`` is ``FailureKind.SERVICE``, any other
``CrawlFailed`` is ``FailureKind.PAGE``; a report that ran to the end but is
not a success (a blocked page, a 4xx/5xx page) is ``PAGE`` too (``failure_kind``).
The CrawlResponse JSON does not carry the kind; a service failure's ``error``
carries its stable ``code`` (``core.types.SERVICE_ERROR_CODES``).

How each front end reports a service failure (docs/api.md, "Status codes"):

- ``POST /api/v1`` answers ``service_answer``: 503 with ``Retry-After``, or 504
  for ``deadline_exceeded``, with ``{"error": true, "message", "code"}``;
- a queued (webhook) crawl is stored ``failed`` and its webhook payload is the
  CrawlResponse, whose ``error`` has the same ``code``;
- ``flask crawl`` exits 3 (``tagcrawl/cli/crawl.py``; 0 success, 1 page).

Service failures: no browser could be started (``browser_unavailable``) or the
Selenium Grid reached (``grid_unreachable``), every browser stayed busy
(``pool_busy``), the egress proxy could not be started (``egress_unavailable``),
and the whole-crawl deadline passing before any report could be made
(``deadline_exceeded``).  Messages are one line: stack traces go to the log only.
"""
from __future__ import annotations

from tagcrawl.core.types import SERVICE_ERROR_CODES
from tagcrawl.crawl.context import CrawlFailed
from tagcrawl.crawl.report import CrawlReport, FailureKind

__all__ = ["FailureKind", "RETRY_AFTER_S", "ServiceFailed", "failure_kind", "kind_of", "one_line",
           "service_answer"]

#: ``Retry-After`` seconds of a 503, by code: a busy pool frees up within a crawl or two, a
#: missing browser or Grid needs someone to act (a load balancer should look at /health/ready).
RETRY_AFTER_S = {"pool_busy": 10, "browser_unavailable": 60, "grid_unreachable": 30, "egress_unavailable": 30}
#: Characters of a service failure's message kept from a library's exception text.
DETAIL_MAX = 300


def one_line(text: str | None, fallback: str = "") -> str:
    """The first non-empty line of ``text`` (an exception's text: ChromeDriver
    appends ``Stacktrace:`` and native frames), at most ``DETAIL_MAX`` characters."""
    line = next((part.strip() for part in (text or "").splitlines() if part.strip()), fallback)
    return line[:DETAIL_MAX]


class ServiceFailed(CrawlFailed):
    """The service could not crawl; ``message`` goes into the response as for
    any ``CrawlFailed``, one line (no stack trace).

    Args:
        message: what failed.
        code: one of ``SERVICE_ERROR_CODES``.
    Raises:
        ValueError: an unknown ``code``.
    """

    kind = FailureKind.SERVICE

    def __init__(self, message: str, code: str = "browser_unavailable"):
        if code not in SERVICE_ERROR_CODES:
            raise ValueError(f"unknown service error code {code!r}")
        super().__init__(one_line(message, "service failure"))
        self.code = code


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


def service_answer(report: CrawlReport) -> tuple[int, dict, dict] | None:
    """The HTTP answer of a crawl the service could not make, else None.

    Returns:
        ``(status, body, headers)``: 503 with ``Retry-After`` (``RETRY_AFTER_S``),
        or 504 for ``deadline_exceeded`` (no ``Retry-After``); the body is
        ``{"error": true, "message", "code"}`` (the report's ``error``).
    """
    error = report.error
    if report.failure is not FailureKind.SERVICE or error is None or not error.code:
        return None
    body = {"error": True, "message": error.message, "code": error.code}
    if error.code == "deadline_exceeded":
        return 504, body, {}
    return 503, body, {"Retry-After": str(RETRY_AFTER_S.get(error.code, 30))}
