"""Collector ``requests``: every HTTP(S) request of the crawl with its POST
body, from every target (page, iframes, workers).

Bodies: ``postDataEntries`` (raw bytes, lossless for gzip) first, else
``postData``; a body Chrome did not inline (``hasPostData``) is fetched with
``Network.getRequestPostData`` and the request counts as pending work (the
quiet wait waits for it) until the reply arrives.
"""
from __future__ import annotations

import base64
import time

from ..browser.postdata import decode_entries, text_or_bytes
from ..vendors.types import Request
from .base import Collector


class NetworkCollector(Collector):
    """Records ``vendors.types.Request`` objects (url, method, post_data: str |
    bytes | None, resource_type lower-case, frame_url, timestamp: epoch ms,
    headers).  ``get_data`` -> ``list[Request]`` in send order."""

    name = "requests"

    def __init__(self):
        super().__init__()
        self.requests: list[Request] = []
        self._pending_bodies: dict[tuple, dict] = {}
        self.events = {"Network.requestWillBeSent": self._request}

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
            if body is None and request.get("hasPostData"):
                self._pending_bodies[key] = record
            else:
                self.requests.append(Request(**record))
            self.hub.cond.notify_all()
        if key in self._pending_bodies:
            future = self.hub.cdp.send("Network.getRequestPostData", {"requestId": key[1]}, session)
            future.add_done_callback(lambda f, k=key: self._body_arrived(k, f))

    def _body_arrived(self, key: tuple, future) -> None:
        with self.hub.cond:
            record = self._pending_bodies.pop(key, None)
            if record is None:
                return
            try:
                result = future.result().get("result", {})
                data = result.get("postData")
                record["post_data"] = (text_or_bytes(base64.b64decode(data)) if result.get("base64Encoded")
                                       and isinstance(data, str) else data)
            except Exception:
                pass
            self.requests.append(Request(**record))
            self.hub.cond.notify_all()

    def busy(self) -> bool:
        """POST bodies still being fetched."""
        return bool(self._pending_bodies)

    def snapshot(self) -> list[Request]:
        """Requests captured so far (those whose body is still being fetched
        included), in the order they were sent."""
        with self.hub.cond:
            pending = [Request(**r) for r in self._pending_bodies.values()]
            return sorted(self.requests + pending, key=lambda r: r.timestamp)

    def get_data(self, ctx) -> list[Request]:
        return self.snapshot()
