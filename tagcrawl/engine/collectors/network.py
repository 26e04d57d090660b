"""Collector ``requests``: every HTTP(S) request of the crawl with its POST
body, from every target (page, iframes, workers).

Bodies: ``postDataEntries`` (raw bytes, lossless for gzip) first, else
``postData``; a body Chrome did not inline (``hasPostData``) is fetched with
``Network.getRequestPostData`` and the request counts as pending work (the
quiet wait waits for it) until the reply arrives.

Bounds (docs/security.md "Work after the deadline, and the report's size"):
at most :data:`MAX_REQUESTS` requests are kept per crawl; a body is kept up
to :data:`BODY_MAX` bytes (``encodings.MAX_INPUT``: the matcher reads no
more); once the kept URLs and bodies reach ``Settings.capture_max_bytes``, a
request is kept without its body and headers and with its URL cut to
``truncation.URL_MAX`` characters.  The frame URL is cut at ``URL_MAX``
(with the truncation mark).  ``notes()`` says what was left out.
"""
from __future__ import annotations

import base64
import time
from dataclasses import replace

from tagcrawl.core.settings import Settings
from tagcrawl.core.truncation import URL_MAX, cut
from tagcrawl.engine.collectors.base import Collector, Context
from tagcrawl.engine.collectors.postdata import decode_entries, text_or_bytes
from tagcrawl.engine.vendors.encodings import MAX_INPUT as BODY_MAX
from tagcrawl.engine.vendors.types import Request

#: Requests kept per crawl (the later ones are counted, not kept).
MAX_REQUESTS = 20_000


class NetworkCollector(Collector):
    """Records ``vendors.types.Request`` objects (url, method, post_data: str |
    bytes | None, resource_type lower-case, frame_url, timestamp: epoch ms,
    headers, status of the response when one came).  ``get_data`` ->
    ``list[Request]`` in send order."""

    name = "requests"

    def __init__(self):
        super().__init__()
        self.requests: list[Request] = []
        self._pending_bodies: dict[tuple, dict] = {}
        self.events = {"Network.requestWillBeSent": self._request, "Network.responseReceived": self._response}
        self._index: dict[tuple, int] = {}  # (session, requestId) -> its latest hop in requests: one per request
        self.max_bytes = Settings.capture_max_bytes
        self.kept_bytes = 0
        self.dropped = 0  # past MAX_REQUESTS
        self.trimmed = 0  # past max_bytes: kept without body and headers, URL cut
        self.late_bodies = 0  # a body fetched later that no longer fit: kept without it

    def init(self, ctx: Context) -> None:
        self.max_bytes = ctx.settings.capture_max_bytes

    def _bounded(self, record: dict) -> bool:
        """Apply the bounds to ``record`` (under ``hub.cond``); False when it is not kept."""
        if len(self.requests) + len(self._pending_bodies) >= MAX_REQUESTS:
            self.dropped += 1
            return False
        body = record["post_data"]
        if isinstance(body, (str, bytes)) and len(body) > BODY_MAX:
            record["post_data"] = body = body[:BODY_MAX]
        record["frame_url"] = cut(record["frame_url"], URL_MAX)
        size = (len(record["url"]) + (len(body) if isinstance(body, (str, bytes)) else 0)
                + sum(len(str(k)) + len(str(v)) for k, v in record["headers"].items()))
        if self.kept_bytes + size > self.max_bytes:
            self.trimmed += 1
            record["url"], record["post_data"], record["headers"] = record["url"][:URL_MAX], None, {}
            size = len(record["url"])
        self.kept_bytes += size
        return True

    def notes(self) -> list[str]:
        """What the bounds left out, as sentences for the report's ``message``."""
        out = []
        if self.dropped:
            out.append(f"request cap of {MAX_REQUESTS} reached: {self.dropped} later requests not kept")
        if self.trimmed:
            out.append(f"capture cap of {self.max_bytes} bytes reached: {self.trimmed} requests kept without "
                       f"their body and headers, URL cut to {URL_MAX} characters")
        if self.late_bodies:
            out.append(f"capture cap of {self.max_bytes} bytes reached: {self.late_bodies} request bodies "
                       "fetched later not kept")
        return out

    def _request(self, params: dict, session: str | None) -> None:
        request = params.get("request", {})
        url = request.get("url", "")
        if not url.startswith(("http:", "https:")):
            return
        key = (session, params.get("requestId"))
        # raw bytes first: postData is lossy for a binary (e.g. gzip) body
        body = decode_entries(request["postDataEntries"]) if request.get("postDataEntries") else None
        if body is None:
            body = request.get("postData")
        record = dict(url=url, method=request.get("method", "GET"), post_data=body,
                      resource_type=params.get("type", "Other").lower(),
                      frame_url=params.get("documentURL") or self.hub.target_url(session),
                      timestamp=(params.get("wallTime") or time.time()) * 1000.0,
                      headers=dict(request.get("headers") or {}))
        with self.hub.cond:
            if params.get("redirectResponse"):  # the previous hop's answer
                self._set_status(key, params["redirectResponse"].get("status"))
            trimmed = self.trimmed
            if not self._bounded(record):
                self._index.pop(key, None)  # a later answer is not an earlier hop's
            elif body is None and request.get("hasPostData") and self.trimmed == trimmed:
                self._pending_bodies[key] = record
            else:
                self._index[key] = len(self.requests)
                self.requests.append(Request(**record))
            self.hub.cond.notify_all()
        if key in self._pending_bodies:
            future = self.hub.send("Network.getRequestPostData", {"requestId": key[1]}, session)
            future.add_done_callback(lambda f, k=key: self._body_arrived(k, f))

    def _body_arrived(self, key: tuple, future) -> None:
        with self.hub.cond:
            record = self._pending_bodies.pop(key, None)
            if record is None:
                return
            try:
                result = future.result().get("result", {})
                data = result.get("postData")
                if isinstance(data, str) and len(data) > 2 * BODY_MAX:  # base64: 4/3 of the bytes
                    data = data[:2 * BODY_MAX]
                body = (text_or_bytes(base64.b64decode(data[: len(data) // 4 * 4])) if result.get("base64Encoded")
                        and isinstance(data, str) else data)
                if isinstance(body, (str, bytes)):
                    body = body[:BODY_MAX]
                    room = self.max_bytes - self.kept_bytes
                    if len(body) > room:
                        self.late_bodies += 1
                        body = None
                    else:
                        self.kept_bytes += len(body)
                record["post_data"] = body
            except Exception:
                pass
            self._index[key] = len(self.requests)
            self.requests.append(Request(**record))
            self.hub.cond.notify_all()

    def _response(self, params: dict, session: str | None) -> None:
        with self.hub.cond:
            self._set_status((session, params.get("requestId")), (params.get("response") or {}).get("status"))

    def _set_status(self, key: tuple, status) -> None:
        """The response status of the request ``key`` (under ``hub.cond``); kept for the HAR."""
        if not isinstance(status, int):
            return
        if key in self._pending_bodies:
            self._pending_bodies[key]["status"] = status
        elif key in self._index:
            at = self._index[key]
            self.requests[at] = replace(self.requests[at], status=status)

    def busy(self) -> bool:
        """POST bodies still being fetched."""
        return bool(self._pending_bodies)

    def snapshot(self, ctx: Context | None, moment: str = "now") -> list[Request]:
        """Requests captured so far (those whose body is still being fetched
        included), in the order they were sent; at any ``moment``."""
        with self.hub.cond:
            pending = [Request(**r) for r in self._pending_bodies.values()]
            return sorted(self.requests + pending, key=lambda r: r.timestamp)

    def get_data(self, ctx: Context | None) -> list[Request]:
        return self.snapshot(ctx, "after")
