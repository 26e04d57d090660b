"""Customers and their whitelisted domains (the stream's origin check).

A pattern is a host name, ``example.com`` (that host only), or a wildcard,
``*.example.com`` (any subdomain of example.com, at any depth, but not
example.com itself).  Patterns are stored lowercase, IDNA-encoded, without a
trailing dot.  Scheme and port of an origin are not part of the check.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

import tldextract

from ..extensions import db
from ..models import AllowedDomain, Customer

#: Offline public-suffix data (the snapshot bundled with tldextract; no network).
EXTRACT = tldextract.TLDExtract(suffix_list_urls=())

_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")


def normalize_host(host: str) -> str:
    """Lowercase, IDNA-encoded host without a trailing dot ("" when invalid)."""
    host = (host or "").strip().rstrip(".").lower()
    if not host:
        return ""
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return ""
    return host


def normalize_pattern(pattern: str) -> str:
    """Validate and normalize a whitelist pattern.

    Args:
        pattern: ``example.com``, ``*.example.com`` (a URL is accepted and
            reduced to its host).
    Returns:
        the normalized pattern.
    Raises:
        ValueError: not a host name, or a wildcard over a public suffix
            (``*.co.uk``) or a bare ``*``.
    """
    raw = (pattern or "").strip()
    if "://" in raw:
        raw = urlsplit(raw).hostname or ""
    wildcard = raw.startswith("*.")
    host = normalize_host(raw[2:] if wildcard else raw)
    if not host or len(host) > 253 or not all(_LABEL.match(label) for label in host.split(".")):
        raise ValueError(f"{pattern!r} is not a host name or *.host pattern")
    if wildcard:
        parts = EXTRACT(host)
        if not parts.domain:
            raise ValueError(f"{pattern!r} would whitelist a whole public suffix")
    return ("*." if wildcard else "") + host


def host_allowed(host: str, patterns) -> bool:
    """True when ``host`` (normalized) matches one of ``patterns``.

    ``example.com`` matches only example.com; ``*.example.com`` matches
    a.example.com and a.b.example.com but not example.com.
    """
    if not host:
        return False
    for pattern in patterns:
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]):
                return True
        elif host == pattern:
            return True
    return False


def request_origin(origin: str | None, referer: str | None) -> tuple[str, str] | None:
    """The request's origin: the ``Origin`` header, else the Referer's origin.

    Args:
        origin: the ``Origin`` header (``"null"`` counts as missing).
        referer: the ``Referer`` header.
    Returns:
        ``(origin, host)``, e.g. ``("https://shop.example", "shop.example")``,
        or None when neither gives an http(s) origin.
    """
    found = _parse_origin(origin.strip(), False) if origin else None
    if found is None and referer:
        found = _parse_origin(referer.strip(), True)
    return found


@lru_cache(maxsize=4096)
def _parse_origin(value: str, from_referer: bool) -> tuple[str, str] | None:
    if not value or value == "null":
        return None
    try:
        parts = urlsplit(value)
        host = normalize_host(parts.hostname or "")
        parts.port  # noqa: B018  (raises ValueError for a malformed port)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    if from_referer:
        value = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
    return value, host


@lru_cache(maxsize=4096)
def registrable_domain(host: str) -> str:
    """The registrable domain of ``host``: ``a.b.example.co.uk`` -> ``example.co.uk``.

    Hosts under no public suffix (reserved names such as ``shop.example`` or
    ``app.localhost``) give their last two labels; IP addresses and single
    labels are returned as they are.
    """
    if not host:
        return host
    parts = EXTRACT(host)
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    if parts.suffix or host.replace(".", "").isdigit() or ":" in host or "." not in host:
        return host
    return ".".join(host.rsplit(".", 2)[-2:])


# --- services (used by the CLI and the tests) -------------------------------

def get_or_create_customer(name: str) -> Customer:
    """The customer called ``name``, created (and flushed) when missing."""
    name = (name or "").strip()
    if not name:
        raise ValueError("a customer needs a name")
    customer = db.session.scalar(db.select(Customer).filter_by(name=name))
    if customer is None:
        customer = Customer(name=name)
        db.session.add(customer)
        db.session.flush()
    return customer


def find_customer(name: str) -> Customer:
    """The customer called ``name``; ValueError when there is none."""
    customer = db.session.scalar(db.select(Customer).filter_by(name=name))
    if customer is None:
        raise ValueError(f"no customer named {name!r}")
    return customer


def add_domains(customer_name: str, patterns) -> list[str]:
    """Whitelist ``patterns`` for the customer (created if needed); commits.

    Returns:
        the normalized patterns that were added (already present ones are skipped).
    """
    normalized = [normalize_pattern(p) for p in patterns]
    customer = get_or_create_customer(customer_name)
    existing = {d.pattern for d in customer.domains}
    added = []
    for pattern in normalized:
        if pattern not in existing:
            customer.domains.append(AllowedDomain(pattern=pattern))
            existing.add(pattern)
            added.append(pattern)
    db.session.commit()
    _invalidate()
    return added


def remove_domain(customer_name: str, pattern: str) -> None:
    """Remove one whitelisted pattern of a customer; commits.  ValueError if absent."""
    customer = find_customer(customer_name)
    normalized = normalize_pattern(pattern)
    row = next((d for d in customer.domains if d.pattern == normalized), None)
    if row is None:
        raise ValueError(f"{normalized!r} is not whitelisted for {customer_name!r}")
    customer.domains.remove(row)
    db.session.commit()
    _invalidate()


def list_domains(customer_name: str | None = None) -> list[tuple[str, str]]:
    """``[(customer name, pattern), ...]`` sorted, for one customer or all."""
    query = (db.select(Customer.name, AllowedDomain.pattern)
             .join(AllowedDomain, AllowedDomain.customer_id == Customer.id))
    if customer_name:
        query = query.where(Customer.name == customer_name)
    return [tuple(row) for row in db.session.execute(query.order_by(Customer.name, AllowedDomain.pattern))]


def _invalidate() -> None:
    """Drop this process's token/whitelist cache (other processes expire theirs)."""
    from .tokens import clear_cache

    clear_cache()
