"""The ``thirdParties`` list of a crawl: every third party the page contacted
or that set a cookie, attributed to its organisation by third-party-web
(``entities.py``).

One entry per third-party-web entity (``entity``: "Google Analytics",
``organisation``: its company, "Google"); a third-party host the dataset does
not know gets an entry per registrable domain with ``organisation``,
``entity`` and ``category`` null.  Each entry counts the requests sent to it
and the cookies its domains hold at the end, names its registrable domains,
the consent phase of its first request, and whether a request to it carried
an identifier (an account id the catalog or the generic beacon detector read).
Each entry also counts the localStorage/sessionStorage writes of scripts
served from its hosts (``storage.py``).  Chrome's own requests are left out
(``hosts.chrome_own``); first-party hosts are not third parties (``hosts.Party``).

Bounds: at most :data:`PARTIES_MAX` entries (later parties are counted in
:attr:`Attribution.dropped` and named in ``message``), at most
:data:`DOMAINS_MAX` domains per entry.  Work: one pass over the requests, one over the
cookies and one over the storage writes, each lookup O(host labels) (registrable domains cached).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from tagcrawl.core.registrable import registrable_domain
from tagcrawl.core.truncation import THIRD_PARTIES_MAX, THIRD_PARTY_DOMAINS_MAX
from tagcrawl.engine.parties.entities import EntityIndex
from tagcrawl.engine.parties.hosts import Party, chrome_own, host_of
from tagcrawl.engine.parties.storage import writer_host

#: Entries kept per crawl, and registrable domains per entry.
PARTIES_MAX = THIRD_PARTIES_MAX
DOMAINS_MAX = THIRD_PARTY_DOMAINS_MAX


@dataclass
class ThirdParty:
    """One ``thirdParties`` entry (``core/schemas/crawl_parties.py``).

    Attributes:
        organisation: the company (third-party-web ``company``, else the entity name), or None when unknown.
        entity: the third-party-web entity name, or None.
        category: third-party-web's category, or None.
        domains: registrable domains contacted or holding its cookies, first seen first.
        requests: requests sent to it.
        cookies: cookies of its domains at the end of the crawl.
        phase: consent phase of its first request (``compliance.report.PHASES``), None when it only set cookies.
        identifier: a request to it carried an account id.
        storage_writes: localStorage/sessionStorage writes by scripts of its hosts (``storage.py``).
    """

    organisation: str | None
    entity: str | None
    category: str | None
    domains: list[str] = field(default_factory=list)
    requests: int = 0
    cookies: int = 0
    phase: str | None = None
    identifier: bool = False
    storage_writes: int = 0
    first_ms: float | None = field(default=None, repr=False)


@dataclass
class Attribution:
    """:func:`attribute`'s result: ``parties`` in first-seen order; ``dropped``: parties past :data:`PARTIES_MAX`."""

    parties: list[ThirdParty] = field(default_factory=list)
    dropped: int = 0

    def notes(self) -> list[str]:
        """What was left out, for the report's ``message``."""
        if not self.dropped:
            return []
        return [f"thirdParties: kept {PARTIES_MAX} of {PARTIES_MAX + self.dropped}"]


class _Table:
    def __init__(self, party: Party):
        self.party, self.by_key, self.result = party, {}, Attribution()

    def get(self, host: str) -> ThirdParty | None:
        site = registrable_domain(host)
        entity = self.party.index.lookup(host)
        key = ("entity", entity.name) if entity is not None else ("site", site)
        entry = self.by_key.get(key)
        if entry is None:
            if len(self.by_key) >= PARTIES_MAX:
                self.result.dropped += 1
                return None
            entry = self.by_key[key] = ThirdParty(
                organisation=entity.organisation if entity else None, entity=entity.name if entity else None,
                category=entity.category if entity else None)
            self.result.parties.append(entry)
        if site not in entry.domains and len(entry.domains) < DOMAINS_MAX:
            entry.domains.append(site)
        return entry


def attribute(requests: Iterable, cookies: Iterable[dict], hits: Iterable, page_url: str, index: EntityIndex,
              phase_at: Callable[[float], str], storage: Iterable = ()) -> Attribution:
    """The third parties of a crawl (module docstring).

    Args:
        requests: the crawl's ``vendors.Request`` objects, in capture order.
        cookies: CDP cookies at the end of the crawl (``{"name", "domain", ...}``).
        hits: catalog and heuristic hits (their ``url`` and ``account_id``).
        page_url: the crawled URL.
        index: third-party-web's entities (empty when the dataset is missing: every party is unknown).
        phase_at: epoch ms -> consent phase (``compliance.report.ConsentFacts.phase_at``).
        storage: the crawl's storage writes (``collectors.storage.StorageWrite``, at most 500):
            each write by a third-party script counts in its party's ``storage_writes``.
    Returns:
        :class:`Attribution`.
    """
    party = Party(page_url, index)
    table = _Table(party)
    with_id = {host_of(h.url) for h in hits if getattr(h, "account_id", None) is not None}
    for req in requests:
        host = host_of(req.url)
        if not host or chrome_own(host, req.frame_url) or not party.third(host):
            continue
        entry = table.get(host)
        if entry is None:
            continue
        entry.requests += 1
        stamp = req.timestamp if isinstance(req.timestamp, (int, float)) else 0.0
        if entry.first_ms is None or stamp < entry.first_ms:
            entry.first_ms = stamp
        entry.identifier = entry.identifier or host in with_id
    for cookie in cookies:
        host = str(cookie.get("domain") or "").strip().lstrip(".").lower()
        if host and party.third(host):
            entry = table.get(host)
            if entry is not None:
                entry.cookies += 1
    for write in storage:
        host = writer_host(write)
        if host and party.third(host):
            entry = table.get(host)
            if entry is not None:
                entry.storage_writes += 1
    for entry in table.result.parties:
        entry.phase = phase_at(entry.first_ms) if entry.first_ms is not None else None
    return table.result
