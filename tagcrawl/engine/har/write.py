"""Writing a crawl's captured requests as a HAR 1.2 document.

Every captured request becomes one entry (``pageref`` = the crawled page),
with its decoded body (after ``Content-Encoding``; bodies that are not text
are written base64 with ``postData.encoding: "base64"``), the frame that sent
it (``_frameUrl``, a HAR custom field), its resource type (``_resourceType``,
as Chrome writes it) and its send time (``startedDateTime``).  Of the
response only the status is captured (``Request.status``); without one the
entry carries HAR's "unknown" response (status 0).  Values tagcrawl does not
measure are HAR's "unknown": ``-1`` for the page timings and sizes.

Limits: each body is cut at ``body_cap`` bytes (``postData._truncated``);
entries past ``total_cap`` bytes of JSON are left out
(``log._omittedEntries``).  Sensitive headers are redacted (see
:data:`SENSITIVE`) unless ``keep_secrets``.
"""
from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tagcrawl.core.version import __version__
from tagcrawl.engine.vendors import encodings
from tagcrawl.engine.vendors.types import Request

#: Headers whose values are secrets of the visitor or of the site.
SENSITIVE = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization", "x-api-key"})
REDACTED = "[redacted]"
#: Defaults of the caps (bytes).
BODY_CAP = 64 * 1024
TOTAL_CAP = 4 * 1024 * 1024


def _iso(ms: float) -> str:
    try:
        moment = datetime.fromtimestamp((ms or 0) / 1000.0, tz=UTC)
    except (OverflowError, OSError, ValueError):
        moment = datetime.fromtimestamp(0, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _public_write_key(value: str) -> bool:
    """``Basic base64(<key>:)`` with an empty password: a client-side write
    key (Segment, RudderStack, Hightouch) that the page's own script holds."""
    if value[:6].lower() != "basic ":
        return False
    try:
        user, _sep, password = base64.b64decode(value[6:].strip(), validate=True).decode("utf-8").partition(":")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return False
    return bool(user and not password)  # "key:" (browser SDKs) or "key" (analytics-next's node plugin)


def redact_headers(headers: dict[str, str], keep_secrets: bool = False) -> list[dict[str, str]]:
    """HAR header list; values of :data:`SENSITIVE` headers become
    ``"[redacted]"`` unless ``keep_secrets``.  A Basic ``Authorization`` with
    an empty password (a public write key) is kept: it is what the page's own
    script sends and what identifies the vendor account."""
    out = []
    for name, value in (headers or {}).items():
        value = str(value)
        if not keep_secrets and str(name).lower() in SENSITIVE and not (
                str(name).lower() == "authorization" and _public_write_key(value)):
            value = REDACTED
        out.append({"name": str(name), "value": value})
    return out


def _post_data(req: Request, body_cap: int) -> dict[str, Any] | None:
    if req.post_data is None:
        return None
    post: dict[str, Any] = {"mimeType": encodings.header(req.headers, "content-type") or ""}
    if isinstance(req.post_data, str):
        text = req.post_data
    else:
        raw = bytes(req.post_data)
        data, coding = encodings.decoded_bytes(raw, req.headers)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:  # binary: kept as sent, base64
            post.update(text=base64.b64encode(raw[:body_cap]).decode("ascii"), encoding="base64")
            if len(raw) > body_cap:
                post["_truncated"] = True
            return post
        if coding:
            post["_decodedFrom"] = coding
    encoded = text.encode("utf-8", "replace")
    if len(encoded) > body_cap:
        text = encoded[:body_cap].decode("utf-8", "ignore")
        post["_truncated"] = True
    post["text"] = text
    return post


def har_entry(req: Request, page_id: str, body_cap: int = BODY_CAP, keep_secrets: bool = False) -> dict[str, Any]:
    """One HAR entry for a captured request (see module docstring); ``response.status``
    is ``req.status``, 0 when no response was seen."""
    try:
        query = [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(req.url).query, keep_blank_values=True)]
    except ValueError:
        query = []
    request: dict[str, Any] = {
        "method": req.method or "GET", "url": req.url, "httpVersion": "", "cookies": [],
        "headers": redact_headers(req.headers, keep_secrets), "queryString": query, "headersSize": -1,
        "bodySize": len(req.post_data) if req.post_data is not None else 0,
    }
    post = _post_data(req, body_cap)
    if post is not None:
        request["postData"] = post
    return {
        "pageref": page_id, "startedDateTime": _iso(req.timestamp), "time": 0, "request": request,
        "response": {"status": req.status or 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
                     "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1, "bodySize": -1},
        "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0},
        "_resourceType": req.resource_type, "_frameUrl": req.frame_url,
    }


def build_har(requests: Iterable[Request], page_url: str, started_ms: float | None = None, *,
              body_cap: int = BODY_CAP, total_cap: int = TOTAL_CAP, keep_secrets: bool = False,
              version: str = __version__) -> dict[str, Any]:
    """A HAR 1.2 document of one crawl.

    Args:
        requests: the captured requests, in send order.
        page_url: the crawled URL (the page's ``title``, as browsers write it).
        started_ms: page start, epoch ms (default: the first request's time).
        body_cap: bytes kept of each body; total_cap: bytes of entries kept.
        keep_secrets: write sensitive headers as sent (the key owner's opt-in).
        version: ``log.creator.version``; tagcrawl's own by default.
    Returns:
        ``{"log": {"version": "1.2", "creator", "pages": [page_1], "entries"}}``;
        ``log._omittedEntries`` counts entries left out by ``total_cap``.
    """
    requests = list(requests)
    start = started_ms if started_ms is not None else (requests[0].timestamp if requests else 0.0)
    entries, size, omitted = [], 0, 0
    for req in requests:
        entry = har_entry(req, "page_1", body_cap, keep_secrets)
        cost = len(json.dumps(entry, ensure_ascii=False, default=str))
        if size + cost > total_cap:
            omitted += 1
            continue
        size += cost
        entries.append(entry)
    log: dict[str, Any] = {
        "version": "1.2", "creator": {"name": "tagcrawl", "version": version},
        "pages": [{"id": "page_1", "title": page_url, "startedDateTime": _iso(start),
                   "pageTimings": {"onContentLoad": -1, "onLoad": -1}}],  # -1: not measured (HAR 1.2)
        "entries": entries,
    }
    if omitted:
        log["_omittedEntries"] = omitted
    return {"log": log}
