"""The stored choice: what the page wrote in the moment after a consent click.

``written(before, after)`` compares two ``choice.state`` snapshots, taken just
before the click and once the page settled after it (the quiet wait, at most
``QUIET_CAP_MS`` and never past the crawl deadline): every cookie, localStorage
and sessionStorage key of the top document that appeared or changed is the
stored choice, whatever its name.  Left out: cookies of another site than the
page (a third party's) and names that belong to a known vendor
(``vendors.cookies``: ``_ga``, ``_fbp``...), which are tags reacting to the
choice, not the choice.  At most ``MAX_STORED`` keys, in the order cookies,
localStorage, sessionStorage, each sorted by name.
"""
from __future__ import annotations

from dataclasses import dataclass

from tagcrawl.engine.compliance.party import party
from tagcrawl.engine.vendors.cookies import cookie_vendor_key

MAX_STORED = 20
#: Where a stored choice was written: ``StoredChoice.type``.
TYPES = ("cookie", "localStorage", "sessionStorage")


@dataclass(frozen=True)
class StoredChoice:
    """One key written by the click: ``type`` ("cookie", "localStorage" or
    "sessionStorage"), ``name`` and, for a cookie, its ``domain``."""

    type: str
    name: str
    domain: str | None = None

    def as_dict(self) -> dict:
        """``{type, name, domain}`` (the report's ``consent.stored_choice`` item)."""
        return {"type": self.type, "name": self.name, "domain": self.domain}


def _own(name: str) -> bool:
    return cookie_vendor_key(name) is None


def written(before: dict, after: dict) -> list[StoredChoice]:
    """The keys the page wrote between two snapshots (``{cookies: {(name,
    domain): value}, storage: {key: value}, session: {key: value}, host}``);
    at most ``MAX_STORED``, each name cut at 200 characters."""
    host = after.get("host") or before.get("host") or ""
    old, new = before.get("cookies") or {}, after.get("cookies") or {}
    found = [StoredChoice("cookie", name, domain) for (name, domain), value in sorted(new.items(), key=str)
             if old.get((name, domain)) != value and isinstance(name, str) and _own(name)
             and (not host or party(domain or "", host) == "first")]
    for kind, field in (("localStorage", "storage"), ("sessionStorage", "session")):
        old, new = before.get(field) or {}, after.get(field) or {}
        found += [StoredChoice(kind, key) for key, value in sorted(new.items()) if old.get(key) != value
                  and _own(key)]
    return [StoredChoice(s.type, s.name[:200], s.domain) for s in found[:MAX_STORED]]
