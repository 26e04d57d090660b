"""Vendor catalog of tagcrawl: recognises marketing pixels, tags and beacons
in captured network requests and reports each vendor + account id.

Public API:

* :func:`match_request` / :func:`match_requests` - requests -> :class:`Hit`
* :func:`match_within` - a crawl's requests -> :class:`MatchRun`, within a
  deadline and a decode budget (``bounded.py``)
* :func:`pixels_from_hits` - hits -> MarketingPixel dicts
  ``{"vendor", "account_id", "page"}`` (sync hits left out)
* :func:`syncs_from_hits` - the cookie / ID-sync hits (``Hit.kind == "sync"``)
  -> ``{"vendor", "account_id", "partner", "page", ...}`` (``syncs.py``)
* :func:`find_vendor`, :func:`vendor_key_for` - name / URL -> catalog entry
* :func:`catalog_listing` - ``GET /api/v1/vendors`` payload
* :func:`browser_patterns` - JS-compatible URL patterns for in-page tags
* :data:`CATALOG` - the tuple of all :class:`Vendor` entries
* :func:`normalise_id` - validate/normalise an account id for a vendor
* :func:`decode_budget` - ``with decode_budget(max_bytes, deadline) as b:``
  bounds the decoding work of the matching inside it (``budget.py``)

The catalog is data: one TOML file per vendor in ``catalog/`` (read and
validated by ``catalog/schema.py``, match priority stated in
``catalog/__init__.py``, model in ``model.py``); the matching code is
generic: ``matcher.py`` (match decision, id policy) over
``request_context.py`` (request decoding) and ``sources.py`` (source specs).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable
from urllib.parse import urlsplit

from tagcrawl.engine.vendors.budget import DecodeBudget, decode_budget
from tagcrawl.engine.vendors import bounded
from tagcrawl.engine.vendors.bounded import MatchRun
from tagcrawl.engine.vendors.catalog import load_catalog
from tagcrawl.engine.vendors.ids import IdFormat
from tagcrawl.engine.vendors.matcher import compile_catalog, match_with
from tagcrawl.engine.vendors.model import CATEGORIES, Pattern, Vendor
from tagcrawl.engine.vendors.syncs import is_sync, syncs_from_hits
from tagcrawl.engine.vendors.types import Hit, Request

__all__ = [
    "CATALOG", "CATEGORIES", "DecodeBudget", "Hit", "IdFormat", "MatchRun", "Pattern", "Request", "Vendor",
    "browser_patterns", "catalog_listing", "decode_budget", "find_vendor", "match_request", "match_requests",
    "match_within",
    "normalise_id", "owns_host", "pixels_from_hits", "syncs_from_hits", "vendor_key_for",
]

#: All vendors, in match-priority order (``catalog/__init__.py``).
CATALOG: tuple[Vendor, ...] = load_catalog()

_COMPILED = compile_catalog(CATALOG)
_BY_KEY: dict[str, Vendor] = {v.key: v for v in CATALOG}


def _norm_name(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower()).strip()


def _build_name_index() -> dict[str, Vendor]:
    idx: dict[str, Vendor] = {}
    for v in CATALOG:  # keys and display names take precedence over aliases
        idx.setdefault(_norm_name(v.key), v)
        idx.setdefault(_norm_name(v.name), v)
    for v in CATALOG:
        for a in v.aliases:
            idx.setdefault(_norm_name(a), v)
    return idx


_BY_NAME = _build_name_index()


def match_request(req: Request) -> list[Hit]:
    """Recognise one captured request as vendor pixel hit(s).

    Args:
        req: a :class:`Request` (url, method, post_data, resource_type,
            frame_url, timestamp, headers).
    Returns:
        ``[]`` when no vendor matches; otherwise one :class:`Hit` per event
        and account id: a GA4 ``/g/collect`` batch body with one event per
        line gives one hit per line, a comma list (Outbrain
        ``marketerId=a,b``, Adobe ``/b/ss/rs1,rs2/``) one hit per id.
        ``Hit.account_id`` is normalised when well formed (``AW-<digits>``,
        ``DC-<src>``, ``G-XXXX`` ...), reported as sent with
        ``Hit.warnings`` when outside the vendor's usual format, or None
        when the request carries no id (library load).
        A CORS preflight (method ``OPTIONS``) yields no hit.
        Never raises, whatever the URL/body.
    """
    return match_with(_COMPILED, req)


def match_requests(reqs: Iterable[Request]) -> list[Hit]:
    """:func:`match_request` over many requests; hits in request order."""
    out: list[Hit] = []
    for r in reqs:
        out.extend(match_with(_COMPILED, r))
    return out


def match_within(reqs: Iterable[Request], deadline: float, budget_bytes: int) -> MatchRun:
    """:func:`match_requests` bounded by ``deadline`` (monotonic s, checked
    before each request) and a decode budget of ``budget_bytes``; see
    :func:`bounded.match_within`."""
    return bounded.match_within(_COMPILED, reqs, deadline, budget_bytes)


def pixels_from_hits(hits: Iterable[Hit]) -> list[dict[str, Any]]:
    """Deduplicate hits into MarketingPixel objects.

    Args:
        hits: hits in capture order; sync hits (``Hit.kind == "sync"``) are
            skipped (:func:`syncs_from_hits` reports them).
    Returns:
        ``[{"vendor": <display name>, "account_id": <id or None>,
        "page": <frame_url of the first hit>, "warnings": [<str>, ...]}, ...]``,
        one per distinct (vendor, account_id), in first-seen order.
        ``warnings`` (vocabulary in ``ids.py``) says why an id is unusual for
        its vendor; ``[]`` when it looks normal.  Hits without an account id
        are dropped when the same vendor has a hit with an id (flagged or
        not); otherwise the vendor is reported once with ``account_id`` None.
    """
    hits = [h for h in hits if not is_sync(h)]
    with_id = {h.vendor_key for h in hits if h.account_id is not None}
    by_key: dict[tuple[str, str | None], dict[str, Any]] = {}
    for h in hits:
        if h.account_id is None and h.vendor_key in with_id:
            continue
        k = (h.vendor_key, h.account_id)
        pixel = by_key.get(k)
        if pixel is None:
            pixel = by_key[k] = {"vendor": h.vendor_name, "account_id": h.account_id, "page": h.frame_url,
                                 "warnings": []}
        for w in h.warnings:
            if w not in pixel["warnings"]:
                pixel["warnings"].append(w)
    return list(by_key.values())


def find_vendor(name: str) -> Vendor | None:
    """Look a vendor up by key, display name or alias.

    Case-insensitive; surrounding whitespace is ignored and ``_``/``-``/
    runs of spaces are equivalent (``"google_ads"`` == ``"Google Ads"``).
    ``find_vendor("Meta")`` -> the ``facebook`` entry; unknown -> None.
    """
    if not isinstance(name, str) or not name.strip():
        return None
    return _BY_NAME.get(_norm_name(name))


_NAME_SUFFIXES = re.compile(r"\s+(?:pixel|tag|insight tag|ads|advertising|analytics|tracking)$")


def vendor_key_for(vn: str | None, vu: str | None) -> str:
    """Catalog key for a vendor name and/or a vendor URL (stream ingestion).

    Args:
        vn: vendor name as reported by a client (``"Facebook Pixel"``,
            ``"X"``), or None.
        vu: a URL of the vendor (a beacon or script URL, or just its
            domain), or None.
    Returns:
        the catalog key (``"facebook"``) or ``"unknown"``.  The name is tried
        first (key / name / alias, then without a trailing "pixel", "tag",
        "ads", ...); then the URL is matched as a request, then by host only.
    """
    if isinstance(vn, str) and vn.strip():
        v = find_vendor(vn)
        if v is None:
            v = find_vendor(_NAME_SUFFIXES.sub("", _norm_name(vn)))
        if v is not None:
            return v.key
    if isinstance(vu, str) and vu.strip():
        url = vu.strip()
        if "://" not in url:
            url = "https://" + url.lstrip("/")
        hits = match_request(Request(url=url))
        if hits:
            return hits[0].vendor_key
        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError:
            host = ""
        if host:
            for c in _COMPILED:
                if c.host is not None and c.host.search(host):
                    return c.vendor.key
    return "unknown"


@lru_cache(maxsize=4096)
def owns_host(host: str) -> bool:
    """True when a catalog pattern is anchored on ``host`` (its ``host`` regex matches):
    there the catalog decides what is a pixel (the generic beacon detector stays away).
    One regex search per host-anchored pattern; cached per host."""
    if not isinstance(host, str) or not host:
        return False
    host = host.lower()[:253]
    return any(c.host is not None and c.host.search(host) for c in _COMPILED)


def catalog_listing() -> list[dict[str, Any]]:
    """``[{"key", "name", "aliases", "category"}, ...]`` for every vendor,
    sorted by key (payload of ``GET /api/v1/vendors``)."""
    return [
        {"key": v.key, "name": v.name, "aliases": list(v.aliases), "category": v.category}
        for v in sorted(CATALOG, key=lambda v: v.key)
    ]


def _param_spec(specs: tuple[str, ...]) -> str | None:
    for s in specs:
        kind, _, arg = s.partition(":")
        if kind in ("p", "q"):
            return arg.partition("~")[0]
    return None


def _path_spec(specs: tuple[str, ...]) -> str | None:
    for s in specs:
        kind, _, arg = s.partition(":")
        if kind == "path":
            return arg
    return None


def browser_patterns() -> list[dict[str, Any]]:
    """JSON-serialisable URL patterns for a browser-side JS tag.

    Returns one dict per catalog pattern::

        {"vendor": "facebook", "name": "Meta Pixel",
         "host": "(?:^|\\\\.)(?:facebook\\\\.com)$" | None,   # test on location.hostname
         "path": "^/tr/?$" | None,                         # test on location.pathname
         "require": {"v": "^2$", "tid": "^[Gg]-"},         # query/body params that must match
         "require_body": {"eventType": ""},                # JSON-body paths that must match
         "id_param": "id" | None,                          # account id query/body param
         "id_path": "^/signals/config/([0-9]+)" | None,    # or regex whose group 1 is the id
         "event_param": "ev" | None,
         "id_prefix": "", "id_regex": "[0-9]{15,16}" | None,
         "kind": "pixel" | "sync"}

    Every regex source is usable with ``new RegExp(src)`` in JavaScript
    (and ``re.compile`` in Python).  Patterns whose id/event live only in a
    JSON body still appear (host/path) with ``id_param`` None.
    """
    out: list[dict[str, Any]] = []
    for v in CATALOG:
        fmt = v.id_format
        for p in v.patterns:
            out.append({
                "vendor": v.key,
                "name": v.name,
                "host": p.host,
                "path": p.path,
                "require": {s.partition(":")[2]: rx for s, rx in p.require if s.partition(":")[0] in ("p", "q")},
                "require_body": {s.partition(":")[2]: rx for s, rx in p.require if s.partition(":")[0] == "json"},
                "id_param": _param_spec(p.ids),
                "id_path": _path_spec(p.ids),
                "event_param": _param_spec(p.events),
                "id_prefix": fmt.prefix if fmt else "",
                "id_regex": fmt.body if fmt else None,
                "kind": p.kind,
            })
    return out


def normalise_id(vendor: str, raw: object) -> str | None:
    """Normalise ``raw`` as an account id of ``vendor`` (key/name/alias).

    ``normalise_id("google_ads", "123456789")`` -> ``"AW-123456789"``;
    ``normalise_id("facebook", "abc")`` -> None.  Unknown vendor -> None.
    """
    v = find_vendor(vendor) if isinstance(vendor, str) else None
    if v is None:
        return None
    if v.id_format is None:
        return str(raw).strip() or None if isinstance(raw, (str, int)) else None
    return v.id_format.normalise(raw)
