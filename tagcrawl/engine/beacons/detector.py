"""Generic beacons: requests that no catalog entry describes but that are
shaped and loaded like a tag's beacon (issue 27).

A request is a heuristic beacon when all of these hold (``features.py``):

1. it is sent by script (fetch / XHR), image, ping or beacon, with GET or POST,
   not to a static file's path (scripts, styles, fonts, JSON, HTML ...);
2. it goes to a third party, or to a first-party collector path
   (``/collect``, ``/track``, ``/events`` ...);
3. it carries page context (the page's URL, a referrer, a screen size, the
   user agent) or an event (``event``, ``event_type``, ``type=pageview`` ...)
   in its query or body, decoded as the catalog decodes it (JSON, form,
   batches, base64 / gzip / lz-string);
4. it carries a key-shaped identifier (``app_key``, ``writeKey``, ``siteId``,
   ``pid``, ``apikey``, ``configId``, ``website``, ``token``, ``id`` ...).

The catalog is the precise path and wins: a request a catalog pattern matched
is never looked at, nor is any request to a host a catalog pattern is anchored
on (``vendors.owns_host``: there a request the catalog did not match is a
look-alike), or to a registrable domain or a third-party-web entity where the
catalog matched a request.  Chrome's own
requests are never beacons (``parties.hosts.chrome_own``), nor are a consent
provider's (third-party-web category ``consent-provider``: they log the choice).

Beacons are grouped by vendor: the third-party-web entity of the host when it
knows it (not a ``cdn`` or ``hosting`` one: there the host is the group), else
the registrable domain (third party) or the host (first party).  A request
whose only identifiers are generic keys (``id``, ``token``, ``key``, ``tid``)
needs page context and an event, or two kinds of page context.
The **account id** of a group is the value of its best identifier key that is
stable (one value) across the group's requests: specific keys (``writeKey``)
before generic ones (``id``), top level before nested, then the key carried by
most requests.  A specific key with several values gives one account per value;
a group whose only keys are generic and unstable is not reported.

Bounds: at most :data:`REQUESTS_MAX` requests looked at, the crawl's deadline
checked before each, and the decode budget left by the catalog's matching
charged per decoded request (``vendors.bounded.request_cost``); past any of
them the loop stops and :meth:`BeaconRun.notes` says so.  At most
:data:`GROUPS_MAX` vendors and :data:`ACCOUNTS_MAX` accounts per vendor.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable
from urllib.parse import urlsplit

from tagcrawl.core.registrable import registrable_domain
from tagcrawl.engine.beacons.features import Payload, norm, read_payload, shape
from tagcrawl.engine.parties.entities import EntityIndex
from tagcrawl.engine.parties.hosts import Party, chrome_own, host_of
from tagcrawl.engine.vendors import owns_host
from tagcrawl.engine.vendors.bounded import request_cost
from tagcrawl.engine.vendors.budget import decode_budget
from tagcrawl.engine.vendors.request_context import RequestContext
from tagcrawl.engine.vendors.types import Hit, Request

#: ``Hit.vendor_key`` prefix of a heuristic beacon (``heuristic:<entity or domain>``).
HEURISTIC_PREFIX = "heuristic:"
#: Requests looked at, per crawl.
REQUESTS_MAX = 5000
#: third-party-web categories whose entity is a host of other people's code, not a vendor of beacons.
HOSTING = frozenset({"cdn", "hosting"})
#: third-party-web categories never reported: a consent provider's requests log the choice, they are no tag.
NOT_VENDORS = frozenset({"consent-provider"})
#: Vendors (groups) kept, per crawl; accounts reported per vendor.
GROUPS_MAX = 200
ACCOUNTS_MAX = 10


@dataclass
class _Beacon:
    req: Request
    payload: Payload


@dataclass
class BeaconRun:
    """What :func:`detect` found and had to leave out.

    Attributes:
        hits: one ``Hit`` per beacon request (``vendor_key`` starts with :data:`HEURISTIC_PREFIX`).
        organisations: ``vendor_key`` -> third-party-web organisation (company), for the groups it knows.
        looked_at: requests looked at; decoded: of those, decoded.
        stopped: None, "deadline", "budget" or "requests": why the loop ended early.
    """

    hits: list[Hit] = field(default_factory=list)
    organisations: dict[str, str] = field(default_factory=dict)
    looked_at: int = 0
    decoded: int = 0
    stopped: str | None = None

    def notes(self) -> list[str]:
        """What was left out, as sentences for the report's ``message``."""
        if self.stopped is None:
            return []
        return [f"generic beacon detector stopped ({self.stopped}) after {self.looked_at} requests"]


def _catalog_claims(hits: Iterable[Hit], index: EntityIndex) -> tuple[set, set, set]:
    """(requests, registrable domains, entity names) the catalog matched."""
    reqs, sites, entities = set(), set(), set()
    for h in hits:
        reqs.add((h.url, h.timestamp))
        host = host_of(h.url)
        if host:
            sites.add(registrable_domain(host))
            entity = index.lookup(host)
            if entity is not None:
                entities.add(entity.name)
    return reqs, sites, entities


def _accounts(beacons: list[_Beacon]) -> tuple[str | None, list[str | None]] | None:
    """``(key, [account id per beacon])`` of a group (module docstring), or None when it has
    no usable identifier.  Linear in the identifiers the beacons carry."""
    values: dict[tuple[str, int], list[str]] = {}
    for b in beacons:
        for key, value, rank in b.payload.ids:
            values.setdefault((norm(key), rank), []).append(value)
    if not values:
        return None
    stable = [(rank, -len(vs), key) for (key, rank), vs in values.items() if len(set(vs)) == 1]
    if stable:
        rank, _, key = min(stable)
    else:
        specific = [(rank, -len(vs), key) for (key, rank), vs in values.items() if rank < 2]
        if not specific:
            return None
        rank, _, key = min(specific)
    out: list[str | None] = []
    for b in beacons:
        out.append(next((v for k, v, r in b.payload.ids if norm(k) == key and r == rank), None))
    kept = list(dict.fromkeys(v for v in out if v is not None))[:ACCOUNTS_MAX]
    return key, [v if v in kept else None for v in out]


def detect(requests: Iterable[Request], catalog_hits: Iterable[Hit], page_url: str, index: EntityIndex,
           deadline: float, budget_bytes: int, clock: Callable[[], float] = time.monotonic) -> BeaconRun:
    """The heuristic beacons among a crawl's requests (module docstring).

    Args:
        requests: the crawl's captured requests, in capture order.
        catalog_hits: the catalog's hits of the same requests (``vendors.match_within``).
        page_url: the crawled URL.
        index: third-party-web's entities (``parties.entities.load``; may be empty).
        deadline: monotonic seconds (``clock``) after which no request is looked at.
        budget_bytes: decoding left for this detector (bytes of URL + body).
    Returns:
        :class:`BeaconRun`.  Never raises for what a request holds.
    """
    run = BeaconRun()
    party = Party(page_url, index)
    claimed, sites, entities = _catalog_claims(catalog_hits, index)
    groups: dict[str, list[_Beacon]] = {}
    names: dict[str, tuple[str, str | None]] = {}
    spent = 0
    with decode_budget(sys.maxsize, deadline if clock is time.monotonic else None):
        for req in requests:
            if run.looked_at >= REQUESTS_MAX:
                run.stopped = "requests"
                break
            if clock() >= deadline:
                run.stopped = "deadline"
                break
            run.looked_at += 1
            host = host_of(req.url)
            if not host or chrome_own(host, req.frame_url) or (req.url, req.timestamp) in claimed:
                continue
            try:
                path = urlsplit(req.url).path or "/"
            except ValueError:
                continue
            third = party.third(host)
            if not shape(req, host, path, third):
                continue
            site = registrable_domain(host)
            entity = index.lookup(host)
            if site in sites or (entity is not None and entity.name in entities) or owns_host(host):
                continue
            if entity is not None and entity.category in NOT_VENDORS:
                continue  # a CMP logging the visitor's choice is no tag
            if entity is not None and entity.category in HOSTING:
                entity, site = None, host  # a CDN or host's domain names its customer's collector, not a vendor
            group = entity.name if entity is not None else site if third else host
            if group not in groups and len(groups) >= GROUPS_MAX:
                continue
            cost = request_cost(req)
            if spent + cost > budget_bytes:
                run.stopped = "budget"
                break
            spent += cost
            run.decoded += 1
            try:
                payload = read_payload(RequestContext(req), (page_url,))
            except Exception:  # defensive: garbage input must never raise
                continue
            if not payload.ids or not (payload.context or payload.event):
                continue
            if min(r for _, _, r in payload.ids) >= 2 and len(payload.context) + bool(payload.event) < 2:
                continue  # a generic key (``id``, ``token``): page context and an event, or two kinds of context
            groups.setdefault(group, []).append(_Beacon(req, payload))
            names[group] = (group, entity.organisation if entity is not None else None)
    for group, beacons in groups.items():
        found = _accounts(beacons)
        if found is None:
            continue
        key = HEURISTIC_PREFIX + group
        if names[group][1]:
            run.organisations[key] = names[group][1]
        for b, account in zip(beacons, found[1]):
            req = b.req
            run.hits.append(Hit(
                vendor_key=key, vendor_name=group, account_id=account, event=b.payload.event, params={},
                url=req.url, method=(req.method or "GET").upper(), transport=(req.resource_type or "other").lower(),
                frame_url=req.frame_url, timestamp=req.timestamp))
    run.hits.sort(key=lambda h: h.timestamp)
    return run
