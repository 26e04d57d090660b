"""A captured request decoded for matching, and its hit candidates.

:class:`RequestContext` decodes one request once (URL split, query and
``;k=v`` path parameters; the body lazily, all via ``decode.py``) and is
shared by every catalog pattern tried on it.  :func:`candidates` expands it
into the units a pattern's source specs are read from: one per batch line or
JSON list item (``Pattern.split``), with base64/JSON embedded parameters
(``Pattern.embedded``) decoded.  :func:`json_get` reads a dotted path
(``json:<a.b.0.c>`` specs, ``split="json:<path>"``) from a JSON document.
"""
from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from tagcrawl.engine.vendors import decode, encodings
from tagcrawl.engine.vendors.model import Pattern
from tagcrawl.engine.vendors.types import Request

#: Characters of a URL split when its request is matched on its shape only.
SHAPE_URL_MAX = 8192
#: Parameter entries one pattern's candidates of one request may hold in all
#: (each batch item's dict repeats the request's own parameters); the items
#: past it are not expanded.
CANDIDATE_ENTRIES_MAX = 50_000


def json_get(doc: Any, path: str) -> Any:
    """Value at dotted ``path`` in a JSON document, or None.

    Args:
        doc: a decoded JSON value (dict / list / scalar).
        path: ``"a.b.0.c"`` (list indexes are digits); ``""`` is ``doc``.
    Returns:
        the value found (any JSON type), None when a step is missing or null.
        Keys that themselves contain dots (Adobe Media
        ``"analytics.reportSuite"``) are found too: the longest matching key
        wins at each level.
    """
    if not path:
        return doc
    return _json_walk(doc, path.split("."), 0)


def _json_walk(node: Any, parts: list[str], depth: int) -> Any:
    if not parts:
        return node
    if depth > 32:
        return None
    if isinstance(node, dict):
        for i in range(len(parts), 0, -1):
            key = ".".join(parts[:i])
            if key in node and node[key] is not None:
                found = _json_walk(node[key], parts[i:], depth + 1)
                if found is not None:
                    return found
        return None
    if isinstance(node, list) and parts[0].isdigit() and int(parts[0]) < len(node):
        return _json_walk(node[int(parts[0])], parts[1:], depth + 1)
    return None


class RequestContext:
    """Per-request decoded state, shared by all patterns tried on a request.

    Args:
        req: the captured :class:`~tagcrawl.engine.vendors.types.Request`.
    Attributes:
        req: that request.
        url: its URL (``""`` when not a str).
        host: lower-cased host name (``""`` when unparsable).
        path: URL path, ``;params`` included.
        query: decoded query string, str -> str (``decode.decode_query``).
        base: ``;k=v`` path parameters updated with the query.
        headers: request headers (``{}`` when not a dict).
        body: the decoded body (``decode.Body``), decoded on first access.

    Embedded JSON (a base64/JSON parameter, JSON in a form field) is decoded
    once per request too (``embedded_json``, ``form_json``), however many
    patterns read it.

    With ``decode_params=False`` (a request past the crawl's decode budget,
    ``vendors.bounded``) nothing is decoded: the URL (its first
    :data:`SHAPE_URL_MAX` characters) is split for its host and path, and
    ``query``, ``base``, ``body`` and embedded JSON are empty.
    """

    def __init__(self, req: Request, decode_params: bool = True):
        self.req = req
        url = req.url if isinstance(req.url, str) else ""
        self.url = url
        self.decode_params = decode_params
        if not decode_params:
            url = url[:SHAPE_URL_MAX]
        try:
            parts = urlsplit(url)
            self.host = (parts.hostname or "").lower()
            self.path = parts.path or ""
            query = parts.query
        except ValueError:
            self.host, self.path, query = "", "", ""
        self.query = decode.decode_query(query) if decode_params else {}
        self.base = dict(decode.decode_matrix(self.path)) if decode_params else {}
        self.base.update(self.query)
        self.headers = req.headers if isinstance(req.headers, dict) else {}
        self._body: decode.Body | None = None if decode_params else decode.Body()
        self._embedded: dict[str, tuple[Any, dict[str, str]] | None] = {}
        self._form_json: tuple[Any, dict[str, str]] | None | bool = False  # False: not looked at yet

    @property
    def body(self) -> decode.Body:
        """The request body decoded by ``decode.decode_body`` after its
        ``Content-Encoding`` (``encodings.body_text``: gzip/deflate/br bytes
        are decompressed, at most ``encodings.MAX_DECODED``); computed once."""
        if self._body is None:
            text = encodings.body_text(self.req.post_data, self.headers)
            self._body = decode.decode_body(text, encodings.header(self.headers, "content-type"))
        return self._body

    def embedded_json(self, value: str) -> tuple[Any, dict[str, str]] | None:
        """``(document, flattened params)`` of a parameter holding JSON (plain,
        base64 or base64url: ``decode.decode_embedded_json``), or None; once per value."""
        if not self.decode_params:
            return None
        if value not in self._embedded:
            doc = decode.decode_embedded_json(value)
            self._embedded[value] = None if doc is None else (doc, decode.flatten(doc))
        return self._embedded[value]

    def form_json(self) -> tuple[Any, dict[str, str]] | None:
        """``(document, flattened params)`` of the first form field (of the first 50)
        holding a JSON object or list, or None; computed once."""
        if self._form_json is False:
            self._form_json = None
            for value in list(self.body.params.values())[:50]:
                if value[:1] in ("{", "["):
                    doc = decode.parse_json(value)
                    if isinstance(doc, (dict, list)):
                        self._form_json = (doc, decode.flatten(doc))
                        break
        return self._form_json


class Candidate:
    """One hit candidate of a request: the unit specs are resolved against.

    Attributes:
        params: merged parameters, str -> str (path params, query, body
            params, embedded JSON flattened, then the batch item's own), a
            read-only mapping: a batch item's is a ``ChainMap`` of its own
            parameters over the request's, which all its items share (copying
            them per item made a 240 KB request take 900 MB).
        item: the current JSON batch item (``split="json:..."``), else None.
        doc: the whole JSON document (body or embedded), or None.
    """

    __slots__ = ("params", "item", "doc")

    def __init__(self, params: Mapping[str, str], item: Any, doc: Any):
        self.params, self.item, self.doc = params, item, doc


def candidates(ctx: RequestContext, p: Pattern) -> list[Candidate]:
    """Expand a request into hit candidates for pattern ``p``.

    Args:
        ctx: the decoded request.
        p: the pattern; its ``embedded`` and ``split`` fields are used (see
            :class:`~tagcrawl.engine.vendors.model.Pattern`).
    Returns:
        one :class:`Candidate` per body line (``split="lines"``) or per JSON
        list element (``split="json:<path>"``, at most ``decode.MAX_ITEMS``);
        otherwise (or when there is no batch) a single candidate.  The
        request's parameters are built once and shared, never copied per
        candidate: memory is the decoded request's plus each item's own.  The
        shared parameters plus the items' own hold at most
        :data:`CANDIDATE_ENTRIES_MAX` entries in all, counted as each item is
        flattened: the batch items past it are left out.
    """
    body = ctx.body if (ctx.req.post_data or p.embedded) else decode.Body()
    params = dict(ctx.base)
    for k, v in body.params.items():
        params.setdefault(k, v)
    doc = body.json
    found = None
    for name in p.embedded:
        if name in params:
            found = ctx.embedded_json(params[name])
            if found is not None:
                break
    if found is None and doc is None and body.kind in ("form", "multipart"):  # JSON inside a form field
        found = ctx.form_json()
    if found is not None:
        doc = found[0]
        for k, v in found[1].items():
            params.setdefault(k, v)
    if p.split == "lines" and body.lines:
        out, entries = [], len(ctx.base)
        for line in body.lines:
            entries += len(line)
            if out and entries > CANDIDATE_ENTRIES_MAX:
                break
            out.append(Candidate(ChainMap(line, ctx.base), None, doc))
        return out
    if p.split and p.split.startswith("json:") and doc is not None:
        node = json_get(doc, p.split[5:])
        if not isinstance(node, list) and isinstance(doc, list):
            node = doc  # the document itself is the batch
        if isinstance(node, list) and node:
            out, entries = [], len(params)
            for it in node[: decode.MAX_ITEMS]:
                flat = decode.flatten(it)
                entries += len(flat)
                if out and entries > CANDIDATE_ENTRIES_MAX:
                    break
                out.append(Candidate(ChainMap(flat, params), it, doc))
            return out
    return [Candidate(params, None, doc)]


def own_entries(params) -> int:
    """Parameter entries a candidate's mapping holds itself: a batch item's own
    (the first map of its ``ChainMap``; the request's shared ones are not
    counted again), or all of a plain dict's.  O(1)."""
    return len(params.maps[0]) if isinstance(params, ChainMap) else len(params)
