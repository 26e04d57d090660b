"""Value types shared by capture, the vendor matcher, rules and the stream.

``Request`` is one network request seen by the browser (any target: page,
iframe, out-of-process iframe, worker).  ``Hit`` is one request that the
vendor catalog recognised as a pixel/tag/beacon of a vendor, or as an ID
sync (``Hit.kind``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Request:
    """One outgoing request captured over CDP.

    Attributes:
        url: absolute request URL.
        method: HTTP method, upper case ("GET", "POST").
        post_data: request body, or None: text when it is valid UTF-8, else
            the raw bytes (a gzip/deflate/br body, binary).  Filled from
            ``Network.requestWillBeSent.request.postDataEntries`` (raw bytes),
            ``postData`` or ``Network.getRequestPostData`` (base64 when
            ``base64Encoded``); decoded for matching by ``encodings.py``.
        resource_type: CDP ``Network.ResourceType`` lower-cased: "document",
            "script", "image", "xhr", "fetch", "ping" (sendBeacon), "other", ...
        frame_url: URL of the document (or worker script) that sent it.
        timestamp: wall-clock time the request was sent, epoch milliseconds.
        headers: request headers (may be empty); ``Content-Type``,
            ``Content-Encoding`` and ``Authorization`` are read by the matcher.
        status: HTTP status of its response (``Network.responseReceived``;
            a redirect hop's from the next hop's ``redirectResponse``), None
            when no response was seen (failed, refused, still pending).  Only
            the HAR export reads it.
    """

    url: str
    method: str = "GET"
    post_data: str | bytes | None = None
    resource_type: str = "other"
    frame_url: str | None = None
    timestamp: float = 0.0
    headers: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    status: int | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Hit:
    """A request recognised as a vendor pixel.

    Attributes:
        vendor_key: stable catalog key, e.g. "facebook", "google_analytics".
        vendor_name: catalog display name, e.g. "Meta Pixel".
        account_id: normalised account id ("AW-123", "G-ABC123"), or None
            when the vendor was recognised but no id was found.
        event: event name decoded from the hit ("PageView", "page_view"), or None.
        params: decoded parameters of the hit (query + body), str -> str; a
            read-only mapping (a dict, or a ``ChainMap`` of a batch item's own
            parameters over its request's), shared by the hits of one request.
        url: request URL.
        method: HTTP method.
        transport: the request's resource type ("image", "fetch", "xhr",
            "ping", "script", ...).
        frame_url: URL of the document that sent the request.
        timestamp: epoch milliseconds.
        warnings: why the account id is unusual for the vendor (vocabulary in
            ``ids.py``); empty when it looks normal or is None.
        kind: ``"pixel"``, or ``"sync"`` for a cookie / ID sync (the
            pattern's ``kind``, ``model.Pattern``): reported apart, never as a pixel.
        partner: a sync's other party as sent (``google_nid``, ``ttd_pid``), or None.
    """

    vendor_key: str
    vendor_name: str
    account_id: str | None
    event: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    url: str = ""
    method: str = "GET"
    transport: str = "other"
    frame_url: str | None = None
    timestamp: float = 0.0
    warnings: tuple[str, ...] = ()
    kind: str = "pixel"
    partner: str | None = None
