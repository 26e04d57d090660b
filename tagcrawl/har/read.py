"""Reading any HAR 1.2 file into captured requests, and classifying them.

A HAR's ``log.entries[]`` become :class:`~tagcrawl.vendors.types.Request`
objects grouped by ``pageref``; the vendor matcher and decoders are the
crawl's own (``tagcrawl.vendors``), so a HAR saved from Chrome DevTools gives
the pixels a crawl of the same traffic would.
"""
from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from ..vendors import match_requests, pixels_from_hits
from ..vendors.types import Request


class HarError(ValueError):
    """The document is not a HAR (no ``log.entries`` list)."""


def _epoch_ms(text: Any) -> float:
    try:
        return datetime.fromisoformat(str(text).replace("Z", "+00:00")).timestamp() * 1000.0
    except (TypeError, ValueError):
        return 0.0


def _body(post: Any) -> str | bytes | None:
    """``request.postData`` -> text or bytes.

    ``text`` is used as is; ``encoding: "base64"`` (written by tagcrawl and
    some proxies for binary bodies, like ``response.content.encoding``) is
    decoded to bytes; a ``params`` list without ``text`` is form-encoded.
    """
    if not isinstance(post, dict):
        return None
    text = post.get("text")
    if isinstance(text, str):
        if str(post.get("encoding") or "").lower() == "base64":
            try:
                return base64.b64decode(text)
            except (binascii.Error, ValueError):
                return text
        return text
    params = post.get("params")
    if isinstance(params, list) and params:
        return urlencode([(str(p.get("name", "")), str(p.get("value", ""))) for p in params if isinstance(p, dict)])
    return None


def _headers(items: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for h in items if isinstance(items, list) else []:
        if isinstance(h, dict) and isinstance(h.get("name"), str):
            out.setdefault(h["name"], str(h.get("value", "")))
    return out


def requests_by_page(har: Any) -> dict[str, list[Request]]:
    """Group a HAR's entries into requests per page.

    Args:
        har: the parsed HAR document (``{"log": {...}}``).
    Returns:
        ``{page id: [Request, ...]}`` in entry order; entries without a
        ``pageref`` (or with an unknown one) go under ``""``.  A request's
        ``frame_url`` is the entry's ``_frameUrl`` (tagcrawl's export) else
        the page's ``title`` (browsers write the document URL there).
    Raises:
        HarError: ``log.entries`` is missing or not a list.
    """
    log = har.get("log") if isinstance(har, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise HarError("not a HAR file: log.entries is missing")
    titles = {str(p.get("id")): p.get("title") for p in log.get("pages") or [] if isinstance(p, dict)}
    out: dict[str, list[Request]] = {pid: [] for pid in titles}
    for e in entries:
        req = e.get("request") if isinstance(e, dict) else None
        if not isinstance(req, dict) or not isinstance(req.get("url"), str):
            continue
        page = str(e.get("pageref") or "")
        page = page if page in titles else ""
        frame = e.get("_frameUrl") or titles.get(page)
        out.setdefault(page, []).append(Request(
            url=req["url"], method=str(req.get("method") or "GET").upper(), post_data=_body(req.get("postData")),
            resource_type=str(e.get("_resourceType") or "other").lower(),
            frame_url=frame if isinstance(frame, str) else None, timestamp=_epoch_ms(e.get("startedDateTime")),
            headers=_headers(req.get("headers"))))
    return out


def pixels_by_page(har: Any) -> dict[str, list[dict]]:
    """``{page id: marketingPixels}`` of a HAR (``""`` = entries without a
    page), each list in the crawl response's MarketingPixel shape.

    Raises:
        HarError: not a HAR document.
    """
    return {page: pixels_from_hits(match_requests(reqs)) for page, reqs in requests_by_page(har).items()}
