"""Generic matcher: turns captured requests into vendor :class:`Hit` objects
using only the catalog data (see ``model.py`` for the data model).

Algorithm for one request:

1. split the URL, decode the query and ``;k=v`` path parameters;
2. try every pattern that has a ``host`` regex (catalog order), then every
   host-less (first-party) pattern; the first vendor whose pattern matches
   and yields at least one valid hit wins (a request belongs to one vendor);
3. for a matching pattern, decode the body lazily (form / JSON / lines /
   embedded base64 JSON), expand batch items (``split``), check ``require``,
   extract and normalise the account id(s) and the event name.

Id policy: when an id source yields a value but it is malformed for the
vendor's :class:`~tagcrawl.vendors.ids.IdFormat` (or does not fit the
source's ``~regex``), the pattern does not match: no hit at all, so
``facebook.com/tr?id=abc`` is not a Meta pixel.  A CORS preflight (``OPTIONS``) is never
a hit: it repeats the URL of the POST that follows but carries no data.  When no id source yields
anything (e.g. a library load like ``fbevents.js``) the hit is reported with
``account_id=None``.  In a comma list, malformed members are skipped and the
well-formed ones reported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

from . import decode
from .model import Pattern, Vendor
from .types import Hit, Request

_FLAGS = re.ASCII


@dataclass(frozen=True)
class _Spec:
    kind: str
    arg: str
    rx: re.Pattern | None


def _compile_spec(spec: str) -> _Spec:
    kind, _, arg = spec.partition(":")
    if kind in ("path", "host", "url"):
        return _Spec(kind, arg, re.compile(arg, _FLAGS))
    if kind in ("p", "q", "json", "hdr") and "~" in arg:
        name, _, rx = arg.partition("~")
        return _Spec(kind, name, re.compile(rx, _FLAGS))
    if kind not in ("p", "q", "json", "hdr", "auth", "const"):
        raise ValueError(f"unknown source spec kind: {spec!r}")
    return _Spec(kind, arg, None)


@dataclass(frozen=True)
class _Compiled:
    vendor: Vendor
    pattern: Pattern
    host: re.Pattern | None
    path: re.Pattern | None
    require: tuple[tuple[_Spec, re.Pattern], ...]
    ids: tuple[_Spec, ...]
    events: tuple[_Spec, ...]


def compile_catalog(catalog: Iterable[Vendor]) -> tuple[_Compiled, ...]:
    """Compile all patterns of ``catalog``: host-anchored patterns first,
    then host-less (first-party) ones, each group in catalog order."""
    with_host, without = [], []
    for v in catalog:
        for p in v.patterns:
            c = _Compiled(
                v, p,
                re.compile(p.host, _FLAGS) if p.host else None,
                re.compile(p.path, _FLAGS) if p.path else None,
                tuple((_compile_spec(s), re.compile(rx, _FLAGS)) for s, rx in p.require),
                tuple(_compile_spec(s) for s in p.ids),
                tuple(_compile_spec(s) for s in p.events),
            )
            (with_host if p.host else without).append(c)
    return tuple(with_host + without)


def _json_get(doc: Any, path: str) -> Any:
    """Value at dotted ``path`` (``a.b.0.c``) in a JSON document, or None.
    Keys that themselves contain dots (Adobe Media ``"analytics.reportSuite"``)
    are found too: the longest matching key wins at each level."""
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


class _Ctx:
    """Per-request decoded state (body decoded lazily)."""

    def __init__(self, req: Request):
        self.req = req
        url = req.url if isinstance(req.url, str) else ""
        self.url = url
        try:
            parts = urlsplit(url)
            self.host = (parts.hostname or "").lower()
            self.path = parts.path or ""
            query = parts.query
        except ValueError:
            self.host, self.path, query = "", "", ""
        self.query = decode.decode_query(query)
        self.base = dict(decode.decode_matrix(self.path))
        self.base.update(self.query)
        self.headers = req.headers if isinstance(req.headers, dict) else {}
        self._body: decode.Body | None = None

    @property
    def body(self) -> decode.Body:
        if self._body is None:
            data = self.req.post_data
            if isinstance(data, (bytes, bytearray)):
                data = bytes(data[: decode.MAX_BODY]).decode("utf-8", "replace")
            self._body = decode.decode_body(data if isinstance(data, str) else None)
        return self._body


#: Returned by :func:`_resolve` when a value is present but its ``~regex``
#: does not match (an id source then counts as malformed, not absent).
_MISMATCH = object()


class _Item:
    """One hit candidate: merged params + JSON item + whole JSON document."""

    __slots__ = ("params", "item", "doc")

    def __init__(self, params: dict[str, str], item: Any, doc: Any):
        self.params, self.item, self.doc = params, item, doc


def _items(ctx: _Ctx, p: Pattern) -> list[_Item]:
    body = ctx.body if (ctx.req.post_data or p.embedded) else decode.Body()
    params = dict(ctx.base)
    for k, v in body.params.items():
        params.setdefault(k, v)
    doc = body.json
    for name in p.embedded:
        if name in params:
            emb = decode.decode_embedded_json(params[name])
            if emb is not None:
                doc = emb
                for k, v in decode.flatten(emb).items():
                    params.setdefault(k, v)
                break
    if p.split == "lines" and body.lines:
        out = []
        for line in body.lines:
            merged = dict(ctx.base)
            merged.update(line)
            out.append(_Item(merged, None, doc))
        return out
    if p.split and p.split.startswith("json:") and doc is not None:
        node = _json_get(doc, p.split[5:])
        if not isinstance(node, list) and isinstance(doc, list):
            node = doc  # the document itself is the batch
        if isinstance(node, list) and node:
            out = []
            for it in node[: decode.MAX_ITEMS]:
                merged = dict(params)
                merged.update(decode.flatten(it))
                out.append(_Item(merged, it, doc))
            return out
    return [_Item(params, None, doc)]


def _resolve(s: _Spec, ctx: _Ctx, it: _Item) -> Any:
    """Value of a source spec for one item, or None."""
    k = s.kind
    if k in ("path", "host", "url"):
        text = ctx.path if k == "path" else ctx.host if k == "host" else ctx.url
        m = s.rx.search(text)
        if not m:
            return None
        groups = [g for g in m.groups() if g]
        return "/".join(groups) if m.re.groups else m.group(0)
    if k == "const":
        return s.arg
    if k == "auth":
        return decode.basic_auth_user(ctx.headers)
    if k == "p":
        val: Any = it.params.get(s.arg)
    elif k == "q":
        val = ctx.query.get(s.arg)
    elif k == "hdr":
        val = next((v for h, v in ctx.headers.items() if str(h).lower() == s.arg.lower()), None)
    else:  # json
        val = None
        if isinstance(it.item, (dict, list)):
            val = _json_get(it.item, s.arg)
        if val is None and it.doc is not None and it.doc is not it.item:
            val = _json_get(it.doc, s.arg)
    if val is None or val == "" or val == []:
        return None
    if s.rx is not None:
        if not isinstance(val, str):
            val = decode._str(val)
        m = s.rx.search(val)
        if not m:
            return _MISMATCH
        val = m.group(1) if s.rx.groups else m.group(0)
    return val


def _first(specs: tuple[_Spec, ...], ctx: _Ctx, it: _Item, strict: bool = False) -> Any:
    """First non-empty value; with ``strict`` a regex mismatch stops the
    search and is returned as :data:`_MISMATCH`."""
    for s in specs:
        v = _resolve(s, ctx, it)
        if v is _MISMATCH:
            if strict:
                return v
            continue
        if v is not None and v != "":
            return v
    return None


def _ids(c: _Compiled, ctx: _Ctx, it: _Item) -> list[str | None] | None:
    """Normalised ids for an item; [None] when absent; None when malformed."""
    raw = _first(c.ids, ctx, it, strict=True) if c.ids else None
    if raw is None:
        return [None]
    if raw is _MISMATCH:
        return None
    if isinstance(raw, list):
        values = raw
    elif isinstance(raw, str) and c.pattern.id_sep:
        values = [x for x in raw.split(c.pattern.id_sep) if x.strip()]
    else:
        values = [raw]
    fmt = c.vendor.id_format
    out: list[str | None] = []
    for v in values[: decode.MAX_ITEMS]:
        if fmt is not None:
            n = fmt.normalise(v)
        elif isinstance(v, (str, int)) and not isinstance(v, bool):
            n = str(v).strip()[:200] or None
        else:
            n = None
        if n is not None and n not in out:
            out.append(n)
    return out or None


def _event(c: _Compiled, ctx: _Ctx, it: _Item) -> str | None:
    v = _first(c.events, ctx, it)
    if v is None:
        return None
    if isinstance(v, list):
        v = next((x for x in v if isinstance(x, str) and x), None)
        if v is None:
            return None
    return decode._str(v)[:200] or None


def _match_one(c: _Compiled, ctx: _Ctx) -> list[Hit]:
    if c.host is not None and not c.host.search(ctx.host):
        return []
    if c.path is not None and not c.path.search(ctx.path):
        return []
    req = ctx.req
    hits: list[Hit] = []
    for it in _items(ctx, c.pattern):
        ok = True
        for spec, rx in c.require:
            v = _resolve(spec, ctx, it)
            if v is None or v is _MISMATCH or not rx.search(v if isinstance(v, str) else decode._str(v)):
                ok = False
                break
        if not ok:
            continue
        ids = _ids(c, ctx, it)
        if ids is None:
            continue
        event = _event(c, ctx, it)
        for account in ids:
            hits.append(Hit(
                vendor_key=c.vendor.key, vendor_name=c.vendor.name, account_id=account,
                event=event, params=dict(it.params), url=ctx.url,
                method=(req.method or "GET").upper() if isinstance(req.method, str) else "GET",
                transport=req.resource_type if isinstance(req.resource_type, str) else "other",
                frame_url=req.frame_url, timestamp=req.timestamp,
            ))
    return hits


#: Methods that never carry a hit: a CORS preflight (``OPTIONS``) precedes a
#: JSON POST to a vendor and repeats its URL, but sends no data.
_NO_HIT_METHODS = frozenset({"OPTIONS"})


def match_with(compiled: tuple[_Compiled, ...], req: Request) -> list[Hit]:
    """Match one request against compiled patterns (see module docstring)."""
    if isinstance(req.method, str) and req.method.upper() in _NO_HIT_METHODS:
        return []
    try:
        ctx = _Ctx(req)
    except Exception:
        return []
    for c in compiled:
        try:
            hits = _match_one(c, ctx)
        except Exception:  # defensive: garbage input must never raise
            hits = []
        if hits:
            return hits
    return []


def iter_match(compiled: tuple[_Compiled, ...], reqs: Iterable[Request]) -> Iterator[Hit]:
    for r in reqs:
        yield from match_with(compiled, r)
