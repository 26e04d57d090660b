"""The main document of one crawl's page, as the capture hub sees it: which
request it is, its HTTP status or network error, the URL it was finally asked
for, its HTTP redirect chain, and the page's own later navigations (a link, a
redirect by script) that replace it."""
from __future__ import annotations

from dataclasses import dataclass, field

from tagcrawl.core.truncation import REDIRECTS_MAX, URL_MAX, cut
from tagcrawl.engine.egress.status import egress_error

#: Redirect hops kept per main document: ``truncation.REDIRECTS_MAX`` (20). Chrome follows at
#: most 20 redirects (then ``net::ERR_TOO_MANY_REDIRECTS``), so a chain is never longer in
#: practice; hops past it are counted in ``MainDocument.redirects_dropped``, not kept.
__all__ = ["REDIRECTS_MAX", "MainDocument", "Redirect"]


@dataclass(frozen=True)
class Redirect:
    """One HTTP redirect hop of the main document: the URL asked for (cut to
    ``URL_MAX`` characters, ``core/truncation.py``) and the status it answered (3xx)."""

    url: str
    status: int | None


@dataclass
class _Shown:
    """What a document answered: ``(request, status, url, redirects, dropped)``."""

    request: tuple | None = None
    status: int | None = None
    url: str | None = None
    redirects: list[Redirect] = field(default_factory=list)
    dropped: int = 0


class MainDocument:
    """Follows the top frame's Document requests (owned by ``hub.NetworkCapture``,
    which calls it under its lock from the CDP reader thread).

    Attributes:
        request: ``(session, requestId)`` of the main document, or None before it starts.
        status: its HTTP status, None before the answer.
        error: its network error (``net::ERR_...``, or the egress proxy's
            refusal), else None.
        url: the URL last asked for (after the redirects), cut to ``URL_MAX``; None before.
        redirects: its HTTP redirect hops in order, at most ``REDIRECTS_MAX``.
        redirects_dropped: hops past ``REDIRECTS_MAX`` (not kept).
    Bound: O(``REDIRECTS_MAX``) hops of ``URL_MAX`` characters each.
    """

    def __init__(self):
        self._now = _Shown()
        self.error: str | None = None
        self._shown: _Shown | None = None  # the document shown before a later navigation

    request = property(lambda self: self._now.request)
    status = property(lambda self: self._now.status)
    url = property(lambda self: self._now.url)
    redirects = property(lambda self: list(self._now.redirects))
    redirects_dropped = property(lambda self: self._now.dropped)

    def started(self, key: tuple, url: str | None = None, redirect_response: dict | None = None) -> None:
        """A Document request ``(session, requestId)`` of the top frame started
        (CDP ``Network.requestWillBeSent``): ``url`` is its URL, ``redirect_response``
        the previous hop's answer when it is a redirect of the same request."""
        if key == self._now.request:
            if redirect_response is not None:
                self._hop(redirect_response)
            self._now.url = cut(url, URL_MAX) if url else self._now.url
            return
        if self._now.status is not None:  # a document is shown: the page navigates on its own
            self._shown = self._now
        self._now, self.error = _Shown(request=key, url=cut(url, URL_MAX) if url else None), None

    def _hop(self, response: dict) -> None:
        if len(self._now.redirects) >= REDIRECTS_MAX:
            self._now.dropped += 1
            return
        status = response.get("status")
        self._now.redirects.append(Redirect(url=cut(str(response.get("url") or self._now.url or ""), URL_MAX),
                                            status=status if isinstance(status, int) else None))

    def answered(self, key: tuple, response: dict) -> None:
        """A response (CDP ``Network.Response``) arrived for request ``key``."""
        if key == self._now.request:
            self._now.status = response.get("status")
            # An answer of the egress proxy's own (refusal, unreachable server) is a network error.
            self.error = self.error or egress_error(response.get("headers") or {})

    def failed(self, key: tuple, error: str) -> None:
        """Request ``key`` failed with ``error`` (``net::ERR_...``), or a guard refused it."""
        if key != self._now.request:
            return
        if self._shown is not None:
            # A navigation the page started (a link, a cross-origin <a download>) failed
            # or was refused: the document already shown stays, the crawl goes on.
            self._now = self._shown
        else:
            self.error = error
