"""The main document of one crawl's page, as the capture hub sees it: which
request it is, its HTTP status or network error, and the page's own later
navigations (a link, a redirect by script) that replace it."""
from __future__ import annotations

from tagcrawl.engine.egress.status import egress_error


class MainDocument:
    """Follows the top frame's Document requests (owned by ``hub.NetworkCapture``,
    which calls it under its lock from the CDP reader thread).

    Attributes:
        request: ``(session, requestId)`` of the main document, or None before it starts.
        status: its HTTP status, None before the answer.
        error: its network error (``net::ERR_...``, or the egress proxy's
            refusal), else None.
    """

    def __init__(self):
        self.request: tuple | None = None
        self.status: int | None = None
        self.error: str | None = None
        self._shown: tuple | None = None  # (request, status) of the document shown before a later navigation

    def started(self, key: tuple) -> None:
        """A Document request ``(session, requestId)`` of the top frame started."""
        if key == self.request:
            return
        if self.status is not None:  # a document is shown: the page navigates on its own
            self._shown = (self.request, self.status)
        self.request, self.status, self.error = key, None, None

    def answered(self, key: tuple, response: dict) -> None:
        """A response (CDP ``Network.Response``) arrived for request ``key``."""
        if key == self.request:
            self.status = response.get("status")
            # An answer of the egress proxy's own (refusal, unreachable server) is a network error.
            self.error = self.error or egress_error(response.get("headers") or {})

    def failed(self, key: tuple, error: str) -> None:
        """Request ``key`` failed with ``error`` (``net::ERR_...``), or a guard refused it."""
        if key != self.request:
            return
        if self._shown is not None:
            # A navigation the page started (a link, a cross-origin <a download>) failed
            # or was refused: the document already shown stays, the crawl goes on.
            self.request, self.status = self._shown
        else:
            self.error = error
