"""Generic matcher: turns captured requests into vendor :class:`Hit` objects
using only the catalog data (see ``model.py`` for the data model).

Algorithm for one request:

1. split the URL, decode the query and ``;k=v`` path parameters
   (:class:`~tagcrawl.engine.vendors.request_context.RequestContext`);
2. try every pattern that has a ``host`` regex (catalog order), then every
   host-less (first-party) pattern; the first vendor whose pattern matches
   and yields at least one valid hit wins (a request belongs to one vendor).
   A host-less pattern is skipped on a host that other vendors own (their
   host-anchored event patterns match the host): a protocol that
   several vendors speak (Segment, Snowplow, Matomo) is named by the host
   that receives it, and its generic shape is used only when no vendor owns
   the host (a true first-party proxy or collector);
3. for a matching pattern, decode the body lazily (form / JSON / lines /
   embedded base64 JSON), expand batch items (``split``), check ``require``,
   extract and normalise the account id(s) and the event name.

Decoding a request into hit candidates is ``request_context.py``; reading a
source spec's value (``p:id``, ``json:...``) from a candidate is
``sources.py``; the match decision and the id/event policy are here.

Id policy (docs/vendors.md, "Ids as sent, and their warnings"): recognition (host, path, parameter shape, ``require``)
decides the vendor; the account id is then reported as sent.  A well-formed
id is put in its canonical form (``AW-`` prefix, case); an id outside the
vendor's :class:`~tagcrawl.engine.vendors.ids.IdFormat` (or not fitting the source's
``~regex``) is reported exactly as sent, stripped of surrounding white space,
with ``Hit.warnings`` saying why (``ids.id_warnings``).  Nothing recognised is
dropped for its id.  A CORS preflight (``OPTIONS``) is never a hit: it repeats
the URL of the POST that follows but carries no data.  When no id source
yields anything (e.g. a library load like ``fbevents.js``) the hit is reported
with ``account_id=None``.  In a comma list every member is reported.

Bounds: one request yields at most :data:`MAX_HITS` hits (``decode.MAX_ITEMS``
candidates, ``decode.MAX_ITEMS`` ids each); the hits of one request share its
decoded parameters (``Hit.params`` is a read-only mapping, never a copy).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator

from tagcrawl.engine.vendors import decode
from tagcrawl.engine.vendors.model import Pattern, Vendor, library_load
from tagcrawl.engine.vendors.request_context import Candidate, RequestContext, candidates
from tagcrawl.engine.vendors.ids import MAX_ID_LENGTH, id_warnings
from tagcrawl.engine.vendors.sources import FLAGS, MISMATCH, SourceSpec, compile_spec, first_value, resolve
from tagcrawl.engine.vendors.types import Hit, Request

#: Most hits one request yields (a batch of 500 items with 500 ids each would be 250,000).
MAX_HITS = 1000


@dataclass(frozen=True)
class CompiledPattern:
    """One catalog :class:`~tagcrawl.engine.vendors.model.Pattern`, compiled.

    Attributes:
        vendor: the catalog entry the pattern belongs to.
        pattern: the pattern data (``split``, ``id_sep``, ``embedded`` are
            read from it at match time).
        host, path: compiled ``Pattern.host`` / ``Pattern.path``, or None.
        require: ``((spec, regex), ...)`` from ``Pattern.require``.
        ids, events: parsed ``Pattern.ids`` / ``Pattern.events`` specs
            (:class:`~tagcrawl.engine.vendors.sources.SourceSpec`).
        owns_host: a host-anchored pattern of events (no library load, no
            configuration fetch): a host it matches is the vendor's
            collection host, where other vendors' host-less patterns are
            not tried.
    """

    vendor: Vendor
    pattern: Pattern
    host: re.Pattern | None
    path: re.Pattern | None
    require: tuple[tuple[SourceSpec, re.Pattern], ...]
    ids: tuple[SourceSpec, ...]
    events: tuple[SourceSpec, ...]
    owns_host: bool = False


#: A bounded repetition (``{32}``, ``{6,16}``) in a regex source.
_BOUNDED = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")


def relax(source: str) -> str:
    """``source`` with its bounded repetitions made open (``{6,16}`` -> ``+``):
    on a vendor's own host the id's position in the path or host name is the
    shape, its length is for ``IdFormat`` to flag (``/_/ad/<31 hex>/pixel``
    is still Quora's pixel, with a truncated id)."""
    return _BOUNDED.sub("+", source)


def _relaxed(p: Pattern) -> tuple[str | None, str | None, tuple[str, ...]]:
    """(host, path, ids) of a pattern, relaxed when it is anchored on a host."""
    if not p.host:
        return p.host, p.path, p.ids
    id_in_host = any(s.startswith("host:") for s in p.ids)
    ids = tuple(relax(s) if s.startswith(("path:", "host:")) else s for s in p.ids)
    return (relax(p.host) if id_in_host else p.host), (relax(p.path) if p.path else p.path), ids


def compile_catalog(catalog: Iterable[Vendor]) -> tuple[CompiledPattern, ...]:
    """Compile all patterns of ``catalog`` (regexes with ASCII flags).

    Patterns anchored on a vendor host have the repetition bounds of their
    path (and, when the id is in the host name, host) regexes and of their
    ``path:``/``host:`` id specs opened (:func:`relax`): there the id's
    length is flagged, not part of the shape.  First-party (host-less)
    patterns keep them: without a vendor host the id's form is the shape.

    Args:
        catalog: :class:`~tagcrawl.engine.vendors.model.Vendor` entries in priority
            order (``tagcrawl.engine.vendors.CATALOG``).
    Returns:
        a tuple of :class:`CompiledPattern`: host-anchored patterns first,
        then host-less (first-party) ones, each group in catalog order.
    Raises:
        ValueError / re.error on a malformed spec or regex in the catalog.
    """
    with_host, without = [], []
    for v in catalog:
        for p in v.patterns:
            host, path, id_specs = _relaxed(p)
            c = CompiledPattern(
                v, p,
                re.compile(host, FLAGS) if host else None,
                re.compile(path, FLAGS) if path else None,
                tuple((compile_spec(s), re.compile(rx, FLAGS)) for s, rx in p.require),
                tuple(compile_spec(s) for s in id_specs),
                tuple(compile_spec(s) for s in p.events),
                bool(p.host) and not p.config and not library_load(p.path),
            )
            (with_host if p.host else without).append(c)
    return tuple(with_host + without)


def _raw_mismatch(c: CompiledPattern, ctx: RequestContext, it: Candidate) -> object:
    """The value of the first id spec whose ``~regex`` did not fit, unfiltered."""
    for spec in c.ids:
        if resolve(spec, ctx, it) is MISMATCH:
            return resolve(SourceSpec(spec.kind, spec.arg, None), ctx, it)
    return None


def _one_id(c: CompiledPattern, value: object) -> tuple[str, tuple[str, ...]] | None:
    """(id as reported, warnings) for one raw value; None when it is empty
    or not a scalar (a JSON object where an id should be)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    text = decode._str(value).strip()
    if not text:
        return None
    warnings: tuple[str, ...] = ()
    if len(text) > MAX_ID_LENGTH:
        text, warnings = text[:MAX_ID_LENGTH], ("account id is longer than 200 characters; truncated",)
    fmt = c.vendor.id_format
    canonical = fmt.normalise(text) if fmt is not None else None
    noun = (fmt.noun if fmt is not None and fmt.noun else f"{c.vendor.name} ids")
    reported = canonical or text
    return reported, warnings + id_warnings(fmt, reported, noun)


def _ids(c: CompiledPattern, ctx: RequestContext, it: Candidate) -> list[tuple[str | None, tuple[str, ...]]]:
    """``[(account id, warnings), ...]`` for a candidate: ``[(None, ())]``
    when no id source yields a value (see the module's id policy)."""
    raw = first_value(c.ids, ctx, it, strict=True) if c.ids else None
    if raw is MISMATCH:
        raw = _raw_mismatch(c, ctx, it)
    if raw is None or raw == "":
        return [(None, ())]
    if isinstance(raw, list):
        values = raw
    elif isinstance(raw, str) and c.pattern.id_sep:
        values = [x for x in raw.split(c.pattern.id_sep) if x.strip()]
    else:
        values = [raw]
    out: list[tuple[str | None, tuple[str, ...]]] = []
    seen: set[str | None] = set()
    for v in values[: decode.MAX_ITEMS]:
        one = _one_id(c, v)
        if one is not None and one[0] not in seen:
            seen.add(one[0])
            out.append(one)
    return out or [(None, ())]


def _event(c: CompiledPattern, ctx: RequestContext, it: Candidate) -> str | None:
    """Event name of a candidate (first ``events`` spec that yields one),
    capped at 200 characters, or None."""
    v = first_value(c.events, ctx, it)
    if v is None:
        return None
    if isinstance(v, list):
        v = next((x for x in v if isinstance(x, str) and x), None)
        if v is None:
            return None
    return decode._str(v)[:200] or None


def _match_one(c: CompiledPattern, ctx: RequestContext) -> list[Hit]:
    if c.host is not None and not c.host.search(ctx.host):
        return []
    if c.path is not None and not c.path.search(ctx.path):
        return []
    req = ctx.req
    hits: list[Hit] = []
    for it in candidates(ctx, c.pattern):
        if len(hits) >= MAX_HITS:
            break
        ok = True
        for spec, rx in c.require:
            v = resolve(spec, ctx, it)
            if v is None or v is MISMATCH or not rx.search(v if isinstance(v, str) else decode._str(v)):
                ok = False
                break
        if not ok:
            continue
        event = _event(c, ctx, it)
        for account, warnings in _ids(c, ctx, it)[:MAX_HITS - len(hits)]:
            hits.append(Hit(
                vendor_key=c.vendor.key, vendor_name=c.vendor.name, account_id=account,
                event=event, params=it.params, url=ctx.url,  # each candidate's own dict: no copy
                method=(req.method or "GET").upper() if isinstance(req.method, str) else "GET",
                transport=req.resource_type if isinstance(req.resource_type, str) else "other",
                frame_url=req.frame_url, timestamp=req.timestamp, warnings=warnings,
            ))
    return hits


#: Methods that never carry a hit: a CORS preflight (``OPTIONS``) precedes a
#: JSON POST to a vendor and repeats its URL, but sends no data.
_NO_HIT_METHODS = frozenset({"OPTIONS"})


def match_with(compiled: tuple[CompiledPattern, ...], req: Request, decode_params: bool = True) -> list[Hit]:
    """Match one request against compiled patterns (see module docstring).

    Args:
        compiled: the result of :func:`compile_catalog`, tried in order.
        req: a captured :class:`~tagcrawl.engine.vendors.types.Request`.
        decode_params: False matches on the URL's host and path only (no
            query, body or embedded decoding: ``RequestContext``), for a
            request past the crawl's decode budget (``vendors.bounded``).
    Returns:
        the hits of the first pattern that yields any (one
        :class:`~tagcrawl.engine.vendors.types.Hit` per candidate and account id),
        or ``[]``; a host-less pattern is not tried on a host that only
        other vendors own (``CompiledPattern.owns_host``).  Never raises.
    """
    if isinstance(req.method, str) and req.method.upper() in _NO_HIT_METHODS:
        return []
    try:
        ctx = RequestContext(req, decode_params)
    except Exception:
        return []
    owners: set[str] = set()  # vendors whose collection host this is (host-anchored patterns come first)
    for c in compiled:
        if c.host is not None:
            if not c.host.search(ctx.host):
                continue
            if c.owns_host:
                owners.add(c.vendor.key)
        elif owners and c.vendor.key not in owners:
            continue  # a shared protocol (Segment, Snowplow, Matomo) is named by the host that receives it
        try:
            hits = _match_one(c, ctx)
        except Exception:  # defensive: garbage input must never raise
            hits = []
        if hits:
            return hits
    return []


def iter_match(compiled: tuple[CompiledPattern, ...], reqs: Iterable[Request]) -> Iterator[Hit]:
    """:func:`match_with` over ``reqs``, lazily; hits in request order."""
    for r in reqs:
        yield from match_with(compiled, r)
