"""The ``storage`` list of a crawl: every localStorage and sessionStorage write
the page hooks saw (``engine/collectors/storage.py``), attributed to the
organisation of the script that wrote it.

The writer is the script URL of the first stack frame outside the hooks; its
host is a third party of the page or not (``hosts.Party``), and
third-party-web names its entity and organisation (``entities.py``).  An inline
script's frame names the document's URL (a first-party write when the
document is the page's); a write with no script URL on its stack (code run by
``eval`` without a source, a page that replaced ``Error.prepareStackTrace``)
has ``script`` null and counts as first party.

Bounds: the writes are at most ``collectors.storage.MAX_WRITES`` (500), so the
list is; each lookup is O(host labels).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from tagcrawl.engine.parties.hosts import Party, host_of


@dataclass
class StorageEntry:
    """One ``storage`` entry (``core/schemas/crawl_parties.py`` ``StorageWriteSchema``).

    Attributes:
        area: ``"local"`` or ``"session"``.
        key: the key (cut with the truncation mark past 256 characters).
        bytes: UTF-8 size of the value written, bytes (the value itself is never kept).
        script: URL of the writing script, or None when its stack named none.
        third_party: the script's host is a third party of the page.
        organisation, entity, category: third-party-web's attribution of the script's host, or None.
        phase: consent phase of the write (``compliance.report.PHASES``).
    """

    area: str
    key: str
    bytes: int
    script: str | None
    third_party: bool
    organisation: str | None
    entity: str | None
    category: str | None
    phase: str


def writer_host(write) -> str:
    """Lower-case host of a write's script URL, ``""`` without one."""
    return host_of(getattr(write, "script", None))


def attribute_writes(writes: Iterable, party: Party, phase_at: Callable[[float], str]) -> list[StorageEntry]:
    """The ``storage`` entries of a crawl's writes, in the order written.

    Args:
        writes: ``collectors.storage.StorageWrite`` objects (at most 500).
        party: first/third-party decisions and the entity index for the crawled page.
        phase_at: epoch ms -> consent phase (``compliance.report.ConsentFacts.phase_at``).
    Returns:
        one :class:`StorageEntry` per write.
    """
    out = []
    for write in writes:
        host = writer_host(write)
        entity = party.index.lookup(host) if host else None
        out.append(StorageEntry(
            area=write.area, key=write.key, bytes=write.bytes, script=write.script,
            third_party=party.third(host), organisation=entity.organisation if entity else None,
            entity=entity.name if entity else None, category=entity.category if entity else None,
            phase=phase_at(write.timestamp)))
    return out
