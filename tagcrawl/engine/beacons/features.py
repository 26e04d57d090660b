"""What one request says about itself, for the generic beacon detector
(``detector.py``): is it shaped like a beacon (:func:`shape`), and what does
its payload carry (:func:`read_payload`): page context, an event, key-shaped
identifiers.

The payload is the query, the ``;k=v`` path parameters and the body, decoded
by the catalog's own decoders (``vendors.request_context.RequestContext``:
form, JSON, newline batches, multipart, base64 / gzip / lz-string wrapped JSON,
``Content-Encoding``), within their bounds and the crawl's decode budget
(``vendors.budget``); JSON (a body or a parameter holding JSON or base64 JSON)
is walked here at most :data:`NODES_MAX` nodes and :data:`DEPTH_MAX` levels
deep; at most :data:`PARAMS_MAX` parameters and :data:`LINES_MAX` batch lines
are read.  Every function is total: garbage in, "nothing found" out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from tagcrawl.engine.vendors import encodings
from tagcrawl.engine.vendors.request_context import RequestContext

#: Resource types a beacon is sent as (CDP ``Network.ResourceType``, lower case; ``ping``: sendBeacon / <a ping>).
TRANSPORTS = frozenset({"fetch", "xhr", "image", "ping"})
#: Methods a beacon is sent with.
METHODS = frozenset({"GET", "POST"})
#: A path ending like a static file (scripts, styles, fonts, documents, data files) is no beacon.
STATIC_PATH = re.compile(r"\.(?:m?js|css|woff2?|ttf|otf|eot|map|json|html?|xml|txt|svg|ico|webp|jpe?g|avif|wasm"
                         r"|mp4|webm|mp3|pdf)$", re.I)
#: A first-party request is a candidate only on a collector path.
COLLECTOR_PATH = re.compile(r"(?:^|/)(?:collect|collector|track|tracking|tracker|events?|beacons?|analytics"
                            r"|telemetry|metrics|stats|pixel|hits?|ingest|pageviews?|capture)(?:[/._-]|$)", re.I)

#: Parameters read per request (query, path, body, embedded JSON), in all.
PARAMS_MAX = 500
#: Batch lines (``Body.lines``) read.
LINES_MAX = 50
#: JSON nodes walked per document, and levels of nesting.
NODES_MAX = 2000
DEPTH_MAX = 6
#: Parameters whose value is looked at for embedded (base64) JSON.
EMBEDDED_MAX = 20
#: Characters of an identifier (longer values are no key-shaped identifier).
ID_MAX = 200

#: Key-shaped identifier names (normalised: lower case, no ``_ - .``): specific ones first.
SPECIFIC_KEYS = frozenset({
    "appkey", "writekey", "siteid", "pid", "apikey", "configid", "website", "websiteid", "projectid",
    "projectkey", "projecttoken", "sdkkey", "clientkey", "publickey", "licensekey", "trackingid", "propertyid",
    "accountid", "appid", "applicationid", "sitekey", "workspaceid", "measurementid", "containerid", "ingestkey",
})
#: Generic identifier names: only at the top level of the payload, and only when stable (``detector.py``).
GENERIC_KEYS = frozenset({"token", "id", "tid", "key"})
#: Headers carrying a key (normalised, a leading ``x`` removed): ``X-Api-Key``, ``App-Key``, ``X-Write-Key`` ...
HEADER_KEYS = frozenset({"appkey", "apikey", "writekey", "sdkkey", "clientkey", "projectkey", "sitekey",
                         "licensekey", "ingestkey"})
#: Names of event parameters (normalised).
EVENT_KEYS = frozenset({"event", "events", "eventname", "eventtype", "ev", "en", "ea", "eventaction"})
#: Values that name an event under a ``type`` / ``name`` / ``n`` / ``t`` / ``e`` key (normalised).
EVENT_WORDS = frozenset({"pageview", "page", "track", "identify", "screen", "click", "sessionstart", "event",
                         "custom", "view", "pv", "pageload", "pagehide", "visit"})
_EVENT_HOLDERS = frozenset({"type", "name", "n", "t", "e", "action"})
#: Referrer names (any value), short referrer names (a URL value only), screen names (a size value).
REFERRER_KEYS = frozenset({"referrer", "referer", "documentreferrer", "pagereferrer"})
SHORT_REFERRER_KEYS = frozenset({"ref", "dr", "r", "rf"})
SCREEN_KEYS = frozenset({"screen", "screenresolution", "resolution", "sr", "sw", "sh", "screenwidth",
                         "screenheight", "vp", "viewport", "viewportsize", "res", "sd"})
_SIZE = re.compile(r"^[0-9]{2,5}(?:[x*][0-9]{2,5})?$")
_ID_SHAPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{1,199}$")
_NOT_IDS = frozenset({"true", "false", "null", "undefined", "none", "nan", "anonymous", "unknown", "default"})
_NORM = re.compile(r"[_\-.\s$]+")


def norm(key: str) -> str:
    """``"write_Key"`` -> ``"writekey"`` (lower case, no ``_ - . $`` or spaces)."""
    return _NORM.sub("", key.lower())


@dataclass
class Payload:
    """What a request's payload carries.

    Attributes:
        context: kinds of page context found: ``"page"`` (the page's URL), ``"referrer"``, ``"screen"``, ``"ua"``.
        event: an event name (the first found), or None.
        ids: ``[(key as sent, value, rank)]``; rank 0: a specific key at the top level, 1: a specific
            key nested (at most 2 levels) or a key header, 2: a generic key at the top level.
    """

    context: set[str] = field(default_factory=set)
    event: str | None = None
    ids: list[tuple[str, str, int]] = field(default_factory=list)


def shape(req, host: str, path: str, third_party: bool) -> bool:
    """A request shaped like a beacon: sent by script (fetch/xhr), image, ping or
    beacon, with GET or POST, not to a static file's path, to a third party or
    to a first-party collector path (:data:`COLLECTOR_PATH`).  URL only, O(len(path))."""
    if not isinstance(req.resource_type, str) or req.resource_type.lower() not in TRANSPORTS:
        return False
    if not isinstance(req.method, str) or req.method.upper() not in METHODS or not host:
        return False
    if STATIC_PATH.search(path):
        return False
    return third_party or COLLECTOR_PATH.search(path) is not None


def _leaves(doc: Any) -> Iterator[tuple[str, Any, int]]:
    """``(key, scalar value, depth)`` of a JSON document, at most :data:`NODES_MAX`
    nodes and :data:`DEPTH_MAX` levels (object nesting; list items keep their depth)."""
    stack: list[tuple[str, Any, int]] = [("", doc, -1)]
    budget = NODES_MAX
    while stack and budget > 0:
        key, node, depth = stack.pop()
        budget -= 1
        if isinstance(node, dict):
            if depth + 1 < DEPTH_MAX:
                stack.extend((str(k), v, depth + 1) for k, v in reversed(list(node.items())[:budget]))
        elif isinstance(node, list):
            stack.extend((key, v, depth) for v in reversed(node[:budget]))
        elif key and not isinstance(node, bool) and isinstance(node, (str, int, float)):
            yield key, node, max(depth, 0)


def _pairs(ctx: RequestContext) -> Iterator[tuple[str, Any, int]]:
    """Every ``(key, value, depth)`` of the payload, bounded (module docstring)."""
    yield from ((k, v, 0) for k, v in ctx.base.items())
    body = ctx.body if ctx.req.post_data else None
    if body is not None:
        if body.json is not None:
            yield from _leaves(body.json)
        elif body.kind == "lines":
            for line in body.lines[:LINES_MAX]:
                yield from ((k, v, 0) for k, v in line.items())
        else:
            yield from ((k, v, 0) for k, v in body.params.items())
    looked = 0
    for value in list(ctx.base.values()) + (list(body.params.values()) if body and body.json is None else []):
        if looked >= EMBEDDED_MAX:
            break
        if isinstance(value, str) and len(value) > 8 and (value[:1] in "{[" or encodings.looks_base64(value)):
            looked += 1
            found = ctx.embedded_json(value)
            if found is not None:
                yield from _leaves(found[0])


def _page_urls(ctx: RequestContext, page_urls: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(u.split("#", 1)[0] for u in page_urls + (ctx.req.frame_url or "",) if u and len(u) > 8)


def read_payload(ctx: RequestContext, page_urls: tuple[str, ...]) -> Payload:
    """The page context, event and key-shaped identifiers of a request's payload
    (see :class:`Payload`).  At most :data:`PARAMS_MAX` parameters are looked at.

    Args:
        ctx: the decoded request (decoding happens here, lazily, within the decoders' bounds).
        page_urls: the crawled URL and the top document's URL.
    """
    out = Payload()
    urls = _page_urls(ctx, page_urls)
    context_values: set[str] = set()
    seen = 0
    for key, value, depth in _pairs(ctx):
        seen += 1
        if seen > PARAMS_MAX:
            break
        text = value if isinstance(value, str) else str(value)
        name = norm(key.rsplit(".", 1)[-1])
        if text and any(text.startswith(u) for u in urls):
            out.context.add("page")
            context_values.add(text)
        elif name in REFERRER_KEYS or (name in SHORT_REFERRER_KEYS and text.startswith(("http://", "https://"))):
            out.context.add("referrer")
            context_values.add(text)
        elif name in SCREEN_KEYS and _SIZE.match(text):
            out.context.add("screen")
        elif "Mozilla/5.0" in text:
            out.context.add("ua")
        if out.event is None and text and len(text) <= 200:
            if name in EVENT_KEYS and not text.startswith(("{", "[")):
                out.event = text
            elif name in _EVENT_HOLDERS and norm(text) in EVENT_WORDS:
                out.event = text
        rank = 0 if name in SPECIFIC_KEYS and depth == 0 else 1 if name in SPECIFIC_KEYS and depth <= 2 else \
            2 if name in GENERIC_KEYS and depth == 0 else None
        if rank is not None and _ID_SHAPE.match(text) and text.lower() not in _NOT_IDS:
            out.ids.append((key, text, rank))
    for name, value in list(ctx.headers.items())[:100]:
        key = norm(name)
        key = key[1:] if key.startswith("x") and key[1:] in HEADER_KEYS else key
        if key in HEADER_KEYS and isinstance(value, str) and _ID_SHAPE.match(value.strip()):
            out.ids.append((name, value.strip(), 1))
    out.ids = [(k, v, r) for k, v, r in out.ids if v not in context_values]
    return out
